raise E('{}'.format(len(x)))

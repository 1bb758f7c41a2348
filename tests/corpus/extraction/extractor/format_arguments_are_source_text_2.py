raise E('{}'.format((a)))

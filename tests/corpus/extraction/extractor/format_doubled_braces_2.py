raise E('{{{}}}'.format(a))

raise E('{} and {}'.format(a, b))

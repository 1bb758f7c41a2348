raise E('{} {}'.format(a))

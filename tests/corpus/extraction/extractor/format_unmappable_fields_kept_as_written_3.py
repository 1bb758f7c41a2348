raise E('{} {}'.format(a, *args))

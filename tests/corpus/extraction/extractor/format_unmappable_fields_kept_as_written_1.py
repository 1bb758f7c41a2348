raise E('{} {}'.format(*args))

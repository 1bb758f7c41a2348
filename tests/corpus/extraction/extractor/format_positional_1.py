raise E('{0} {1} {0}'.format(a, b))

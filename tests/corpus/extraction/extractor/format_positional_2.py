raise E('{1}'.format(a, b))

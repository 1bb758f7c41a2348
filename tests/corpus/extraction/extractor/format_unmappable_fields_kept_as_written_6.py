raise E('{3}'.format(a))

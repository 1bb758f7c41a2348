raise E('{0[key]:>3}'.format(m))

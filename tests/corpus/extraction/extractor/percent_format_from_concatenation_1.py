raise E('%s' ' and %s' % (a, b))

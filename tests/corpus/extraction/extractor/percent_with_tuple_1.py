raise E('%s and %r' % (a, b))

raise E('%s %s %s' % (a, b))

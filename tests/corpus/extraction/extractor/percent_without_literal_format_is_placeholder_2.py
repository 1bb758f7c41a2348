raise E('%s' % x % y)

raise E('%s' % (a))

raise E('%s' % (a,))

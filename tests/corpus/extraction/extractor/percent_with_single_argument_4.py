raise E('%s and %s' % args)

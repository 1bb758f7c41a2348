raise E('%s=%d' % (key, len(items)))

raise E('bad %y spec %s' % v)

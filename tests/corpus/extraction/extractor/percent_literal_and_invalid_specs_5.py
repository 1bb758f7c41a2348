raise E('ends with %' % v)

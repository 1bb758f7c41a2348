raise E('%(name)s is %(age)d' % d)

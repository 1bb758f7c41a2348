raise E('%(name)s' % {'name': n})

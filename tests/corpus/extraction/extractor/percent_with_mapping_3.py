raise E('%(name)-10s|' % vars())

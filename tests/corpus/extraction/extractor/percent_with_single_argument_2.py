raise E('bad value: %r' % obj.value)

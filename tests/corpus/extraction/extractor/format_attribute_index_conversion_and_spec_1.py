raise E('{0.attr!r}'.format(obj))

raise E('%-10s|%.3f|%5d|%+d|%#x|%05.1f' % (a, b, c, d, e, f))

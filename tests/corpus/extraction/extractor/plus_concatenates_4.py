raise E('n=' + '%d' % n + '!')

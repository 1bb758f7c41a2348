raise E('%%s is literal' % ())

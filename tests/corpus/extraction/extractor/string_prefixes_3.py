raise E(u'unicode')

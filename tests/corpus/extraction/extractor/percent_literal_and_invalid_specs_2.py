raise E('%d%%' % n)

raise E('%s only' % a)

raise E('{} {k}'.format(a, **kw))

raise E('{0:{width}}'.format(a, width=3))

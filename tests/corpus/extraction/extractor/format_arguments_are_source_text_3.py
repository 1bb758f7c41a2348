raise E('{k}'.format(k=(a + b)))

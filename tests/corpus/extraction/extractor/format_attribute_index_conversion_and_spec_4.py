raise E('{.name}'.format(item))

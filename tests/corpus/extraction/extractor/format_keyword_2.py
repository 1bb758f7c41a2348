raise E('{name}'.format(other=o))

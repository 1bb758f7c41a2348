raise E(('x' + (y)))

raise E(', '.join(('x', y)))

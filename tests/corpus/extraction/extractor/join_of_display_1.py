raise E(', '.join(['a', b, 'c']))

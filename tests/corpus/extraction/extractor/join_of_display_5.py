raise E(', '.join([]))

raise E(', '.join(x for x in y))

raise E(', '.join(sorted(names)))

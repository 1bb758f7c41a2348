raise E(', '.join(items))

raise E(key)

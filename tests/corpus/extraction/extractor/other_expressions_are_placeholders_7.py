raise E(None)

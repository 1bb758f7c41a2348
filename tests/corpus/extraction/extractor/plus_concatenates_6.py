raise E(1 + 2)

raise E(str(x))

raise E('' + x)

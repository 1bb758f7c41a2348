raise E(code, *args)

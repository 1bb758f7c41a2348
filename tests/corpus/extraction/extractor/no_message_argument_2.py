raise E(code=3)

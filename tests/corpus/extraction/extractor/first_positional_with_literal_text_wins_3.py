raise E(code, other)

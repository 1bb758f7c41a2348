raise E(F'caps {x}')

raise E(U'unicode')

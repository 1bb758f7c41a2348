raise E(10 % 3)

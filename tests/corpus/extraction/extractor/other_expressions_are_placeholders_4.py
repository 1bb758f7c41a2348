raise E(42)

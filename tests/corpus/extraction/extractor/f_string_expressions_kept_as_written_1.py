raise E(f"{'a' if b else 'c'}")

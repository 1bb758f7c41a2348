def f(mode):
    if mode == "a":
        raise ValueError("a")
    elif mode == "b":
        return
    elif mode == "c":
        pass
    elif mode == "d":
        return
    raise ValueError(f"unknown mode {mode}")

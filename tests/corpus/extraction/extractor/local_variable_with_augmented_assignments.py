def f(x, y):
    msg = "first " + x
    msg += " more"
    msg += f" {y!r}"
    raise ValueError(msg)
    msg += " after the raise"

def f():
    m = "a"
    m = m + "b"
    raise E(m)

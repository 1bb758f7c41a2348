def f():
    m = "a"
    m += "b"
    m = "c"
    m += "d"
    raise E(m)

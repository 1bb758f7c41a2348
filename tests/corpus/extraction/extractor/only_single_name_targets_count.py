def f():
    a = b = "chained"
    x, y = "t1", "t2"
    raise E(a)
    raise E(b)
    raise E(x)

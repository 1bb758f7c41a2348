def f(x, y):
    assert x
    assert x, "x must be set"
    assert x > 0, f"x is {x}"
    assert (x,
            y), (
        "multi"
        "line")
    assert isinstance(x, int), "expected int, got %s" % type(x).__name__
    assert y, y

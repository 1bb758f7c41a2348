def f():
    m: str = "annotated"
    raise E(m)

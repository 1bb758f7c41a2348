def f(items):
    for item in items:
        msg = "bad item %s" % item
    with ctx:
        msg += "!"
    raise E(msg)

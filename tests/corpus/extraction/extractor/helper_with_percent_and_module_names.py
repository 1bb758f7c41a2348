def pair(a, b):
    return "%s=%s" % (a, b)
def prefixed(x):
    return PREFIX + x
PREFIX = "pfx:"
def f(p, q):
    raise E(pair(p, q) + " / " + prefixed(p))

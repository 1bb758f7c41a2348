def h(name, value):
    return name + "=" + value
def f():
    raise E(h(k, **extra))
    raise E(h(k, *rest))
    raise E(h(*all_args))

prefix = "module prefix"
def f(prefix, *args, **kwargs):
    raise E(prefix)
def g():
    raise E(prefix)
args = "module args"
def h(*args):
    raise E(args)
lam = lambda prefix: E(prefix)

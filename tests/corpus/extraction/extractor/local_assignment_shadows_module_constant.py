MSG = "module"
def f():
    MSG = "local"
    raise E(MSG)

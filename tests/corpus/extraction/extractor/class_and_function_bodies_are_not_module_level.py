class K:
    CLS = "class attribute"
    raise E(CLS)
    def m(self):
        raise E(CLS)
def other():
    LOCAL = "other function"
def f():
    raise E(LOCAL)

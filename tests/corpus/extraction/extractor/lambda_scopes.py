import warnings
top = lambda: warnings.warn("module lambda")
def f():
    g = lambda x: warnings.warn(f"nested {x}")
    h = lambda: (lambda: warnings.warn("lambda in lambda"))
class K:
    attr = lambda self: warnings.warn("class lambda")

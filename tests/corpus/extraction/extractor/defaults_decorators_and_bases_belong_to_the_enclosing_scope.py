import warnings
def f(x=warnings.warn("default")) -> warnings.warn("annotation"):
    pass
lam = lambda x=warnings.warn("lambda default"): x
@register(warnings.warn("decorator"))
def g():
    pass
class C(warnings.warn("base")):
    def m(self, y=warnings.warn("method default")):
        pass

def f():
    from warnings import warn as inner_warn
    inner_warn("imported in the function")
def g():
    warnings.warn("imported at the end of the module")
import warnings

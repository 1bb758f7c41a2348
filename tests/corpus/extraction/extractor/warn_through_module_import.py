import warnings
def f(x):
    warnings.warn("plain")
    warnings.warn("with category", DeprecationWarning)
    warnings.warn("keyword category", category=FutureWarning, stacklevel=2)
    warnings.warn(message="keyword message", category=RuntimeWarning)
    warnings.warn("positional and stacklevel", UserWarning, 2)
    warnings.warn(f"{x} is deprecated", (PendingDeprecationWarning))
    warnings.warn()

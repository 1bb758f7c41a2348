import warnings as w
from warnings import warn as wn
from warnings import warn
w.warn("module alias")
wn("function alias", DeprecationWarning)
warn(message="from import")

PREFIX = "old"
def f():
    raise E(PREFIX + ": " + detail)
PREFIX = "module prefix"
if cond:
    IN_IF = "in if"
try:
    IN_TRY = "in try"
except ImportError:
    pass
def g():
    raise E(IN_IF + ", " + IN_TRY)

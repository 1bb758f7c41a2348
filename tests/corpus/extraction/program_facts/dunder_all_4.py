__all__ = ["walk"]
__all__.append("getenv")
if True:
    __all__.extend(["makedirs", 'removedirs'])
def f():
    __all__.append("local")

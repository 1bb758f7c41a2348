__all__ = ["old"]
__all__ = ["a", 'b', name]
__all__ += ("c",)
def f():
    __all__ = ["local"]

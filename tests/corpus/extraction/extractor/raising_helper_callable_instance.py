# A module-level instance of a class whose __call__ raises its parameter (pytest's fail/skip/exit since 9.0):
# the instance's name is a raising helper, called as a function.
class Failed(Exception):
    pass


class _Fail:
    def __call__(self, reason: str = "", pytrace: bool = True):
        __tracebackhide__ = True
        raise Failed(reason)


fail: _Fail = _Fail()
stop = _Fail()
not_an_instance = _Fail


def check(x):
    if x is None:
        fail("x must not be None", pytrace=False)

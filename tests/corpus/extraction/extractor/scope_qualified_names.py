raise RuntimeError("module level")
class C:
    raise TypeError("class body")
    def m(self):
        raise ValueError("method")
    class Inner:
        def m(self):
            raise ValueError("inner method")
def outer():
    def inner():
        raise ValueError("nested function")
    class Local:
        def m(self):
            raise ValueError("class in function")
    return inner
class D:
    def m(self):
        class E:
            def n(self):
                raise ValueError("deep")

if DEBUG:
    def outer(x):
        if x is None:
            return
        if x:
            class C:
                if FLAG:
                    raise TypeError("in a class body")
                def m(self):
                    raise TypeError("in a method")
            def inner(y):
                while y:
                    raise TypeError("in inner")
            raise TypeError("in outer")
    raise TypeError("at module level")

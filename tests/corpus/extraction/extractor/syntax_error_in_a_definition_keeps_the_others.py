def before():
    raise ValueError("before")

def broken(:
    pass

class After:
    def m(self):
        raise ValueError("after")

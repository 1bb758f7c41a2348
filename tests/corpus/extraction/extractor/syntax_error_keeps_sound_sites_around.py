def before():
    raise ValueError("before")

x = = 1

def after():
    raise ValueError("after")

def f(x):
    if x:
        raise ValueError("kept")
    if (:
        pass
def g(y):
    while y
        raise KeyError("maybe")

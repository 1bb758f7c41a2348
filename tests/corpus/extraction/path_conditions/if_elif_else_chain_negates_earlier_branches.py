def f(a, b):
    if a > 1:
        raise ValueError("first")
    elif b:
        raise ValueError("second")
    elif a == 0:
        raise ValueError("third")
    else:
        raise ValueError("otherwise")

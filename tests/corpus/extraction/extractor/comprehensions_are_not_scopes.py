import warnings
def f(xs):
    return {x: [warnings.warn(f"{x}") for _ in xs] for x in xs}

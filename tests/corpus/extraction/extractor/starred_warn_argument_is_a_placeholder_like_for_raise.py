import warnings
def f(*a):
    warnings.warn(*a)

import warnings
def f():
    result = warnings.warn(
        "spread over "
        "lines",
        DeprecationWarning,
    )
    return [warnings.warn("in comprehension") for _ in range(3)]

def _bad(name, value=None):
    """Message for a bad value."""
    return f"bad {name}: {value}"

def f(k, v):
    raise ValueError(_bad(k, value=v))
    raise ValueError(_bad(value=v, name=k))
    raise ValueError(_bad(k, v))
    raise ValueError(_bad(k))
    raise ValueError(_bad("literal", (v)))

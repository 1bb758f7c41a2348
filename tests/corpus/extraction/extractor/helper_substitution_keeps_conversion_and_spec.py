def _bad(name, value, width):
    return f"bad {name!r}: {value:>{width}} {value.attr} {value} {len(name)}"
raise ValueError(_bad(k, v, 3))

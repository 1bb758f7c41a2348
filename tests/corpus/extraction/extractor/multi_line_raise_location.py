if x:
    raise ValueError(
        "first "
        "second"
    ) from exc
try:
    pass
except Exception:  raise

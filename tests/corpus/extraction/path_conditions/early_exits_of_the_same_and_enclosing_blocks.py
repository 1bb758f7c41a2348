def f(x, items):
    if x is None:
        return None
    if x.ok():
        log("fine")
    for item in items:
        if not item:
            continue
        if item.skip:
            log("skipping")
            break
        if item.kind == "a":
            pass
        else:
            return 1
        if item.bad:
            if item.very_bad:
                return
            raise ValueError(f"bad item {item}")
    if x.late:
        return 2

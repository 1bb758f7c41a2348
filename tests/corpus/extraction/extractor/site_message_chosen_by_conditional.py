# A message chosen by a conditional expression, bound to a local and formatted at the raise (pytest's
# resolve_collection_argument), or written inline.
class UsageError(Exception):
    pass


def resolve(arg, as_pypath):
    msg = (
        "module or package not found: {arg} (missing __init__.py?)"
        if as_pypath
        else "file or directory not found: {arg}"
    )
    raise UsageError(msg.format(arg=arg))


def inline(x, strict):
    raise ValueError("strict value rejected: %r" % x if strict else "lenient value rejected: %r" % x)


def hinted(name, alt):
    hint = f" (did you mean {alt}?)" if alt else ""
    raise KeyError(f"no such name {name!r}{hint}")

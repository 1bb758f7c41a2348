# A local bound in the branches of an if statement, or extended in a branch that may not run (the standard
# library's ast.literal_eval), then raised.
def branches(v, kind):
    if kind:
        msg = "bad kind %s"
    elif kind is None:
        msg = "kind is None for %s"
    else:
        msg = "no kind given for %s"
    raise ValueError(msg % v)


def malformed(node):
    msg = "malformed node or string"
    if lno := getattr(node, "lineno", None):
        msg += f" on line {lno}"
    raise ValueError(msg + f": {node!r}")


def one_text(v):
    msg = "only one text: %s"
    raise ValueError(msg % v)

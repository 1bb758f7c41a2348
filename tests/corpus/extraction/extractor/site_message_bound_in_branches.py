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


# Each arm of an if chain binds and raises its own message (huggingface_hub's hf_raise_for_status): a raise
# sees only the bindings of its own arm, and of one arm of an if/else that extends it, never both.
def by_status(status, limited, window):
    if status == 403:
        message = "forbidden %s"
        raise PermissionError(message % status)
    elif status == 429:
        if limited:
            message = "rate limit reached"
            if window:
                message += " (window)."
            else:
                message += "."
        else:
            message = "too many requests"
        raise RuntimeError(message)

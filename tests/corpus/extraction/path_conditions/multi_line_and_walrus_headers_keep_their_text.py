def _unwrap_compiled(obj):
    if isinstance(obj, OptimizedModule):
        if (compile_kwargs := getattr(obj, "_compile_kwargs", None)) is None:
            raise RuntimeError("Failed to determine the arguments")
        return obj._orig_mod, compile_kwargs
    return obj, None

def g(a, b):
    if (a  # the first
            and b):  # a comment after the colon
        raise ValueError("both")
    with (
        open(a) as fa,
        open(b) as fb,
    ):
        warnings.warn("opened")

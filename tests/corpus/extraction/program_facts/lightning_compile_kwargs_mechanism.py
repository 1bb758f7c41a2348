from copy import deepcopy
from functools import wraps

import torch


def _capture_compile_kwargs(compile_fn):
    @wraps(compile_fn)
    def _capture(*args, **kwargs):
        compiled_model = compile_fn(model, **kwargs)
        compiled_model._compile_kwargs = deepcopy(kwargs)
        return compiled_model
    return _capture
torch.compile = _capture_compile_kwargs(torch.compile)


def _verify(obj):
    if (k := getattr(obj, "_compile_kwargs", None)) is None:
        raise RuntimeError("not compiled")
    return k

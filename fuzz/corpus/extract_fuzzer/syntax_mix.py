import os, sys as system
from .errors import CartError, OutOfStockError as OOS
from typing import *

MAX = 10
MESSAGE = "too many items: %d" % MAX


@decorator(arg=1)
class Box(Base, metaclass=Meta):
    """A box."""
    limit: int = 3

    def __init__(self, items=None, *, strict=False):
        if items is None and strict:
            raise ValueError("items must be given when strict is set")
        self._items = list(items or [])

    @property
    def size(self):
        return len(self._items)

    async def fetch(self, key):
        async with self.lock:
            try:
                return await self.store[key]
            except KeyError as e:
                raise LookupError(f"no item {key!r} in {self.name}") from e

    def check(self, value):
        match value:
            case {"kind": kind, **rest} if kind not in KINDS:
                raise TypeError("unknown kind {}".format(kind))
            case [first, *_]:
                assert first, "first item is empty"
            case _:
                raise NotImplementedError
        if not (0 < value <= self.limit):
            raise OOS(MESSAGE, sku=value)
        raise

async def f(items, lock):
    async with lock, open("x") as fh:
        for i, item in enumerate(items):
            while item.pending():
                raise TimeoutError("still pending")
        else:
            raise LookupError("no item")
    while retries > 0:
        pass
    else:
        raise TimeoutError("gave up")

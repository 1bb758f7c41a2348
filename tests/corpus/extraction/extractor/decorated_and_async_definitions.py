@functools.wraps(x)
@decorator
def decorated():
    raise ValueError("decorated")
async def coro():
    async with lock:
        raise ValueError("async")
class K:
    @staticmethod
    async def am():
        assert x, "async method"
@dataclass
class Data:
    @property
    def p(self):
        raise AttributeError("property")

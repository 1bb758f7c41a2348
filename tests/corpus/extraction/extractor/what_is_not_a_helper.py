def two_statements(x):
    y = 1
    return "two " + x
async def coroutine(x):
    return "async " + x
class K:
    def method(x):
        return "method " + x
def redefined(x):
    return "first " + x
def redefined(x):
    print(x)
    return "second " + x
def f(v):
    raise E(two_statements(v))
    raise E(coroutine(v))
    raise E(method(v))
    raise E(redefined(v))
    raise E(obj.method(v))

handlers = [print, len, repr]
part = handlers[1:3]
tail = handlers[-2:]
every = handlers[::2]
copy = handlers[:]
index = handlers[1:2, 0]
handlers.append(str)
options = {**dict(a=1), "b": handlers}
if options:
    options.update(b=part)


def use(i):
    handlers[i:]
    return handlers[-1]

def h(x):
    return "first " + x
def h(x):
    return "second " + x
raise E(h(v))

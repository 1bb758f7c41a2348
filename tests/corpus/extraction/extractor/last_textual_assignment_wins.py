def g(flag):
    if flag:
        m = "yes"
    else:
        m = "no"
    raise ValueError(m)

def a():
    pass
if x
def c():
    raise ValueError('in c')
raise KeyError('top')

assert x,\
    ("a"
     "b")
raise \
    ValueError('c')

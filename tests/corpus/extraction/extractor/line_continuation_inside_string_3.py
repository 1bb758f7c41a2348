raise E(r'a\
b')

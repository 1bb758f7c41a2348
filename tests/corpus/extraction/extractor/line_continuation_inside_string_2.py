raise E("""a\
b""")

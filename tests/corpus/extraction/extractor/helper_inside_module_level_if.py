if sys.version_info >= (3, 8):
    def h(x):
        return "in if " + x
raise E(h(v))

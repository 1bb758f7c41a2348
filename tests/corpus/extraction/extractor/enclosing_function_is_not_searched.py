def outer():
    msg = "outer"
    def inner():
        raise E(msg)

def f(e, tb):
    raise ValueError
    raise ValueError()
    raise
    raise e
    raise self.error_cls("bad %s" % x)
    raise ValueError("wrapped") from e
    raise errors.ConfigError(f"cfg {k}") from None
    raise ValueError("tb").with_traceback(tb)
    raise self._exc
    raise (ValueError)("parenthesized")
    raise (e)
    raise ValueError from e
    raise get_error()("called result")

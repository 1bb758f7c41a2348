def f(x:
    raise ValueError("unterminated {x}"
class  :
    pass
raise RuntimeError(f"{x!r:>{width}} and {{literal}} " 'implicit' "concat")
lambda: (yield)

def f(path):
    try:
        raise OSError("in the body")
    except (KeyError, ValueError) as e:
        raise RuntimeError(f"bad {e}") from e
    except OSError:
        raise
    else:
        raise ValueError("nothing went wrong")
    finally:
        raise ValueError("always")

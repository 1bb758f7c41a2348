# A class whose __init__ hands its base's __init__ arguments without text of their own: the base's
# message, with the base's parameters replaced by those arguments (docs/extraction.md, "Class messages").
class PoolError(Exception):
    def __init__(self, pool, message):
        self.pool = pool
        Exception.__init__(self, "%s: %s" % (pool, message))


class RequestError(PoolError):
    def __init__(self, pool, url, message):
        self.url = url
        PoolError.__init__(self, pool, message)


class MaxRetryError(RequestError):
    def __init__(self, pool, url, reason=None):
        self.reason = reason
        message = "Max retries exceeded with url: %s (Caused by %r)" % (url, reason)
        RequestError.__init__(self, pool, url, message)


class ByKeyword(PoolError):
    def __init__(self, where):
        super().__init__(message="closed", pool=where)


class UnknownBase(ImportedError):
    def __init__(self, x):
        super().__init__(x)


class Defined(Exception):
    pass

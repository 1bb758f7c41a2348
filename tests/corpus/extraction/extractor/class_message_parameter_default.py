class InvalidFileException(ValueError):
    def __init__(self, message="Invalid file"):
        ValueError.__init__(self, message)

class Timeout(Exception):
    def __init__(self, msg: str = "the operation timed out", *, seconds=None):
        super().__init__(msg)

class NoDefault(Exception):
    def __init__(self, message, other="not the message"):
        super().__init__(message)

class NotText(Exception):
    def __init__(self, code=404):
        super().__init__(code)


def load(fp):
    raise InvalidFileException()

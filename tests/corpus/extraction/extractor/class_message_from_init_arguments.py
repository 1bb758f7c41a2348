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


class InterpolationError(Exception):
    def __init__(self, option, section, msg):
        Exception.__init__(self, msg)


class InterpolationMissingOptionError(InterpolationError):
    def __init__(self, option, section, rawval, reference):
        msg = ("Bad value substitution: option {!r} in section {!r} contains "
               "an interpolation key {!r} which is not a valid option name".format(option, section, reference))
        InterpolationError.__init__(self, option, section, msg)

import collections

MSG = "cannot merge %s into %s"
TEMPLATE = "unknown unit {unit!r} for {quantity}"
MESSAGES = {"missing": "the key %r is missing", "empty": "the value is empty"}


class Errors:
    NOT_FOUND = "no resource at {path}"
    RETRIES = 3


Texts = collections.namedtuple("Texts", "expired revoked")
TEXTS = Texts(expired="the token expired at {when}", revoked="the token was revoked")


def merge(a, b):
    raise ValueError(MSG % (a, b))


def convert(unit, quantity):
    raise ValueError(TEMPLATE.format(unit=unit, quantity=quantity))


def get(key):
    raise KeyError(MESSAGES["missing"] % key)


def load(path):
    raise FileNotFoundError(Errors.NOT_FOUND.format(path=path))


def retries():
    raise RuntimeError(Errors.RETRIES)


def check(token):
    raise PermissionError(TEXTS.expired.format(when=token.expiry))


def requires(feature):
    message = f"the feature {feature} is not enabled"

    def decorator(function):
        def wrapper(*args, **kwargs):
            if not enabled(feature):
                raise RuntimeError(message)
            return function(*args, **kwargs)

        return wrapper

    return decorator


def enabled(feature):
    return False

class DivisionByZero(ArithmeticError):
    pass


_condition_map = {}


class Context:
    def _raise_error(self, condition, explanation=None, *args):
        error = _condition_map.get(condition, condition)
        raise error(explanation)

    def divide(self, a, b):
        if not b:
            return self._raise_error(DivisionByZero, "x / 0", a)
        return a / b


def reraise_as(error_class, exc):
    raise error_class(str(exc))


def _fail(error_class, text):
    raise error_class(text)


def load(path):
    _fail(errors.ConfigError, "cannot read the configuration")

class StatisticsError(ValueError):
    pass


def _fail_neg(values, errmsg="negative value"):
    for x in values:
        if x < 0:
            raise StatisticsError(errmsg)
        yield x


def harmonic_mean(data):
    errmsg = "harmonic mean does not support negative values"
    data = _fail_neg(data, errmsg)
    return sum(data)


class Context:
    def _raise_error(self, condition, explanation=None, *args):
        raise condition(explanation)

    def create_decimal(self, num):
        if not num:
            return self._raise_error(ValueError, "Invalid literal for Decimal: %r" % num)
        total = self.count("not a helper call with text")
        return total

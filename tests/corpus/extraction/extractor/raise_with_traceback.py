# `.with_traceback(tb)` returns the exception it is called on: what is raised is that exception.


class GrammarError(Exception):
    pass


def parse_all(text):
    try:
        return _parse(text)
    except GrammarError as exc:
        # pyparsing's parse_string clears the traceback of the caught exception.
        raise exc.with_traceback(None)


def parse_attribute(self, text):
    raise self.pending_error.with_traceback(None)


def instance_with_traceback(tb):
    raise GrammarError(f"unexpected end of input at {tb.tb_lineno}").with_traceback(tb)


def bound_instance(tb):
    err = KeyError("no such grammar rule")
    raise err.with_traceback(tb)


def method_result_is_kept(builder):
    raise builder.build().with_traceback(None)

import warnings

from .errors import APIError, GatedRepoError, NotFound


class ReturnNotNoneWarning(UserWarning):
    pass


def warn_instance(result):
    warnings.warn(ReturnNotNoneWarning(f"Expected None, but returned {result!r}"))


def warn_instance_keyword(name):
    warnings.warn(ReturnNotNoneWarning(message=f"bad {name}"), stacklevel=2)


def class_in_variable(e, code):
    cls = APIError
    if code == 404:
        cls = NotFound
    raise cls(e, explanation="x")


def class_given_to_factory(response):
    message = f"{response.status_code} Client Error. Cannot access gated repo"
    raise _format(GatedRepoError, message, response)


def class_given_to_factory_dynamic(e, response):
    raise _format(GatedRepoError, str(e), response) from e


def exception_in_variable(url):
    exc = ConnectionError(f"network down for {url}")
    raise exc


def value_not_a_call(err):
    exc = err
    raise exc


def factory_method_in_variable(e, tb):
    wrapped = errors.DBAPIError.instance(None, None, e)
    raise wrapped.with_traceback(tb) from e


async def wrap_create_connection(req, exc, client_error=ClientConnectorError, other=None):
    raise client_error(req.connection_key, exc) from exc


def no_class_default(req, error_factory=make_error):
    raise error_factory(req)

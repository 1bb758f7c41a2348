# Class texts chosen by the raise's arguments (docs/extraction.md): the texts an `__init__` builds in branches
# that test its parameters; each raise keeps those its arguments (and the defaults of the others) allow.


class Error(Exception):
    pass


class DuplicateKeyError(Error):
    def __init__(self, key, filename=None, line=None):
        parts = [repr(key), " is defined twice"]
        if filename is not None:
            where = ["In ", filename]
            if line is not None:
                where.append(f" at line {line}")
            where.append(": key ")
            where.extend(parts)
            parts = where
        else:
            parts.insert(0, "Key ")
        Error.__init__(self, "".join(parts))


class TimeoutExpiredError(Error):
    def __init__(self, command, seconds, output=None):
        if output:
            message = f"{command} timed out after {seconds}s with output {output!r}"
        else:
            message = f"{command} timed out after {seconds}s"
        super().__init__(message)


class MissingHostError(Error):
    def __init__(self, *, host=None):
        if host is None:
            text = "no host configured"
        else:
            text = f"host {host} is unreachable"
        super().__init__(text)


def add_key(key):
    raise DuplicateKeyError(key)


def read_file(key, path, number):
    raise DuplicateKeyError(key, path, number)


def read_mapping(key, origin):
    raise DuplicateKeyError(key, filename=origin)


def read_none(key):
    raise DuplicateKeyError(key, None, 7)


def wait(cmd, seconds):
    raise TimeoutExpiredError(cmd, seconds)


def wait_with_output(cmd, seconds, out):
    raise TimeoutExpiredError(cmd, seconds, output=out)


def connect():
    raise MissingHostError()


def connect_to(name):
    raise MissingHostError(host=name)


def connect_given(name):
    raise MissingHostError(host="db.local")


def spread(args):
    raise DuplicateKeyError(*args)

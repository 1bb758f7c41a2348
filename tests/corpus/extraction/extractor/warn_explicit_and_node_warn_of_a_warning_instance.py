import warnings


class Node:
    def warn(self, warning):
        warnings.warn_explicit(warning, category=None, filename="x.py", lineno=1)


class Collector(Node):
    def collect(self, name):
        self.warn(CollectionWarning(f"cannot collect {name!r} because it has a __init__ constructor"))
        log.warn("this is logged, not warned")


def shown_at(path, line):
    warnings.warn_explicit("config file ignored", UserWarning, path, line)

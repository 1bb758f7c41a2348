#!/usr/bin/env python3
"""Writes src/python/data/builtins.tsv: every name of CPython's `builtins` module, with, for the exception
and warning classes, the direct base class and the first line of the docstring.

  python3.13 scripts/gen_python_builtins.py > src/python/data/builtins.tsv

Run it with the CPython version the table should describe (the header line records it). Columns, tab
separated: name, kind (exception | alias | function | class | constant), base (the direct base for an
exception; the aliased class for an alias), doc (first docstring paragraph of an exception class).
"""
import builtins
import sys


def first_paragraph(doc):
    """The docstring's first paragraph on one line ("" when the class has none)."""
    paragraph = (doc or "").strip().split("\n\n")[0]
    return " ".join(paragraph.split())


def rows():
    for name in sorted(dir(builtins)):
        value = getattr(builtins, name)
        if isinstance(value, type) and issubclass(value, BaseException):
            if value.__name__ != name:
                yield name, "alias", value.__name__, ""
            else:
                base = value.__bases__[0].__name__ if value is not BaseException else ""
                yield name, "exception", base, first_paragraph(value.__doc__)
        elif isinstance(value, type):
            yield name, "class", "", ""
        elif callable(value):
            yield name, "function", "", ""
        else:
            yield name, "constant", "", ""


def main():
    v = sys.version_info
    print(f"# CPython {v.major}.{v.minor} builtins (scripts/gen_python_builtins.py): name, kind, base, doc")
    for row in rows():
        print("\t".join(field.replace("\t", " ") for field in row))


if __name__ == "__main__":
    main()

# ngettext chooses between a singular and a plural text (click's parser).
from gettext import ngettext


class BadOptionUsage(Exception):
    pass


def need_arguments(option_name, nargs):
    raise BadOptionUsage(
        option_name,
        ngettext(
            "Option {name!r} requires an argument.",
            "Option {name!r} requires {nargs} arguments.",
            nargs,
        ).format(name=option_name, nargs=nargs),
    )

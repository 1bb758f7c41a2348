try:
    from gettext import gettext as _
except ImportError:
    def _(s): return s


class GetoptError(Exception):
    pass


def short_has_arg(opt):
    raise GetoptError(_('option -%s not recognized') % opt, opt)


def wrap(text, name):
    return f"{name}: {text}"


def describe(name):
    raise ValueError(wrap("no such thing", name))

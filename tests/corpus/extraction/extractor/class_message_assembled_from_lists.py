class DuplicateEntry(Exception):
    def __init__(self, entry, source=None, lineno=None):
        msg = [repr(entry), " is already registered"]
        if source is not None:
            message = ["While reading ", repr(source)]
            if lineno is not None:
                message.append(" [line {0:2d}]".format(lineno))
            message.append(": entry ")
            message.extend(msg)
            msg = message
        else:
            msg.insert(0, "Entry ")
        Exception.__init__(self, "".join(msg))


class Unsortable(Exception):
    def __str__(self):
        parts = ["cannot order ", self.kind]
        parts.sort()
        return "".join(parts)


class Summary(Exception):
    def __str__(self):
        lines = ("the check failed",)
        lines += ("see the log above",)
        return "\n".join(lines)


def check(parts):
    parts = ["check ", "failed"]
    raise RuntimeError("".join(parts))

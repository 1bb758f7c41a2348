# Messages accumulated in a list, then raised as the exception's arguments (pytest's perform_collect) or
# joined: each text appended may be the message.
class UsageError(Exception):
    pass


def collect(args, collectors):
    errors = []
    for arg in args:
        if collectors:
            errors.append(f"not found: {arg}\n(no match in any of {collectors!r})")
        else:
            errors.append(f"found no collectors for {arg}")
    if errors:
        raise UsageError(*errors)


def joined(args):
    problems = []
    for arg in args:
        if arg.startswith("-"):
            problems.append(f"unknown option {arg}")
        else:
            problems.append(f"missing file {arg}")
    raise UsageError("\n".join(problems))

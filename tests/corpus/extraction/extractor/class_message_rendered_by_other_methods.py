class LookupReport:
    def __init__(self, msg, name):
        self.msg = msg


class ResourceLookupError(LookupError):
    def __init__(self, name, registry, msg=None):
        self.name = name
        self.registry = registry
        self.msg = msg

    def formatrepr(self):
        msg = self.msg
        if msg is None:
            if self.name in self.registry:
                msg = f"resource '{self.name}' depends on itself"
            else:
                msg = f"resource '{self.name}' not found"
            msg += "\n known resources: {}".format(", ".join(sorted(self.registry)))
        return LookupReport(msg, self.name)


class MissingValue(Exception):
    def __init__(self, message=None, kind=None, hint=None):
        super().__init__(message or "")
        self.kind = kind
        self.hint = hint

    def format_message(self):
        hint = f" {self.hint}" if self.hint else ""
        if self.kind == "option":
            missing = "Missing option"
        else:
            missing = "Missing value"
        return f"{missing}{hint}."

    def __str__(self):
        return "Missing value: {}".format(self.kind)


class BuildFailed(Exception):
    def __init__(self, step, error):
        super().__init__()
        self.step = step
        self.error = error

    def generate_message(self):
        reasons = ["The build of a package failed", str(self.error)]
        if self.step:
            reasons.append(f"while running {self.step}")
        return "\n\n".join(reasons)

    def __str__(self):
        return self.generate_message()


class Quiet(Exception):
    def describe(self):
        return "not a rendering method"

class APIError(Exception):
    def __str__(self):
        message = super().__str__()
        if self.is_client_error():
            message = f"{self.status} Client Error for {self.url}"
        elif self.is_server_error():
            message = f"{self.status} Server Error for {self.url}"
        if self.explanation:
            message = f'{message} ("{self.explanation}")'
        return message


class ProcessError(Exception):
    def __str__(self):
        if self.returncode < 0:
            return "Command %r died with %r." % (self.cmd, self.signal)
        else:
            return "Command %r returned non-zero exit status %d." % (self.cmd, self.returncode)


class Lookup(Exception):
    def __init__(self, name, alt=None):
        hint = f" (did you mean {alt}?)" if alt else ""
        super().__init__(f"no such name {name!r}{hint}")


class Always(Exception):
    def __str__(self):
        text = "first"
        text = "second text"
        return text

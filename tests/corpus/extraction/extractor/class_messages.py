class ConnectorError(OSError):
    def __str__(self):
        return "Cannot connect to host {0.host}:{0.port}".format(self)

class ProcessError(Exception):
    def __str__(self):
        if self.returncode < 0:
            return "Command %r died" % self.cmd
        else:
            return "Command %r returned %d" % (self.cmd, self.returncode)

class NoMatch(Exception):
    def __init__(self, name):
        super().__init__(f'No route for "{name}"')

class Old(Exception):
    def __init__(self, x):
        Exception.__init__(self, "old %s" % x)

class Usage(Exception):
    def format_message(self):
        return f"Missing {self.kind}."

class Plain(Exception):
    def __init__(self, message):
        super().__init__(message)

from logging import warn
import logging as warnings
warn("logging.warn")
warnings.warn("the name warnings is bound to logging")
logger.warn("a logger method")
self.warn("a method")
def warn2(msg): pass
warn2("local function")

import os, sys as system
import a.b.c
import x.y as xy
from . import sibling
from .. import parent as p
from .mod.sub import thing
from ..pkg.errors import ConfigError as CE, Other
from package import (one,
                     two as deux)
from __future__ import annotations
from x import *
from .y import *
def f():
    import inner

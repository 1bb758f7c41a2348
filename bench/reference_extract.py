#!/usr/bin/env python3
"""Reference extractor for errdex, built on CPython's ``ast`` (standard library only).

Implements docs/extraction.md. Usage:

    reference_extract.py DIR [--jobs N] [--out FILE]
    reference_extract.py --git GITDIR --rev REV [--jobs N] [--out FILE]

Output: JSON lines, one object per site with keys
``path, line, col, end_line, kind, type, template, function, is_test``, plus one
``{"skip": PATH, "reason": ...}`` object per file that could not be parsed. Sorted by
(path, line, col, kind).

Readings chosen where docs/extraction.md is ambiguous (the simplest one each time):

 A1 Files. Directory skipping applies to plain-directory input only (git input reads every *.py blob
    of mode 100644/100755). Only directories *below* the root are checked for pyvenv.cfg. Symlinks
    (to files or directories) are ignored altogether. "5 MB" = 5 * 1024 * 1024 bytes. Files are
    decoded as strict UTF-8 (a leading BOM is dropped, coding cookies are ignored); \r\n and lone \r
    are read as \n, like CPython's tokenizer does. Skip reasons: too_large, binary (contains a NUL
    byte), not_utf8, syntax_error, parse_error (RecursionError/MemoryError/ValueError from the
    parser), read_error.
 A2 "Literal text" (message argument choice, and "template-able string" in rules 3 and 4) means: the
    template has at least one literal (non-placeholder) character. So `FMT % ARGS` / `FMT.format(...)`
    is handled by rules 3/4 only when FMT's template (computed by rules 1-9) contains literal text;
    otherwise the whole expression is a rule-9 placeholder. A `.format` string that str.format itself
    would reject (unbalanced braces) is also a rule-9 placeholder.
 A3 `\\N{NAME}` in a non-raw str/f-string literal is kept as its source text `\\N{NAME}` (its braces
    are literal, so they are doubled in the template: `\\N{{NAME}}`). A backslash before `{`/`}` in an
    f-string is a literal backslash (the brace keeps its f-string meaning).
 A4 Rule 3: conversions are numbered 0, 1, 2, ... in order (`%%` not counted); a `*` width/precision
    does not consume a tuple element. A keyed conversion `%(key)s` is always `{key}`. When ARGS is a
    tuple display with fewer elements than conversions, the extra ones are `{ARGS[i]}`. `%%` -> `%`.
 A5 Rule 4: `{}` fields are auto-numbered; a field referring to a positional argument past a `*args`
    in the call, to a missing argument, or to a keyword given only through `**kw` is kept as written
    (`{0.x!r:>3}`). Arguments' texts are their source text even when they are literals.
 A6 Rule 5 applies to every `A + B` (numbers included). Rule 6: SEP may be any string literal
    (plain, bytes or f-string, incl. implicit concatenation); exactly one positional argument that is
    a list/tuple display, no keywords.
 A7 Rule 7: a "simple assignment" is an `Assign` with exactly one target which is a Name (so
    `a = b = "x"` does not count), or an `AnnAssign` with a value; `n += V` only with `+`. "Ends
    before the name": end position <= the name's start position. The scope of a name is its nearest
    enclosing def / lambda / class body / module; the scope's statements include nested
    if/for/while/with/try/match blocks but not nested def/class bodies. When a non-module scope
    (function, lambda or class body) has no simple assignment of the name ending before it, the last
    module-level simple assignment of it anywhere in the module is used (its value only, no `+=`);
    enclosing functions are not searched. At module scope only assignments before the name count.
    Parameters get no special treatment (a parameter with no local assignment falls back to the
    module like any other name). The value is templated in the scope and at the position where it is
    written.
 A8 Rule 8: the helper is the last plain `def` (not `async def`; decorators ignored) of that name at
    module level (same notion of module level as A7). Arguments bind positionally (up to the first
    `*arg`) and by keyword; parameters left unbound keep their placeholder. Substitution applies to
    the placeholders of the helper's return template whose text equals a parameter name.
 A9 Depth limit: the message expression is at depth 0; each recursive application (operand,
    element, format argument, resolved name value, helper body) is one level deeper; an expression at
    depth > 16 is a placeholder of its source text.
 A10 `raise X(...).with_traceback(...)`: both type and message are taken from `X(...)`.
 A11 warn: an import anywhere in the file binds (module level or inside functions, before or after
    the call). A call with no positional argument and no `message=` keyword has template null.
 A12 Decorators, default values and annotations belong to the enclosing scope (as in Python); a
    class body is its own scope for `function` (`C`) and for rule 7.
"""

import argparse
import ast
import json
import multiprocessing
import os
import re
import subprocess
import sys
import warnings

try:
    import _string  # CPython's str.format parser

    _formatter_parser = _string.formatter_parser
except ImportError:  # pragma: no cover
    import string

    _formatter_parser = string.Formatter().parse

MAX_SIZE = 5 * 1024 * 1024
DEPTH_LIMIT = 16

SKIP_DIRS = frozenset([
    ".git", ".hg", ".svn", "node_modules", "__pycache__", ".tox", ".nox", ".venv", "venv",
    "build", "dist", ".eggs", ".mypy_cache", ".pytest_cache", "site-packages",
])
TEST_DIRS = frozenset(["test", "tests", "testing"])


# Translation functions: the message is their (first, singular) argument.
GETTEXT_FUNCTIONS = frozenset({"_", "gettext", "ngettext", "gettext_lazy", "lazy_gettext", "ugettext",
                               "ugettext_lazy", "N_", "gettext_noop"})


def is_test_path(path):
    parts = path.split("/")
    name = parts[-1]
    if (name.startswith("test_") or name.endswith("_test.py") or name == "tests.py"
            or name == "conftest.py"):
        return True
    return any(p in TEST_DIRS for p in parts[:-1])


# ----------------------------------------------------------------------------------------------
# Templates are lists of parts: a str is literal text (runtime value, braces NOT doubled), a Ph is
# a placeholder holding its text.

class Ph:
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return "Ph(%r)" % self.text


def has_literal(parts):
    for p in parts:
        if p.__class__ is str and p:
            return True
    return False


def placeholder_text(text):
    """Unbalanced braces become U+2774/U+2775; text that begins with a brace is padded with a
    space (docs/extraction.md), so that the rendered template parses back unambiguously."""
    depth = 0
    balanced = True
    for c in text:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                balanced = False
    if not balanced or depth != 0:
        text = text.replace("{", "\u2774").replace("}", "\u2775")
    if text and text[0] == "{":
        text = " " + text + " "
    return text


def render(parts):
    out = []
    for p in parts:
        if p.__class__ is str:
            out.append(p.replace("{", "{{").replace("}", "}}"))
        else:
            out.append("{" + placeholder_text(p.text) + "}")
    return "".join(out)


# --- string literal decoding -------------------------------------------------------------------

_ESC_RE = re.compile(r"\\(N\{[^}\n]*\}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)",
                     re.S)
_SIMPLE_ESC = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
               "\\": "\\", "'": "'", '"': '"', "\n": ""}


def _decode_escape(e, is_bytes):
    c = e[0]
    r = _SIMPLE_ESC.get(c)
    if r is not None:
        return r
    if c == "x":
        return chr(int(e[1:], 16))
    if c in "uU" and len(e) > 1 and not is_bytes:
        try:
            return chr(int(e[1:], 16))
        except ValueError:
            return "\\" + e
    if c in "01234567":
        v = int(e, 8)
        return chr(v & 0xFF if is_bytes else v)
    return "\\" + e  # unknown escape, or \N{...} (kept as written, reading A3)


def decode_plain(body, is_bytes):
    if "\\" not in body:
        return body
    return _ESC_RE.sub(lambda m: _decode_escape(m.group(1), is_bytes), body)


_STR_START_RE = re.compile(r"([A-Za-z]{0,3})('''|\"\"\"|'|\")")
_STR_BODY_RE = {
    "'": re.compile(r"(?:[^\\'\n]|\\.)*'", re.S),
    '"': re.compile(r'(?:[^\\"\n]|\\.)*"', re.S),
    "'''": re.compile(r"(?:[^\\']|\\.|'(?!''))*'''", re.S),
    '"""': re.compile(r'(?:[^\\"]|\\.|"(?!""))*"""', re.S),
}


def iter_string_tokens(seg):
    """Yield (prefix_lower, body) for each string token of an (implicitly concatenated) literal."""
    i = 0
    n = len(seg)
    while i < n:
        c = seg[i]
        if c in " \t\f\n\r\\()":
            i += 1
            continue
        if c == "#":
            j = seg.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        m = _STR_START_RE.match(seg, i)
        if m is None:
            raise ValueError("unexpected text in string literal: %r" % seg[i:i + 20])
        q = m.group(2)
        mb = _STR_BODY_RE[q].match(seg, m.end())
        if mb is None:
            raise ValueError("unterminated string literal")
        yield m.group(1).lower(), seg[m.end():mb.end() - len(q)]
        i = mb.end()


def find_field_end(s, i):
    """Index of the '}' closing the f-string replacement field whose inside starts at i."""
    n = len(s)
    depth = 0
    in_spec = False
    while i < n:
        c = s[i]
        if in_spec:
            if depth > 0 and (c == "'" or c == '"'):  # string inside a nested field of the spec
                q = c * 3 if s.startswith(c * 3, i) else c
                k = s.find(q, i + len(q))
                i = n if k < 0 else k + len(q)
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0:
                    return i
                depth -= 1
            i += 1
            continue
        if c == "'" or c == '"':
            q = c * 3 if s.startswith(c * 3, i) else c
            k = s.find(q, i + len(q))
            i = n if k < 0 else k + len(q)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and c == ":":
            in_spec = True
        elif depth == 0 and c == "!" and not s.startswith("=", i + 1):
            in_spec = True
        i += 1
    return n


_FSPECIAL_RE = re.compile(r"[\\{}]")


def fstring_parts(body, raw, out):
    lit = []
    i = 0
    n = len(body)
    while i < n:
        m = _FSPECIAL_RE.search(body, i)
        if m is None:
            lit.append(body[i:])
            break
        j = m.start()
        if j > i:
            lit.append(body[i:j])
        c = body[j]
        if c == "\\":
            if raw or body[j + 1:j + 2] in ("{", "}"):
                lit.append("\\")
                i = j + 1
            else:
                em = _ESC_RE.match(body, j)
                if em is None:  # lone trailing backslash (cannot happen in valid code)
                    lit.append("\\")
                    i = j + 1
                else:
                    lit.append(_decode_escape(em.group(1), False))
                    i = em.end()
        elif c == "{":
            if body.startswith("{", j + 1):
                lit.append("{")
                i = j + 2
            else:
                k = find_field_end(body, j + 1)
                if lit:
                    out.append("".join(lit))
                    lit = []
                out.append(Ph(body[j + 1:k]))
                i = k + 1
        else:  # '}'
            lit.append("}")
            i = j + 2 if body.startswith("}", j + 1) else j + 1
    if lit:
        out.append("".join(lit))


def literal_parts(seg):
    """Template parts of a (possibly implicitly concatenated) str/bytes/f-string literal."""
    out = []
    for prefix, body in iter_string_tokens(seg):
        raw = "r" in prefix
        if "f" in prefix:
            fstring_parts(body, raw, out)
        elif raw:
            out.append(body)
        else:
            out.append(decode_plain(body, "b" in prefix))
    return out


# --- % formatting --------------------------------------------------------------------------------

_PCT_RE = re.compile(r"%(?:\(([^)]*)\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsab%])")


# ----------------------------------------------------------------------------------------------

_SCOPE_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_NON_NODE_FIELDS = frozenset(["ctx", "op", "ops", "id", "attr", "name", "arg", "asname", "module",
                              "level", "kind", "type_comment", "conversion", "is_async", "simple",
                              "tag", "names", "rest", "lineno"])
_CHILD_FIELDS = {}


def _child_fields(cls):
    """Fields of an AST class that may hold child nodes we need to visit."""
    if cls is ast.Constant or cls is ast.MatchSingleton:
        f = ()
    else:
        f = tuple(x for x in cls._fields if x not in _NON_NODE_FIELDS)
    _CHILD_FIELDS[cls] = f
    return f


def _scope_statements(body, out):
    """Statements of a scope body, recursing into compound blocks but not into def/class."""
    for st in body:
        out.append(st)
        t = st.__class__
        if t is ast.FunctionDef or t is ast.AsyncFunctionDef or t is ast.ClassDef:
            continue
        for f in _BLOCK_FIELDS:
            sub = getattr(st, f, None)
            if sub:
                _scope_statements(sub, out)
    return out


class FileExtractor:
    def __init__(self, path, data, tree):
        self.path = path
        self.data = data  # bytes, newlines normalized to \n
        starts = [0]
        find = data.find
        i = find(b"\n")
        while i >= 0:
            starts.append(i + 1)
            i = find(b"\n", i + 1)
        self.line_starts = starts
        self.tree = tree
        self.has_named_escape = b"\\N{" in data
        self._index_cache = {}
        self._helpers = None

    # source text of a node
    def seg(self, node):
        ls = self.line_starts
        return self.data[ls[node.lineno - 1] + node.col_offset:
                         ls[node.end_lineno - 1] + node.end_col_offset].decode("utf-8", "surrogateescape")

    # ---- rule 7 support
    def index(self, scope):
        idx = self._index_cache.get(scope)
        if idx is None:
            idx = {}
            body = scope.body if scope.__class__ is not ast.Lambda else []
            for st in _scope_statements(body, []):
                t = st.__class__
                if t is ast.Assign:
                    if len(st.targets) == 1 and st.targets[0].__class__ is ast.Name:
                        name, aug = st.targets[0].id, False
                    else:
                        continue
                elif t is ast.AnnAssign:
                    if st.value is not None and st.target.__class__ is ast.Name:
                        name, aug = st.target.id, False
                    else:
                        continue
                elif t is ast.AugAssign:
                    if st.op.__class__ is ast.Add and st.target.__class__ is ast.Name:
                        name, aug = st.target.id, True
                    else:
                        continue
                else:
                    continue
                idx.setdefault(name, []).append(
                    ((st.lineno, st.col_offset), (st.end_lineno, st.end_col_offset), aug, st.value))
            self._index_cache[scope] = idx
        return idx

    def resolve_name(self, node, scope, depth):
        name = node.id
        pos = (node.lineno, node.col_offset)
        ents = self.index(scope).get(name)
        if ents:
            best = None
            for e in ents:
                if not e[2] and e[1] <= pos:
                    best = e
            if best is not None:
                parts = list(self.templ(best[3], scope, depth + 1))
                for e in ents:
                    if e[2] and e[0] >= best[1] and e[1] <= pos:
                        parts.extend(self.templ(e[3], scope, depth + 1))
                return parts
        module = self.tree
        if scope.__class__ in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
            a = scope.args
            params = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
            params += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
            if name in params:  # a parameter shadows the module's names
                return [Ph(name)]
        found = self.free_binding(scope, name)
        if found is not None:
            return self.templ(found[1], found[0], depth + 1)
        return [Ph(name)]

    def parents(self):
        p = getattr(self, "_parents", None)
        if p is None:
            p = {}
            stack = [(self.tree, self.tree)]
            while stack:
                node, sc = stack.pop()
                for child in ast.iter_child_nodes(node):
                    if child.__class__ in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef):
                        p[child] = sc
                        stack.append((child, child))
                    else:
                        stack.append((child, sc))
            self._parents = p
        return p

    @staticmethod
    def last_plain(ents):
        best = None
        for e in ents or ():
            if not e[2]:
                best = e
        return best

    def free_binding(self, scope, name):
        """Rule 7's free name: (scope, value) of the nearest enclosing function's last assignment, else the
        module's; None when a parameter of an enclosing function binds it or nothing does."""
        module = self.tree
        if scope is module:
            return None
        parents = self.parents()
        s = parents.get(scope, module)
        while s is not module:
            if s.__class__ is not ast.ClassDef:
                a = s.args
                params = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
                params += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
                if name in params:
                    return None
                best = self.last_plain(self.index(s).get(name))
                if best is not None:
                    return (s, best[3])
            s = parents.get(s, module)
        best = self.last_plain(self.index(module).get(name))
        return None if best is None else (module, best[3])

    def bound_value(self, node, scope):
        """(scope, value) NAME holds at NODE per rule 7, or None."""
        name = node.id
        pos = (node.lineno, node.col_offset)
        best = None
        for e in self.index(scope).get(name) or ():
            if not e[2] and e[1] <= pos:
                best = e
        if best is not None:
            return (scope, best[3])
        if scope.__class__ in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
            a = scope.args
            params = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
            params += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
            if name in params:
                return None
        return self.free_binding(scope, name)

    def lookup(self, node, scope, depth):
        """`MESSAGES["key"]` of a dict display, `Errors.NOT_FOUND` of a module-level class or of a call's keyword
        (a capitalized object): the entry's template when it has literal text."""
        sub = node.__class__ is ast.Subscript
        obj = node.value
        if obj.__class__ is not ast.Name:
            return None
        if sub:
            k = node.slice
            if not (k.__class__ is ast.Constant and k.value.__class__ is str):
                return None
            key = k.value
        else:
            key = node.attr
            if not obj.id[:1].isupper():
                return None
        found = None
        bound = self.bound_value(obj, scope)
        if sub and bound is not None and bound[1].__class__ is ast.Dict:
            for kn, vn in zip(bound[1].keys, bound[1].values):
                if kn is not None and kn.__class__ is ast.Constant and kn.value.__class__ is str and kn.value == key:
                    found = (bound[0], vn)
        elif not sub and bound is not None and bound[1].__class__ is ast.Call and self.seg(bound[1])[:1].isupper():
            for kw in bound[1].keywords:
                if kw.arg == key:
                    found = (bound[0], kw.value)
        elif not sub and bound is None:
            for c in self.module_classes(obj.id):
                best = self.last_plain(self.index(c).get(key))
                if best is not None:
                    found = (c, best[3])
        if found is None:
            return None
        parts = self.templ(found[1], found[0], depth + 1)
        return parts if has_literal(parts) else None

    def module_classes(self, name):
        parents = self.parents()
        found = [c for c, p in parents.items() if p is self.tree and c.__class__ is ast.ClassDef and c.name == name]
        return sorted(found, key=lambda c: (c.lineno, c.col_offset))

    # ---- rule 8 support
    def helpers(self):
        h = self._helpers
        if h is None:
            h = {}
            for st in _scope_statements(self.tree.body, []):
                if st.__class__ is ast.FunctionDef:
                    body = st.body
                    if (len(body) == 2 and body[0].__class__ is ast.Expr
                            and body[0].value.__class__ is ast.Constant
                            and isinstance(body[0].value.value, str)):
                        body = body[1:]
                    if len(body) == 1 and body[0].__class__ is ast.Return and body[0].value is not None:
                        h[st.name] = (st, body[0].value)
                    else:
                        h.pop(st.name, None)
                elif st.__class__ is ast.AsyncFunctionDef or st.__class__ is ast.ClassDef:
                    h.pop(st.name, None)
            self._helpers = h
        return h

    # ---- templates
    def templ(self, node, scope, depth):
        if depth > DEPTH_LIMIT:
            return [Ph(self.seg(node))]
        t = node.__class__
        if t is ast.Constant:
            v = node.value
            if v.__class__ is str:
                if self.has_named_escape:
                    return literal_parts(self.seg(node))
                return [v]
            if v.__class__ is bytes:
                return [v.decode("latin-1")]
        elif t is ast.JoinedStr:
            return literal_parts(self.seg(node))
        elif t is ast.Name:
            return self.resolve_name(node, scope, depth)
        elif t is ast.BinOp:
            op = node.op.__class__
            if op is ast.Add:
                return self.templ(node.left, scope, depth + 1) + self.templ(node.right, scope, depth + 1)
            if op is ast.Mod:
                fmt = self.templ(node.left, scope, depth + 1)
                if has_literal(fmt):
                    return self.percent(fmt, node.right)
        elif t is ast.Call:
            f = node.func
            ft = f.__class__
            if ft is ast.Attribute:
                if f.attr == "format":
                    fmt = self.templ(f.value, scope, depth + 1)
                    if has_literal(fmt):
                        r = self.str_format(fmt, node)
                        if r is not None:
                            return r
                elif f.attr == "join":
                    sep = f.value
                    st = sep.__class__
                    if ((st is ast.JoinedStr or (st is ast.Constant and sep.value.__class__ in (str, bytes)))
                            and len(node.args) == 1 and not node.keywords
                            and node.args[0].__class__ in (ast.List, ast.Tuple)):
                        sep_parts = self.templ(sep, scope, depth + 1)
                        out = []
                        for i, el in enumerate(node.args[0].elts):
                            if i:
                                out.extend(sep_parts)
                            out.extend(self.templ(el, scope, depth + 1))
                        return out
            elif ft is ast.Name:
                h = self.helpers().get(f.id)
                if h is not None:
                    return self.expand_helper(h, node, depth)
                if f.id in GETTEXT_FUNCTIONS and node.args and not node.keywords and not any(
                        a.__class__ is ast.Starred for a in node.args):
                    parts = self.templ(node.args[0], scope, depth + 1)
                    if has_literal(parts):
                        return parts
        elif t is ast.Subscript or t is ast.Attribute:
            r = self.lookup(node, scope, depth)
            if r is not None:
                return r
        return [Ph(self.seg(node))]

    def percent(self, fmt, args_node):
        is_tuple = args_node.__class__ is ast.Tuple
        args_text = self.seg(args_node)
        n_conv = 0
        for p in fmt:
            if p.__class__ is str:
                for m in _PCT_RE.finditer(p):
                    if m.group(2) != "%":
                        n_conv += 1
        out = []
        i = 0
        for p in fmt:
            if p.__class__ is not str:
                out.append(p)
                continue
            last = 0
            for m in _PCT_RE.finditer(p):
                if m.start() > last:
                    out.append(p[last:m.start()])
                last = m.end()
                if m.group(2) == "%":
                    out.append("%")
                    continue
                key = m.group(1)
                if key is not None:
                    text = key
                elif is_tuple and i < len(args_node.elts):
                    text = self.seg(args_node.elts[i])
                elif not is_tuple and n_conv == 1:
                    text = args_text
                else:
                    text = "%s[%d]" % (args_text, i)
                i += 1
                out.append(Ph(text))
            if last < len(p):
                out.append(p[last:])
        return out

    def str_format(self, fmt, call):
        pos = []
        for a in call.args:
            if a.__class__ is ast.Starred:
                break
            pos.append(a)
        kw = {}
        for k in call.keywords:
            if k.arg is not None:
                kw[k.arg] = k.value
        out = []
        auto = 0
        for p in fmt:
            if p.__class__ is not str:
                out.append(p)
                continue
            try:
                items = list(_formatter_parser(p))
            except ValueError:
                return None
            for lit, field, spec, conv in items:
                if lit:
                    out.append(lit)
                if field is None:
                    continue
                k = 0
                while k < len(field) and field[k] not in ".[":
                    k += 1
                first, rest = field[:k], field[k:]
                arg = None
                if first == "":
                    if auto < len(pos):
                        arg = pos[auto]
                    auto += 1
                elif first.isdigit():
                    idx = int(first)
                    if idx < len(pos):
                        arg = pos[idx]
                else:
                    arg = kw.get(first)
                suffix = ("!" + conv if conv else "") + (":" + spec if spec else "")
                if arg is None:
                    out.append(Ph(field + suffix))
                else:
                    out.append(Ph(self.seg(arg) + rest + suffix))
        return out

    def expand_helper(self, h, call, depth):
        func, expr = h
        a = func.args
        params = [p.arg for p in a.posonlyargs] + [p.arg for p in a.args]
        allp = set(params) | {p.arg for p in a.kwonlyargs}
        bind = {}
        for i, arg in enumerate(call.args):
            if arg.__class__ is ast.Starred or i >= len(params):
                break
            bind[params[i]] = self.seg(arg)
        for k in call.keywords:
            if k.arg is not None and k.arg in allp:
                bind[k.arg] = self.seg(k.value)
        parts = self.templ(expr, func, depth + 1)
        return [Ph(bind[p.text]) if p.__class__ is Ph and p.text in bind else p for p in parts]

    # ---- sites
    def message_template(self, call, scope):
        first = None
        for a in call.args:
            parts = self.templ(a, scope, 0)
            if has_literal(parts):
                return render(parts)
            if first is None:
                first = parts
        if first is not None:
            for want in ("message", "msg", "detail"):
                for k in call.keywords:
                    if k.arg == want:
                        parts = self.templ(k.value, scope, 0)
                        if has_literal(parts):
                            return render(parts)
            return render(first)
        if call.keywords:
            for want in ("message", "msg", "detail"):
                for k in call.keywords:
                    if k.arg == want:
                        return render(self.templ(k.value, scope, 0))
            return None
        return ""

    def extract(self):
        path = self.path
        is_test = is_test_path(path)
        sites = []
        want_warn = b"warnings" in self.data
        warn_mod_names = set()
        warn_func_names = set()
        warn_calls = []  # (call, qualname, scope)
        module = self.tree
        stack = [(module, "<module>", module)]
        pop = stack.pop
        push = stack.append
        child_fields = _CHILD_FIELDS
        T_Raise, T_Assert, T_Call = ast.Raise, ast.Assert, ast.Call
        T_FD, T_AFD, T_CD, T_L = ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda
        T_Import, T_ImportFrom = ast.Import, ast.ImportFrom
        while stack:
            node, qn, scope = pop()
            t = node.__class__
            if t is T_Raise:
                exc = node.exc
                if exc is None:
                    sites.append((node.lineno, node.col_offset, node.end_lineno, "reraise", None, None, qn))
                else:
                    if exc.__class__ is T_Call:
                        c = exc
                        f = c.func
                        if (f.__class__ is ast.Attribute and f.attr == "with_traceback"
                                and f.value.__class__ is T_Call):
                            c = f.value
                        typ = self.seg(c.func)
                        tmpl = self.message_template(c, scope)
                    else:
                        typ = self.seg(exc)
                        tmpl = None
                    sites.append((node.lineno, node.col_offset, node.end_lineno, "raise", typ, tmpl, qn))
            elif t is T_Assert:
                if node.msg is not None:
                    sites.append((node.lineno, node.col_offset, node.end_lineno, "assert", "AssertionError",
                                  render(self.templ(node.msg, scope, 0)), qn))
            elif t is T_Call:
                if want_warn:
                    f = node.func
                    if f.__class__ is ast.Attribute:
                        if f.attr == "warn" and f.value.__class__ is ast.Name:
                            warn_calls.append((node, qn, scope, f.value.id, True))
                    elif f.__class__ is ast.Name:
                        warn_calls.append((node, qn, scope, f.id, False))
            elif t is T_FD or t is T_AFD or t is T_CD or t is T_L:
                name = "<lambda>" if t is T_L else node.name
                if scope is module:
                    cqn = name
                elif scope.__class__ is T_CD:
                    cqn = qn + "." + name
                else:
                    cqn = qn + ".<locals>." + name
                if t is T_L:
                    push((node.body, cqn, node))
                    push((node.args, qn, scope))
                    continue
                for st in reversed(node.body):
                    push((st, cqn, node))
                if want_warn:
                    if t is T_CD:
                        for k in node.keywords:
                            push((k, qn, scope))
                        for b in node.bases:
                            push((b, qn, scope))
                    else:
                        if node.returns is not None:
                            push((node.returns, qn, scope))
                        push((node.args, qn, scope))
                    for d in node.decorator_list:
                        push((d, qn, scope))
                continue
            elif t is T_Import:
                for a in node.names:
                    if a.name == "warnings":
                        warn_mod_names.add(a.asname or "warnings")
                continue
            elif t is T_ImportFrom:
                if node.module == "warnings" and not node.level:
                    for a in node.names:
                        if a.name == "warn":
                            warn_func_names.add(a.asname or "warn")
                continue
            if want_warn:
                # full walk: warn calls can be anywhere in expressions
                fields = child_fields.get(t)
                if fields is None:
                    fields = _child_fields(t)
                for f in fields:
                    v = getattr(node, f)
                    if v is None:
                        continue
                    if v.__class__ is list:
                        for x in reversed(v):
                            if x is not None and x.__class__ is not str:
                                push((x, qn, scope))
                    else:
                        push((v, qn, scope))
            else:
                # raise/assert are statements: only statement blocks need visiting
                for f in _BLOCK_FIELDS:
                    sub = getattr(node, f, None)
                    if sub:
                        for st in reversed(sub):
                            push((st, qn, scope))

        for call, qn, scope, name, is_attr in warn_calls:
            if (name in warn_mod_names) if is_attr else (name in warn_func_names):
                args = call.args
                typ = None
                if len(args) >= 2:
                    typ = self.seg(args[1])
                else:
                    for k in call.keywords:
                        if k.arg == "category":
                            typ = self.seg(k.value)
                            break
                if typ is None:
                    typ = "UserWarning"
                msg = None
                if args:
                    msg = args[0]
                else:
                    for k in call.keywords:
                        if k.arg == "message":
                            msg = k.value
                            break
                tmpl = None if msg is None else render(self.templ(msg, scope, 0))
                sites.append((call.lineno, call.col_offset, call.end_lineno, "warn", typ, tmpl, qn))

        out = []
        for line, col, end_line, kind, typ, tmpl, qn in sites:
            out.append(((path, line, col, kind), {
                "path": path, "line": line, "col": col, "end_line": end_line, "kind": kind,
                "type": typ, "template": tmpl, "function": qn, "is_test": is_test}))
        return out


def skip_record(path, reason):
    return ((path, 0, -1, ""), {"skip": path, "reason": reason})


def process_bytes(path, raw):
    """All output records (sort_key, dict) for one file's content."""
    if len(raw) > MAX_SIZE:
        return [skip_record(path, "too_large")]
    if b"\0" in raw:
        return [skip_record(path, "binary")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return [skip_record(path, "not_utf8")]
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError:
        return [skip_record(path, "syntax_error")]
    except (RecursionError, MemoryError, ValueError):
        return [skip_record(path, "parse_error")]
    return FileExtractor(path, text.encode("utf-8", "surrogateescape"), tree).extract()


# ----------------------------------------------------------------------------------------------
# Sources

def list_dir(root):
    """(relpath, abspath) of every *.py regular file under root, honoring the skip list."""
    out = []
    stack = [("", root)]
    while stack:
        rel, d = stack.pop()
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for e in entries:
            name = e.name
            r = rel + "/" + name if rel else name
            try:
                if e.is_symlink():
                    continue
                if e.is_dir(follow_symlinks=False):
                    if name in SKIP_DIRS or name.endswith(".egg-info"):
                        continue
                    if os.path.lexists(os.path.join(e.path, "pyvenv.cfg")):
                        continue
                    stack.append((r, e.path))
                elif name.endswith(".py") and e.is_file(follow_symlinks=False):
                    out.append((r, e.path))
            except OSError:
                continue
    out.sort()
    return out


def git_files(gitdir, rev):
    commit = subprocess.run(["git", "-C", gitdir, "rev-parse", "--verify", "--quiet", rev + "^{commit}"],
                            check=True, stdout=subprocess.PIPE).stdout.decode().strip()
    raw = subprocess.run(["git", "-C", gitdir, "ls-tree", "-r", "-z", "--full-tree", commit],
                         check=True, stdout=subprocess.PIPE).stdout
    out = []
    for ent in raw.split(b"\0"):
        if not ent:
            continue
        meta, _, p = ent.partition(b"\t")
        mode, typ, oid = meta.split(b" ")
        if typ != b"blob" or mode not in (b"100644", b"100755") or not p.endswith(b".py"):
            continue
        out.append((p.decode("utf-8", "surrogateescape"), oid.decode()))
    out.sort()
    return out


class CatFile:
    def __init__(self, gitdir):
        self.proc = subprocess.Popen(["git", "-C", gitdir, "cat-file", "--batch"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, oid):
        p = self.proc
        p.stdin.write(oid.encode() + b"\n")
        p.stdin.flush()
        header = p.stdout.readline().split()
        if len(header) != 3:
            raise RuntimeError("git cat-file: bad header for %s: %r" % (oid, header))
        size = int(header[2])
        data = p.stdout.read(size)
        p.stdout.read(1)  # trailing newline
        return data

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait()
        except Exception:
            pass


_WORKER = {}


def _init_worker(gitdir):
    warnings.simplefilter("ignore")
    if gitdir is not None:
        _WORKER["cat"] = CatFile(gitdir)


def _process_chunk(chunk):
    cat = _WORKER.get("cat")
    out = []
    for rel, src in chunk:
        if cat is not None:
            raw = cat.read(src)
        else:
            try:
                if os.stat(src).st_size > MAX_SIZE:
                    out.append(skip_record(rel, "too_large"))
                    continue
                with open(src, "rb") as fh:
                    raw = fh.read()
            except OSError:
                out.append(skip_record(rel, "read_error"))
                continue
        try:
            out.extend(process_bytes(rel, raw))
        except RecursionError:
            out.append(skip_record(rel, "parse_error"))
    return out


def run(files, gitdir, jobs):
    records = []
    if jobs <= 1 or len(files) < 2:
        _init_worker(gitdir)
        try:
            records = _process_chunk(files)
        finally:
            cat = _WORKER.pop("cat", None)
            if cat is not None:
                cat.close()
    else:
        n = len(files)
        size = max(1, min(256, -(-n // (jobs * 16))))
        chunks = [files[i:i + size] for i in range(0, n, size)]
        with multiprocessing.Pool(jobs, initializer=_init_worker, initargs=(gitdir,)) as pool:
            for res in pool.imap_unordered(_process_chunk, chunks):
                records.extend(res)
    records.sort(key=lambda r: r[0])
    return [r[1] for r in records]


def dump_line(rec):
    line = json.dumps(rec, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(rec)
    return line


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?")
    ap.add_argument("--git", dest="gitdir")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    if (args.dir is None) == (args.gitdir is None):
        ap.error("give either DIR or --git GITDIR")
    if args.gitdir is not None:
        files = git_files(args.gitdir, args.rev)
        gitdir = args.gitdir
    else:
        files = list_dir(args.dir)
        gitdir = None
    records = run(files, gitdir, args.jobs)
    text = "".join(dump_line(r) + "\n" for r in records)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

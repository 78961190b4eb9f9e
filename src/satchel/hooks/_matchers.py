"""Hook matchers: which tool (or source, reason...) a hook fires for. A hook format's
host definition says which rules its matchers follow (`HookDialect.matcher`).

``names-or-regex``, Claude Code's current rules (also Kimi's and satchel's own files'):

- ``*``, empty or omitted: everything;
- only letters, digits, ``_``, ``-``, blanks, ``,`` and ``|``: exact names, split on
  ``|`` and ``,`` with blanks trimmed (``Edit|Write``, ``mcp__memory__read``);
- anything else: a regex searched unanchored (``Edit.*`` also matches
  ``NotebookEdit``; write ``^Edit$`` to anchor).

``glob-or-regex``, Vibe's rules: ``*`` or omitted is everything, ``re:<regex>`` a
case-insensitive full match, anything else a case-insensitive shell glob.

MCP tools are named ``mcp__<server>__<tool>`` and plugin servers'
``mcp__plugin_<plugin>_<server>__<tool>`` (`mcp_tool_name`).

A regex comes from a file anyone could have written, and Python's engine backtracks,
so a regex must be provably cheap before it is used: no group that is repeated and
holds a repeat, an optional part or an alternative (``(a+)+``, ``(a|a)*``,
``(a?){30}``), no back-reference or look-around, no ``[`` or doubled ``-&~|`` inside
a character class (Python reserves them for nested sets and warns), at most
`MAX_REPEATS` unbounded repeats, at most `MAX_CHOICES` optional parts (``?``,
``{0,1}``) and alternatives inside groups (``a?a?a?…``, ``(a|a)(a|a)…``: each doubles
the paths to try), and at most `MAX_PATTERN` characters.
A regex is only tried on values of at most `MAX_SUBJECT` characters (a longer name
never matches one). Together these bound a match to well under a tenth of a second.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Literal

from satchel.core._model import model
from satchel.hosts._dialects import hook_dialect

__all__ = [
    "MAX_CHOICES",
    "MAX_PATTERN",
    "MAX_REPEATS",
    "MAX_SUBJECT",
    "Matcher",
    "compile_matcher",
    "mcp_tool_name",
    "unsafe_reason",
]

MAX_PATTERN = 512
MAX_REPEATS = 3
MAX_CHOICES = 8
MAX_SUBJECT = 128
_EXACT = re.compile(r"[A-Za-z0-9_\- ,|]+\Z")
_SPLIT = re.compile(r"[|,]")
_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]")
_BACKREF = re.compile(r"\\[1-9]|\\k<|\(\?P=|\(\?<?[=!]|\(\?[=!]")

_OPTIONAL = frozenset(("0,1", ",1"))
# Python warns (FutureWarning) that these may become set operations in a class.
_SET_OPERATIONS = frozenset(("--", "&&", "~~", "||"))

Kind = Literal["all", "exact", "regex"]


@model
class Matcher:
    """A compiled matcher: `kind` says how `text` is read."""

    text: str | None
    kind: Kind
    names: frozenset[str] = frozenset()
    pattern: re.Pattern[str] | None = None

    def matches(self, value: str | None) -> bool:
        """Whether the matcher selects `value` (None: the event gave nothing to match;
        only a match-all matcher selects it)."""
        if self.kind == "all":
            return True
        if value is None:
            return False
        if self.kind == "exact":
            return value in self.names
        assert self.pattern is not None
        return len(value) <= MAX_SUBJECT and self.pattern.search(value) is not None


ALL = Matcher(None, "all")


def compile_matcher(text: str | None, dialect: str | None = None) -> Matcher:
    """The matcher `text` means in hook format `dialect` (its host definition's
    `HookDialect.matcher`; None: satchel's own, Claude Code's rules); `ValueError`
    saying why when it is an invalid or unsafe regex (the hook then never fires)."""
    if text is None or text.strip() in ("", "*"):
        return ALL
    if hook_dialect(dialect).matcher == "glob-or-regex":
        return _glob(text)
    if _EXACT.match(text):
        names = frozenset(n.strip() for n in _SPLIT.split(text) if n.strip())
        return Matcher(text, "exact", names) if names else ALL
    return Matcher(text, "regex", pattern=_regex(text, 0))


def _glob(text: str) -> Matcher:
    if text.startswith("re:"):
        body = text[3:]
        return Matcher(text, "regex", pattern=_regex(f"(?:{body})\\Z", re.IGNORECASE, body))
    translated = fnmatch.translate(text)  # anchored; repeats are made atomic in 3.11+
    return Matcher(text, "regex", pattern=re.compile(r"\A" + translated, re.IGNORECASE))


def _regex(text: str, flags: int, shown: str | None = None) -> re.Pattern[str]:
    body = text if shown is None else shown
    why = unsafe_reason(body)
    if why is not None:
        raise ValueError(f"matcher {body!r} is refused: {why}")
    try:
        return re.compile(text if shown is None else f"^{text}", flags)
    except re.error as e:
        raise ValueError(f"matcher {body!r} is not a valid regex: {e}") from None


def unsafe_reason(pattern: str) -> str | None:
    """Why `pattern` could take super-linear time to match, or None when it cannot."""
    if len(pattern) > MAX_PATTERN:
        return f"it is {len(pattern)} characters long; the limit is {MAX_PATTERN}"
    if _BACKREF.search(pattern):
        return "back-references and look-arounds are not supported"
    scan = _Scan(pattern)
    scan.run()
    if scan.set_syntax:
        return "a [ or a doubled -, &, ~ or | inside [...] is reserved for nested sets"
    if scan.nested:
        return "a repeated group holds a repeat or an alternative (catastrophic backtracking)"
    if scan.repeats > MAX_REPEATS:
        return f"it has {scan.repeats} unbounded repeats; the limit is {MAX_REPEATS}"
    if scan.choices > MAX_CHOICES:
        return f"it has {scan.choices} optional parts and alternatives; the limit is {MAX_CHOICES}"
    return None


class _Scan:
    """One pass over a regex: count unbounded repeats and choices (optional atoms,
    alternatives inside a group), find repeated groups holding a quantifier or an
    alternative. Character classes and escapes are skipped whole."""

    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0
        self.repeats = 0
        self.choices = 0
        self.nested = False
        self.set_syntax = False  # `[` or `--`, `&&`, `~~`, `||` inside a class
        self.stack: list[bool] = [False]  # per open group: holds a repeat or an alternative

    def run(self) -> None:
        while self.i < len(self.p):
            c = self.p[self.i]
            if c == "\\":
                self.i += 2
                self._after_atom(False)
            elif c == "[":
                self._skip_class()
                self._after_atom(False)
            elif c == "(":
                self.stack.append(False)
                self.i += 1
            elif c == ")" and len(self.stack) > 1:
                inner = self.stack.pop()
                self.i += 1
                self._after_atom(inner)
            elif c == "|":
                self.stack[-1] = True
                self.choices += len(self.stack) > 1  # a top-level `|` costs no backtracking
                self.i += 1
            else:
                self.i += 1
                self._after_atom(False)

    def _skip_class(self) -> None:
        j = self.i + 1
        if j < len(self.p) and self.p[j] == "^":
            j += 1
        if j < len(self.p) and self.p[j] == "]":
            j += 1
        while j < len(self.p) and self.p[j] != "]":
            if self.p[j] == "[" or self.p[j : j + 2] in _SET_OPERATIONS:
                self.set_syntax = True
            j += 2 if self.p[j] == "\\" else 1
        self.i = j + 1

    def _after_atom(self, inner: bool) -> None:
        """After an atom: read its quantifier, if any. `inner`: the atom is a group
        holding a repeat or an alternative."""
        kind = self._quantifier()
        if kind == "repeat":
            self.repeats += 1
            self.nested = self.nested or inner
        elif kind == "optional":
            self.choices += 1
        if kind is not None or inner:
            self.stack[-1] = True

    def _quantifier(self) -> Literal["repeat", "optional"] | None:
        """Consume a quantifier at the cursor: ``repeat`` (``*``, ``+``, ``{2,}``...),
        ``optional`` (``?``, ``{0,1}``) or None (none, or ``{1}``)."""
        if self.i >= len(self.p):
            return None
        c = self.p[self.i]
        kind: Literal["repeat", "optional"] | None = "repeat" if c in "*+" else "optional"
        if c == "{":
            end = self.p.find("}", self.i)
            if end < 0 or not re.fullmatch(r"\d*(,\d*)?", self.p[self.i + 1 : end]):
                return None
            count = self.p[self.i + 1 : end]
            kind = (
                None if count in ("", "0", "1") else "optional" if count in _OPTIONAL else "repeat"
            )
            self.i = end + 1
        elif c in "*+?":
            self.i += 1
        else:
            return None
        if self.i < len(self.p) and self.p[self.i] in "?+":
            self.i += 1  # lazy or possessive
        return kind


def mcp_tool_name(server: str, tool: str, plugin: str | None = None) -> str:
    """The name hooks match an MCP tool by: ``mcp__<server>__<tool>``, or for a
    plugin's server ``mcp__plugin_<plugin>_<server>__<tool>`` (characters outside
    ``[A-Za-z0-9_-]`` in the plugin and server names become ``_``)."""
    name = _NAME_CHARS.sub("_", server)
    if plugin is not None:
        name = f"plugin_{_NAME_CHARS.sub('_', plugin)}_{name}"
    return f"mcp__{name}__{tool}"

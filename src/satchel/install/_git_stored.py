"""What git would store for a working-tree file, worked out without git reading it.

git converts a file as it adds it: through a clean ``filter`` (Git LFS), from a
``working-tree-encoding``, then line endings (the ``text``, ``eol`` and older ``crlf``
attributes, and ``core.autocrlf``), then ``ident``. Here the attributes are read with
``git check-attr`` (it reads ``.gitattributes`` files and runs nothing) and
``core.autocrlf``, ``core.filemode`` and ``core.symlinks`` with ``git config`` (the
user's and system config too, as ``git status`` reads them: a config read runs
nothing). `stored` applies the line-ending and ``ident`` rules to a file's bytes as
git's own conversion does. A file with a filter or an encoding gets no `Conversion`:
its program or codec is not satchel's to run, so what git stores for it is not known.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping, Sequence

from satchel.core._model import model
from satchel.install._git_read import Repo, config_env

__all__ = ["Conversion", "Rules", "attributes", "blob", "conversion", "read_rules", "stored"]

ATTRS = ("text", "crlf", "eol", "filter", "working-tree-encoding", "ident")
_KEYS = r"^core\.(autocrlf|filemode|symlinks)$"
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0", ""})
# bytes git counts as neither printable nor a line ending (its ``gather_stats``)
_CONTROL = bytes(c for c in range(32) if c not in b"\b\t\x1b\x0c\r\n") + b"\x7f"
_IDENT = re.compile(rb"\$Id:[^$\n]*\$")


@model
class Rules:
    """The config that changes what git stores: ``core.autocrlf`` (``false``, ``true``
    or ``input``), ``core.filemode`` and ``core.symlinks``."""

    autocrlf: str = "false"
    filemode: bool = True
    symlinks: bool = True


@model
class Conversion:
    """How git converts one file as it adds it: line endings (``binary``: none,
    ``text``: CRLF to LF, ``auto``: CRLF to LF when the file looks like text) and
    whether ``$Id: ...$`` collapses to ``$Id$``."""

    eol: str
    ident: bool


def read_rules(repo: Repo, environ: Mapping[str, str]) -> Rules | None:
    """The repository's `Rules`, as ``git status`` would read them (None: git failed)."""
    out = repo.git("config", "-z", "--get-regexp", _KEYS, may_fail=True, env=config_env(environ))
    if out is None:
        return None
    found: dict[str, str] = {}
    for item in out.split("\0"):
        key, newline, value = item.partition("\n")
        if key:  # a key without a value is true; an empty value is false
            found[key.lower()] = value.lower() if newline else "true"
    autocrlf = found.get("core.autocrlf", "false")
    return Rules(
        autocrlf="input" if autocrlf == "input" else str(_bool(autocrlf, False)).lower(),
        filemode=_bool(found.get("core.filemode", "true"), True),
        symlinks=_bool(found.get("core.symlinks", "true"), True),
    )


def attributes(repo: Repo, names: Sequence[str]) -> dict[str, tuple[str, ...]] | None:
    """Each of `names`' conversion attributes, in the order of `ATTRS` (``set``,
    ``unset``, ``unspecified`` or a value), from ``git check-attr`` (None: git failed)."""
    if not names:
        return {}
    out = repo.git("check-attr", "-z", "--stdin", *ATTRS, stdin="\0".join(names) + "\0")
    if out is None:
        return None
    items = out.split("\0")
    step = 3 * len(ATTRS)  # git answers each path with one (path, name, value) per name
    return {
        items[at]: tuple(items[at + 2 : at + step : 3]) for at in range(0, len(items) - 1, step)
    }


@functools.lru_cache(maxsize=256)
def conversion(values: tuple[str, ...], rules: Rules) -> Conversion | None:
    """How git converts a file whose `ATTRS` hold `values` (None: through a filter or an
    encoding)."""
    attrs = dict(zip(ATTRS, values, strict=False))
    if _value(attrs.get("filter")) or _value(attrs.get("working-tree-encoding")):
        return None
    eol = _crlf(attrs.get("text", "unspecified"))
    if eol is None:
        eol = _crlf(attrs.get("crlf", "unspecified"))
    if eol != "binary" and attrs.get("eol") in ("lf", "crlf"):
        eol = eol or "text"
    if eol is None:
        eol = "binary" if rules.autocrlf == "false" else "auto"
    return Conversion(eol=eol, ident=attrs.get("ident") == "set")


def stored(data: bytes, how: Conversion, index_blob: str | None, algorithm: str) -> bytes:
    """`data` as git would store it converted `how`. A file ``auto`` converts is left
    as it is when its staged copy (`index_blob`) holds CRLF line endings, as git
    leaves it; that staged copy is known only when it equals `data` itself, which is
    enough to tell a file left unchanged since it was added."""
    if how.eol != "binary" and b"\r\n" in data and not _left(data, how, index_blob, algorithm):
        data = data.replace(b"\r\n", b"\n")
    if how.ident:
        data = _IDENT.sub(b"$Id$", data)
    return data


def blob(data: bytes, algorithm: str) -> str:
    """git's blob id of `data`."""
    digest = hashlib.new(algorithm)
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


def _left(data: bytes, how: Conversion, index_blob: str | None, algorithm: str) -> bool:
    """Whether git leaves `data`'s CRLF line endings as they are."""
    if how.eol != "auto":
        return False
    return _binary(data) or (index_blob is not None and blob(data, algorithm) == index_blob)


def _binary(data: bytes) -> bool:
    """git's guess that `data` is not text: a lone CR, a NUL, or more than one control
    byte in 128 printable ones (a final Ctrl-Z not counted)."""
    if b"\0" in data or data.count(b"\r") != data.count(b"\r\n"):
        return True
    control = len(data) - len(data.translate(None, _CONTROL)) - data.endswith(b"\x1a")
    printable = len(data) - control - data.count(b"\r") - data.count(b"\n")
    return (printable >> 7) < control


def _crlf(value: str) -> str | None:
    """The line-ending rule a ``text`` or ``crlf`` attribute gives (None: none)."""
    return {"set": "text", "unset": "binary", "input": "text", "auto": "auto"}.get(value)


def _value(value: str | None) -> bool:
    """Whether an attribute holds a value (not ``set``, ``unset`` or ``unspecified``)."""
    return value is not None and value not in ("set", "unset", "unspecified")


def _bool(value: str, default: bool) -> bool:
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    try:
        return int(value) != 0
    except ValueError:
        return default

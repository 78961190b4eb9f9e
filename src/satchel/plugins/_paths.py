"""Paths and files inside a plugin root: containment, bounded reads, strict JSON and TOML.

Agent Plugins 1.0 [4]: every file a client reads or runs from a package must resolve,
after symlinks, inside the resolved plugin root. Plugin-relative paths are written
``./a/b`` (POSIX, no backslash). The helpers here judge paths and read files; they
never raise for bad input: a problem comes back as a `Refusal` or a `Diagnostic`.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from satchel._files import FileProblem, open_regular
from satchel.diagnostics import Diagnostic, diagnostic

__all__ = [
    "MAX_FILE",
    "MAX_TREE_ENTRIES",
    "OUTSIDE_ROOT",
    "Refusal",
    "find_symlink",
    "is_inside",
    "parse_json",
    "parse_toml",
    "read_inside",
    "read_json",
    "real_path",
    "relative_form",
    "resolve_in_root",
    "symlink_on_path",
]

MAX_FILE = 1024 * 1024  # JSON and TOML component files: 1 MiB
MAX_TREE_ENTRIES = 100_000  # a symlink walk stops (and refuses) past this many entries
OUTSIDE_ROOT = "plugin.path.outside_root"
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a path or file is refused; `outside` when it escapes the plugin root."""

    message: str
    outside: bool = False

    def diagnostic(self, code: str, path: Path | None, hint: str | None = None) -> Diagnostic:
        """This refusal as a diagnostic: `code`, or `plugin.path.outside_root` when outside
        (a warning: the component is dropped, the plugin loads)."""
        code = OUTSIDE_ROOT if self.outside else code
        return diagnostic(code, self.message, path, hint=hint, severity="warning")


class _Duplicate(ValueError):
    pass


def real_path(path: Path | str) -> Path | None:
    """`path` with every symlink resolved (it need not exist), or None when it cannot be."""
    try:
        return Path(os.path.realpath(path, strict=False))
    except (OSError, RuntimeError, ValueError):
        return None


def is_inside(path: Path, root: Path) -> bool:
    """Whether `path` is `root` or below it (both already real paths)."""
    return path.is_relative_to(root)


def relative_form(value: str) -> str | None:
    """Why `value` is not a ``./`` plugin-relative POSIX path, or None when it is."""
    if "\0" in value:
        return "it holds a NUL byte"
    if "\\" in value:
        return "it holds a backslash; plugin paths use forward slashes"
    if value.startswith("/") or re.match(r"[A-Za-z]:", value):
        return "it is absolute; plugin paths start with ./"
    if not value.startswith("./"):
        return "it must start with ./ (a path relative to the plugin root)"
    return None


def resolve_in_root(root: Path, value: str) -> Path | Refusal:
    """The real path `./value` names inside `root`, or why not (the form, or an escape
    after ``..`` and symlinks). The target need not exist."""
    why = relative_form(value)
    if why is not None:
        return Refusal(f"{value!r}: {why}")
    base = real_path(root)
    target = None if base is None else real_path(base / value[2:])
    if base is None or target is None:
        return Refusal(f"{value!r}: a symlink loop", outside=True)
    if not is_inside(target, base):
        return Refusal(f"{value!r} resolves to {target}, outside the plugin root", outside=True)
    return target


def symlink_on_path(root: Path, relative: str) -> str | None:
    """The first component of `root/relative` (below `root`) that is a symlink, or None."""
    current = root
    for part in Path(relative).parts:
        if part == ".":
            continue
        current = current / part
        if current.is_symlink():
            return current.relative_to(root).as_posix()
    return None


def find_symlink(directory: Path, limit: int = MAX_TREE_ENTRIES) -> str | None:
    """A description of the first symlink found under `directory` (sorted, depth
    first, never following links), or of the walk going past `limit` entries."""
    pending = [directory]
    seen = 0
    while pending:
        current = pending.pop()
        try:
            with os.scandir(current) as it:
                entries = sorted(it, key=lambda e: e.name, reverse=True)
        except OSError as e:
            return f"{current} cannot be listed: {e.strerror or e}"
        for entry in entries:
            seen += 1
            if seen > limit:
                return f"it holds more than {limit} entries"
            if entry.is_symlink():
                return f"{Path(entry.path).relative_to(directory).as_posix()} is a symlink"
            if entry.is_dir(follow_symlinks=False):
                pending.append(Path(entry.path))
    return None


def read_inside(path: Path, root: Path, cap: int) -> bytes | Refusal:
    """The bytes of the regular file `path`, which must resolve inside `root` and hold
    at most `cap` bytes. A FIFO or device is refused without blocking."""
    base, target = real_path(root), real_path(path)
    if base is None or target is None:
        return Refusal("a symlink loop", outside=True)
    if not is_inside(target, base):
        return Refusal(f"{path} resolves to {target}, outside the plugin root", outside=True)
    try:
        fd, _ = open_regular(target, cap, nofollow=True)
    except FileProblem as e:
        return Refusal(_file_message(e, cap))
    chunks: list[bytes] = []
    total = 0
    try:
        while total <= cap and (chunk := os.read(fd, cap + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
    except OSError as e:
        return Refusal(f"cannot read the file: {e.strerror or e}")
    finally:
        os.close(fd)
    if total > cap:
        return Refusal(f"the file grew past {cap} bytes while it was read")
    return b"".join(chunks)


def _file_message(e: FileProblem, cap: int) -> str:
    if e.kind == "too-large":
        return f"the file is {e.size} bytes; the limit is {cap} ({cap // 1024} KiB)"
    if e.kind == "missing":
        return "no such file"
    if e.kind == "not-regular":
        return "it is not a regular file"
    return f"cannot read the file: {e.message}"


def read_json(
    path: Path, root: Path, code: str, cap: int = MAX_FILE
) -> tuple[Any, Diagnostic | None]:
    """The JSON value in `path` (inside `root`), or None and a diagnostic with `code`
    (or `plugin.path.outside_root`)."""
    data = read_inside(path, root, cap)
    if isinstance(data, Refusal):
        return None, data.diagnostic(code, path)
    return parse_json(data, path, code)


def parse_json(data: bytes, path: Path, code: str) -> tuple[Any, Diagnostic | None]:
    """Strict JSON (RFC 8259): UTF-8, an optional BOM, no NaN or Infinity, no key twice
    in one object. A syntax error names its line and column."""
    try:
        text = data.decode("utf-8").removeprefix(_BOM)
        return json.loads(text, object_pairs_hook=_unique, parse_constant=_no_constant), None
    except UnicodeDecodeError as e:
        return None, diagnostic(code, f"not valid UTF-8 (byte {e.start})", path)
    except json.JSONDecodeError as e:
        message = f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})"
        return None, diagnostic(code, message, path, line=e.lineno)
    except _Duplicate as e:
        return None, diagnostic(code, f"not valid JSON: {e}", path)
    except ValueError as e:  # an integer too long to convert
        return None, diagnostic(code, f"not valid JSON: {e}", path)
    except RecursionError:
        return None, diagnostic(code, "not valid JSON: it nests too deep", path)


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Duplicate(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def parse_toml(
    data: bytes, path: Path, code: str
) -> tuple[dict[str, Any] | None, Diagnostic | None]:
    """The TOML document in `data`, or None and a diagnostic with `code` (and the line)."""
    try:
        return tomllib.loads(data.decode("utf-8").removeprefix(_BOM)), None
    except UnicodeDecodeError as e:
        return None, diagnostic(code, f"not valid UTF-8 (byte {e.start})", path)
    except tomllib.TOMLDecodeError as e:
        at = _TOML_AT.search(str(e))
        line = int(at.group(1)) if at else None
        return None, diagnostic(code, f"not valid TOML: {e}", path, line=line)
    except RecursionError:
        return None, diagnostic(code, "not valid TOML: it nests too deep", path)

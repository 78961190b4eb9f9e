"""Paths and files inside a plugin root: containment, bounded reads, strict JSON and TOML.

Agent Plugins 1.0 [4]: every file a client reads or runs from a package must resolve,
after symlinks, inside the resolved plugin root. Plugin-relative paths are written
``./a/b`` (POSIX, no backslash). The helpers here judge paths and read files; they
never raise for bad input: a problem comes back as a `Refusal` or a `Diagnostic`.
"""

from __future__ import annotations

import errno
import json
import os
import posixpath
import re
import stat
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

from satchel.core._files import FileProblem, open_regular, read_bounded
from satchel.core._json import loads
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name

__all__ = [
    "MAX_ENTRY_DEPTH",
    "MAX_ENTRY_PATH",
    "contained",
    "entry_parts",
    "folded",
    "link_escapes",
    "is_dir",
    "is_file",
    "probe_json",
    "resolve_root",
    "resolves_inside",
    "MAX_MANIFEST",
    "MAX_FILE",
    "MAX_TREE_ENTRIES",
    "OUTSIDE_ROOT",
    "Bad",
    "Refusal",
    "absent",
    "bounded",
    "find_symlink",
    "is_inside",
    "parse_json",
    "parse_toml",
    "read_inside",
    "read_json",
    "real_below",
    "real_path",
    "relative_form",
    "resolve_in_root",
    "str_list",
    "symlink_on_path",
    "unique_keys",
    "unknown_keys",
    "versioned_object",
    "walk",
    "with_json",
]

MAX_FILE = 1024 * 1024  # JSON and TOML component files: 1 MiB
MAX_TREE_ENTRIES = 100_000  # a symlink walk stops (and refuses) past this many entries
OUTSIDE_ROOT = "plugin.path.outside_root"
MAX_ENTRY_DEPTH = 48  # path segments of one entry written into a tree
MAX_ENTRY_PATH = 1024  # characters of one entry's path
_DRIVE = re.compile(r"[A-Za-z]:")
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_BOM = "\ufeff"
_NOT_THERE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # as pathlib's exists()
T = TypeVar("T")
Parsed = tuple[tuple[T, ...], list[Diagnostic]]
Walk = Literal["clean", "missing", "linked"]


@model
class Refusal:
    """Why a path or file is refused; `outside` when it escapes the plugin root."""

    message: str
    outside: bool = False

    def diagnostic(self, code: str, path: Path | None, hint: str | None = None) -> Diagnostic:
        """This refusal as a diagnostic: `code`, or `plugin.path.outside_root` when outside
        (a warning: the component is dropped, the plugin loads)."""
        code = OUTSIDE_ROOT if self.outside else code
        return diagnostic(code, self.message, path, hint=hint, severity="warning")


class Bad(Exception):
    """One entry of a component file is invalid: raised by a parser's checks, caught
    per entry. `code` None: the parser's own invalid code."""

    def __init__(self, message: str, code: str | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.hint = hint


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
    text, top = str(path), str(root)
    return text == top or text.startswith(top if top.endswith(os.sep) else top + os.sep)


def walk(path: Path, base: Path) -> tuple[Walk, int]:
    """How `path` stands below `base`, a real (resolved) directory, looking only at the
    components below `base` (one ``lstat`` each, where resolving `path` would look at
    every component from ``/``): ``("clean", mode)`` when each exists and none is a
    symlink, so that `path` is its own real path (`mode`: the last one's);
    ``("missing", 0)`` at the first that does not exist, none before it a symlink;
    ``("linked", 0)`` at a symlink, when `path` is not spelled below `base` (or holds
    ``..``), or when a component cannot be looked at: only resolving tells then."""
    text, top = str(path), str(base)
    heads = [text]  # the path to each component below `base`, as strings
    if text != top:
        prefix = top if top.endswith(os.sep) else top + os.sep
        parts = text[len(prefix) :].split(os.sep) if text.startswith(prefix) else [".."]
        if ".." in parts:
            return "linked", 0
        heads, end = [], len(prefix) - 1
        for part in parts:
            end += len(part) + 1
            heads.append(text[:end])
    mode = 0
    for head in heads:
        try:
            mode = os.lstat(head).st_mode
        except FileNotFoundError:
            return "missing", 0
        except (OSError, ValueError):
            return "linked", 0
        if stat.S_ISLNK(mode):
            return "linked", 0
    return "clean", mode


def real_below(path: Path, base: Path) -> Path | None:
    """`real_path(path)` for `base` a real directory: `path` itself when `walk` finds
    it clean or missing below `base` (nothing to resolve), else resolved."""
    return real_path(path) if walk(path, base)[0] == "linked" else path


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


def resolve_in_root(root: Path, value: str, *, resolved: bool = False) -> Path | Refusal:
    """The real path `./value` names inside `root`, or why not (the form, or an escape
    after ``..`` and symlinks). The target need not exist. `resolved`: `root` is
    already a real path."""
    why = relative_form(value)
    if why is not None:
        return Refusal(f"{value!r}: {why}")
    base = root if resolved else real_path(root)
    target = None if base is None else real_below(base / value[2:], base)
    if base is None or target is None:
        return Refusal(f"{value!r}: a symlink loop", outside=True)
    if not is_inside(target, base):
        return Refusal(f"{value!r} resolves to {target}, outside the plugin root", outside=True)
    return target


# -- entries written into a tree --------------------------------------------------------


def entry_parts(
    name: str, *, depth: int = MAX_ENTRY_DEPTH, length: int = MAX_ENTRY_PATH
) -> tuple[str, ...] | str:
    """The segments of `name`, the POSIX path of an entry to be written below a tree
    (an archive's entry, a file a skills server serves, a file published), empty and
    ``.`` segments dropped; or why the entry would not stay in the tree, a phrase
    that follows the entry's name: it holds a backslash or NUL, it is absolute (``/``
    or a drive), it has a ``..`` segment, or it has more than `depth` segments or
    `length` characters. The one rule every writer of such a tree applies before
    writing anything."""
    if "\0" in name or "\\" in name:
        return "holds a backslash or NUL"
    if name.startswith("/") or _DRIVE.match(name):
        return "is absolute"
    parts = tuple(p for p in name.split("/") if p not in ("", "."))
    if ".." in parts:
        return "has a '..' segment"
    if len(parts) > depth or len(name) > length:
        return "is deeper or longer than the limit"
    return parts


def link_escapes(parts: tuple[str, ...], target: str) -> str | None:
    """Why a symlink at `parts` (checked by `entry_parts`) pointing at `target` would
    lead out of its tree, or None when it lands inside: an empty target, a backslash
    or NUL, an absolute target, or one whose ``..`` climb above the tree's top."""
    if not target or "\0" in target or "\\" in target:
        return "is a symlink with a bad target"
    if target.startswith("/") or _DRIVE.match(target):
        return f"links outside the tree ({target})"
    landing = posixpath.normpath(posixpath.join(*parts[:-1], target) if parts[:-1] else target)
    if landing == ".." or landing.startswith("../"):
        return f"links outside the tree ({target})"
    return None


def folded(parts: tuple[str, ...]) -> str:
    """An entry's path as compared for duplicates: NFC, casefolded, so that two entries
    one case-insensitive or normalising filesystem would write to one place are one."""
    import unicodedata  # only when a tree is written

    return "/".join(unicodedata.normalize("NFC", p).casefold() for p in parts)


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


def read_inside(path: Path, root: Path, cap: int, *, resolved: bool = False) -> bytes | Refusal:
    """The bytes of the regular file `path`, which must resolve inside `root` and hold
    at most `cap` bytes. A FIFO or device is refused without blocking. `resolved`:
    `root` is already a real path."""
    base = root if resolved else real_path(root)
    target = None if base is None else real_below(path, base)
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
    path: Path, root: Path, code: str, cap: int = MAX_FILE, *, resolved: bool = False
) -> tuple[Any, Diagnostic | None]:
    """The JSON value in `path` (inside `root`), or None and a diagnostic with `code`
    (or `plugin.path.outside_root`). `resolved`: `root` is already a real path."""
    data = read_inside(path, root, cap, resolved=resolved)
    if isinstance(data, Refusal):
        return None, data.diagnostic(code, path)
    return parse_json(data, path, code)


def parse_json(data: bytes, path: Path, code: str) -> tuple[Any, Diagnostic | None]:
    """Strict JSON (RFC 8259): UTF-8, an optional BOM, no NaN or Infinity, no key twice
    in one object, at most `satchel.core._json.MAX_DEPTH` levels deep. A syntax error names
    its line and column."""
    try:
        text = data.decode("utf-8").removeprefix(_BOM)
        return loads(text, object_pairs_hook=unique_keys, parse_constant=_no_constant), None
    except UnicodeDecodeError as e:
        return None, diagnostic(code, f"not valid UTF-8 (byte {e.start})", path)
    except json.JSONDecodeError as e:
        message = f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})"
        return None, diagnostic(code, message, path, line=e.lineno)
    except _Duplicate as e:
        return None, diagnostic(code, f"not valid JSON: {e}", path)
    except ValueError as e:  # nesting past the limit, an integer too long to convert
        return None, diagnostic(code, f"not valid JSON: {e}", path)


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a key given twice is an error (M01), never
    silently the last one."""
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
    from satchel.core import _toml  # only when a TOML file is read

    try:
        return _toml.loads(data.decode("utf-8").removeprefix(_BOM)), None
    except UnicodeDecodeError as e:
        return None, diagnostic(code, f"not valid UTF-8 (byte {e.start})", path)
    except ValueError as e:  # not TOML, or nested too deep
        at = _TOML_AT.search(str(e))
        line = int(at.group(1)) if at else None
        return None, diagnostic(code, f"not valid TOML: {e}", path, line=line)


# -- component files -----------------------------------------------------------------


def str_list(value: Any) -> bool:
    """Whether `value` is a list of strings."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def absent(path: Path) -> bool:
    """Whether nothing is at `path`, not even a dangling symlink: an optional component
    file that is simply not there (pathlib's ``not is_symlink() and not exists()``, in
    one ``lstat``)."""
    try:
        os.lstat(path)
    except OSError as e:
        if e.errno in _NOT_THERE:
            return True
        raise
    except ValueError:
        return True
    return False


def with_json(
    path: Path, root: Path, code: str, parse: Callable[[Any], Parsed[T]], *, resolved: bool
) -> Parsed[T]:
    """`parse` of the JSON value in the optional file `path` (inside `root`; `resolved`:
    a real path): nothing when the file is absent, and only the problem (`code`) when
    it cannot be read."""
    if absent(path):
        return (), []
    data, problem = read_json(path, root, code, resolved=resolved)
    if problem is not None:
        return (), [problem]
    return parse(data)


def unknown_keys(data: Mapping[str, Any], known: Collection[str]) -> str:
    """The keys of `data` that are not `known`, sorted and quoted ("" when none)."""
    return ", ".join(repr(k) for k in sorted(set(data) - set(known)))


def versioned_object(data: Any, label: str, fields: Collection[str]) -> str | None:
    """What is wrong with the top level of the file `label` -- a JSON object with
    ``schemaVersion`` 1 and no field but `fields` -- or None."""
    if not isinstance(data, dict):
        return f"{label} must be a JSON object, not {type_name(data)}"
    version = data.get("schemaVersion")
    if type(version) is not int or version != 1:
        return (
            "it has no schemaVersion"
            if version is None
            else f"schemaVersion must be 1, not {version!r}"
        )
    extra = unknown_keys(data, fields)
    return f"unknown top-level field {extra}" if extra else None


def bounded(
    value: Any,
    kind: type[list[Any]] | type[dict[str, Any]],
    wrong: str,
    limit: int,
    too_many: Callable[[int], str],
) -> str | None:
    """What is wrong with a top-level list or table: not a `kind` (`wrong`, then what
    it is) or more than `limit` items (`too_many(count)`); None when neither."""
    if not isinstance(value, kind):
        return f"{wrong}, not {type_name(value)}"
    if len(value) > limit:
        return too_many(len(value))
    return None


MAX_MANIFEST = 1024 * 1024  # a plugin manifest: 1 MiB


def resolve_root(root: Path) -> Path:
    """A plugin root with every symlink resolved (once per plugin read)."""
    return Path(os.path.realpath(root))


def contained(path: Path, root: Path) -> bool:
    """Whether `path` resolves (after symlinks) inside `root`, a resolved directory.

    A path spelled below `root` whose components (below the root) hold no symlink is
    inside as it stands, and so is one whose first missing component comes before any
    symlink: only those components are looked at (`walk`); any other is resolved."""
    return walk(path, root)[0] != "linked" or resolves_inside(path, root)


def resolves_inside(path: Path, root: Path) -> bool:
    real = real_path(path)
    return real is not None and is_inside(real, root)


def probe_json(path: Path, cap: int = MAX_MANIFEST) -> tuple[Any, str | None]:
    """The JSON value in the file at `path`, or (None, why not)."""
    try:
        data = read_bounded(path, cap)
    except FileProblem as e:
        return None, f"cannot read it: {e.message}"
    try:
        text = data.decode("utf-8").removeprefix(_BOM)
    except UnicodeDecodeError:
        return None, "it is not valid UTF-8"
    try:
        return loads(text, object_pairs_hook=unique_keys), None  # no key twice (M01)
    except ValueError as e:  # nesting past the limit too
        return None, f"it is not valid JSON: {e}"


def is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False

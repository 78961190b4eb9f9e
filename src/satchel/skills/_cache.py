"""The discovery cache: what was read from each SKILL.md, kept between processes.

A skills root's cache is one file in the user cache directory
(``platformdirs.user_cache_dir("satchel")/discovery``: on Linux
``$XDG_CACHE_HOME/satchel/discovery``, else ``~/.cache/satchel/discovery``; or
``$SATCHEL_CACHE_DIR`` when set), named by the cache format, satchel's version, the
root's path and the field rules (the deprecated fields when a client names
more than satchel's), each percent-quoted (a name too long for a file is
their sha256 instead). It maps each
SKILL.md path to the file's (device, inode, size, mtime_ns) when it was read and what
`read_skill` made of its bytes: the skill's fields and the diagnostics, never the
precedence decisions (those are made again on every load).

Rules that keep it honest:

* Every file is stamped again on every load (one ``lstat``); an entry whose key differs
  is read again, so a cached entry is never trusted for a changed file. A file modified
  less than `RACY_NS` before it was read is not stored: in that window a second write
  could keep the same size and timestamp (as git's "racy" index entries).
* Writes are atomic (a temporary file in the same directory, then ``os.replace``): two
  processes writing at once leave one whole cache or the other.
* The directory is created 0700 and files 0600; a directory or file not owned by the
  user, or open to others, is not read (the format is ``marshal`` of plain values,
  which is fast to load but must never come from a file another user could write).
  A file that does not load or does not have the expected shape counts as empty and is
  rewritten; an entry whose values are not exactly the types it was written with (a
  name that is not a string, a list where a tuple was kept) counts as missing and is
  read again, so a hand-edited file never reaches the code that renders a skill.
* ``SATCHEL_CACHE=off`` (or ``0``, ``false``, ``no``) or ``load(cache=False)`` turns it
  off: no cache file is read or written.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import quote

from satchel.core._collector import collector_paused
from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import user_dir
from satchel.foundations._version import __version__
from satchel.foundations.origin import Origin
from satchel.skills._fields import DEPRECATED, FieldRules
from satchel.skills._model import Skill
from satchel.skills._read import Key

__all__ = ["ENV_DIR", "ENV_SWITCH", "RootCache", "cache_dir", "file_name", "open_root_cache"]

ENV_DIR = "SATCHEL_CACHE_DIR"
ENV_SWITCH = "SATCHEL_CACHE"
FORMAT = 2  # 2: yes, no, on and off are read as text
RACY_NS = 2_000_000_000
_OFF = frozenset(("0", "off", "false", "no"))
_LONGEST_NAME = 200  # of a cache file's name before ".marshal" (file names: 255 bytes)

_EMPTY: Any = MappingProxyType({})


def cache_dir() -> Path | None:
    """The cache directory, or None when the cache is turned off."""
    if os.environ.get(ENV_SWITCH, "").strip().lower() in _OFF:
        return None
    given = os.environ.get(ENV_DIR, "")
    if given:
        return Path(given)
    return user_dir("cache", "satchel", os.environ) / "discovery"


def open_root_cache(root: Path, rules: FieldRules) -> RootCache | None:
    """The cache of one skills root (empty when there is none yet), or None when off."""
    where = cache_dir()
    if where is None:
        return None
    cache = RootCache(where, file_name(root, rules))
    cache.entries = _load(where, cache.name)
    return cache


def file_name(root: Path, rules: FieldRules) -> str:
    """The name of `root`'s cache file under `rules`: its parts percent-quoted and joined
    by ``+`` (which quoting escapes, so two roots never share a name), or their sha256
    when that is too long for a file name."""
    parts: tuple[object, ...]
    parts = (FORMAT, __version__, root, int(rules.strict), int(rules.unicode_names), rules.client)
    if not rules.names.spec or rules.hosts is not None:  # names as a host keeps them, or notes
        parts = (*parts, rules.names.key(), int(rules.hosts is not None))
    if rules.deprecated != DEPRECATED:
        parts = (*parts, ",".join(rules.deprecated))
    name = "+".join(quote(str(p), safe="", errors="surrogateescape") for p in parts)
    if len(name) <= _LONGEST_NAME:
        return name + ".marshal"
    import hashlib  # only for a long root: importing it (OpenSSL) takes milliseconds

    digest = hashlib.sha256(name.encode("ascii")).hexdigest()[:32]
    return digest + ".marshal"


class RootCache:
    """One root's entries as read from disk, and the entries of this load. An entry is
    one flat tuple (fewer objects to load): the key's four numbers, the diagnostics,
    then the skill's fields as `Skill` takes them after `path` and `origin` (none when
    no skill loaded)."""

    __slots__ = ("directory", "dirty", "entries", "name", "seen")

    def __init__(self, directory: Path, name: str) -> None:
        self.directory = directory
        self.name = name
        self.entries: dict[str, Any] = {}
        self.seen: dict[str, tuple[Any, ...]] = {}
        self.dirty = False

    def lookup(
        self, file: str, st: os.stat_result, path: Path, origin: Origin
    ) -> tuple[Skill | None, list[Diagnostic]] | None:
        """What `file` held when it had the key of `st` (its ``lstat``), rebuilt for
        `path`; None on a miss."""
        entry = self.entries.get(file)
        if (
            type(entry) is not tuple
            or len(entry) < 5
            or entry[3] != st.st_mtime_ns
            or entry[2] != st.st_size
            or entry[1] != st.st_ino
            or entry[0] != st.st_dev
        ):
            self.dirty = True
            return None
        if not _typed(entry):
            self.dirty = True
            return None
        result = _rebuild(entry, path, origin)
        self.seen[file] = entry
        return result

    def store(self, file: str, key: Key, skill: Skill | None, diags: list[Diagnostic]) -> None:
        """Keep what was read from `file` (with `key`, taken from the open file)."""
        self.dirty = True
        if key[3] > time.time_ns() - RACY_NS:
            return
        self.seen[file] = (*key, tuple(_diag(d) for d in diags), *_fields(skill))

    def save(self) -> None:
        """Write this load's entries when they differ from what was read. Never raises
        for the file system: a cache that cannot be written is left as it was."""
        if not self.dirty and len(self.seen) == len(self.entries):
            return
        try:
            data = marshal.dumps((FORMAT, __version__, self.seen))
        except ValueError:  # a value marshal does not take: keep the entries it does
            data = marshal.dumps((FORMAT, __version__, _marshallable(self.seen)))
        try:
            _write(self.directory, self.name, data)
        except OSError:
            return


def _fields(skill: Skill | None) -> tuple[Any, ...]:
    if skill is None:
        return ()
    return (
        skill.name,
        skill.description,
        skill.license,
        skill.compatibility,
        dict(skill.metadata) or None,
        skill.allowed_tools,
        _plain(skill.extras) or None,
        skill.when_to_use,
        skill.paths,
        skill.disallowed_tools,
        skill.model,
        skill.effort,
        skill.shell,
        skill.context,
        skill.agent,
        skill.background,
    )


def _plain(value: Any) -> Any:
    """Read-only mappings as dicts, so marshal takes them."""
    if isinstance(value, MappingProxyType | dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _diag(d: Diagnostic) -> tuple[Any, ...]:
    return (d.code, d.severity, d.message, None if d.path is None else str(d.path), d.line, d.hint)


_S, _N = (str,), (str, type(None))
# the exact types of an entry's skill fields, in order (`_fields`); None: a string tuple
_TYPES: tuple[tuple[type, ...] | None, ...] = (
    _S, _S, _N, _N, (dict, type(None)), None, (dict, type(None)), _N, (tuple, type(None)),
    None, _N, (str, int, type(None)), _N, _N, _N, (bool, type(None)),
)  # fmt: skip
_DIAG = (_S, _S, _S, _N, (int, type(None)), _N)
_SEVERITIES = frozenset(("error", "warning", "info"))


def _typed(entry: tuple[Any, ...]) -> bool:
    """Whether `entry` is exactly what `store` keeps: its diagnostics and fields of the
    types `_fields` and `_diag` write (bool is no int, a list no tuple)."""
    if len(entry) not in (5, 5 + len(_TYPES)) or any(type(n) is not int for n in entry[:4]):
        return False
    diags = entry[4]
    if type(diags) is not tuple or not all(_is_diag(d) for d in diags):
        return False
    for value, types in zip(entry[5:], _TYPES, strict=False):
        if types is None:
            if type(value) is not tuple or not all(type(v) is str for v in value):
                return False
        elif type(value) not in types:
            return False
    if len(entry) == 5:  # no skill loaded: only the diagnostics
        return True
    metadata, extras, paths = entry[9], entry[11], entry[13]
    return (
        (metadata is None or all(type(k) is str and type(v) is str for k, v in metadata.items()))
        and (extras is None or _is_plain(extras))
        and (paths is None or all(type(v) is str for v in paths))
    )


_PLAIN = frozenset((str, int, float, bool, type(None), list, dict))
_MOST_VALUES = 100_000
_DEEPEST = 64  # levels, as frontmatter's YAML is bounded


def _is_plain(value: Any) -> bool:
    """Whether `value` holds only what YAML frontmatter gives (`_plain`): strings,
    numbers, booleans, None, lists, and dicts with string keys, at most `_DEEPEST` deep
    and `_MOST_VALUES` in all (so a crafted file's cycle ends); walked without recursion."""
    pending, seen = [(value, 1)], 0
    while pending:
        item, depth = pending.pop()
        kind, seen = type(item), seen + 1
        if kind not in _PLAIN or depth > _DEEPEST or seen > _MOST_VALUES:
            return False
        if kind is dict:
            if not all(type(k) is str for k in item):
                return False
            pending += ((v, depth + 1) for v in item.values())
        elif kind is list:
            pending += ((v, depth + 1) for v in item)
    return True


def _is_diag(d: Any) -> bool:
    return (
        type(d) is tuple
        and len(d) == len(_DIAG)
        and all(type(v) in t for v, t in zip(d, _DIAG, strict=True))
        and d[1] in _SEVERITIES
    )


def _rebuild(
    entry: tuple[Any, ...], path: Path, origin: Origin
) -> tuple[Skill | None, list[Diagnostic]]:
    diags = [_undiag(d, path) for d in entry[4]] if entry[4] else []
    if len(entry) == 5:
        return None, diags
    name, description, license_, compatibility, metadata, tools, extras = entry[5:12]
    when, paths, disallowed, model, effort, shell, context, agent, background = entry[12:]
    skill = _new_skill(Skill)  # what Skill(...) makes, without its 20-argument __init__
    _set_name(skill, name)
    _set_description(skill, description)
    _set_license(skill, license_)
    _set_compatibility(skill, compatibility)
    _set_metadata(skill, _EMPTY if metadata is None else MappingProxyType(metadata))
    _set_allowed_tools(skill, tools)
    _set_extras(skill, _EMPTY if extras is None else MappingProxyType(extras))
    _set_path(skill, path)
    _set_origin(skill, origin)
    _set_instructions(skill, None)
    _set_stamp(skill, (entry[2], entry[3]))
    _set_when_to_use(skill, when)
    _set_paths(skill, paths)
    _set_disallowed_tools(skill, disallowed)
    _set_model(skill, model)
    _set_effort(skill, effort)
    _set_shell(skill, shell)
    _set_context(skill, context)
    _set_agent(skill, agent)
    _set_background(skill, background)
    return skill, diags


_new_skill = object.__new__
_SLOTS: dict[str, Any] = {n: getattr(Skill, n).__set__ for n in Skill.__slots__}
_set_name = _SLOTS["name"]
_set_description = _SLOTS["description"]
_set_license = _SLOTS["license"]
_set_compatibility = _SLOTS["compatibility"]
_set_metadata = _SLOTS["metadata"]
_set_allowed_tools = _SLOTS["allowed_tools"]
_set_extras = _SLOTS["extras"]
_set_path = _SLOTS["path"]
_set_origin = _SLOTS["origin"]
_set_instructions = _SLOTS["instructions"]
_set_stamp = _SLOTS["stamp"]
_set_when_to_use = _SLOTS["when_to_use"]
_set_paths = _SLOTS["paths"]
_set_disallowed_tools = _SLOTS["disallowed_tools"]
_set_model = _SLOTS["model"]
_set_effort = _SLOTS["effort"]
_set_shell = _SLOTS["shell"]
_set_context = _SLOTS["context"]
_set_agent = _SLOTS["agent"]
_set_background = _SLOTS["background"]


def _undiag(d: tuple[Any, ...], path: Path) -> Diagnostic:
    code, severity, message, where, line, hint = d
    at = None if where is None else path if where == str(path) else Path(where)
    return Diagnostic(code, severity, message, at, line, hint)


def _marshallable(entries: dict[str, Any]) -> dict[str, Any]:
    kept = {}
    for file, entry in entries.items():
        try:
            marshal.dumps(entry)
        except ValueError:
            continue
        kept[file] = entry
    return kept


def _private(st: os.stat_result, is_type: Callable[[int], bool]) -> bool:
    """Owned by this user, of the right type, and neither readable nor writable by others."""
    return is_type(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o077


def _load(directory: Path, name: str) -> dict[str, Any]:
    """The entries of a cache file; empty when there is none, or it is not private, or
    it does not load, or it is of another format or satchel version."""
    try:
        if not _private(os.lstat(directory), stat.S_ISDIR):
            return {}
        fd = os.open(directory / name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return {}
    try:
        if not _private(os.fstat(fd), stat.S_ISREG):
            return {}
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read()
        loaded = _unmarshal(data)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    finally:
        os.close(fd)
    ok = type(loaded) is tuple and len(loaded) == 3 and loaded[:2] == (FORMAT, __version__)
    return loaded[2] if ok and type(loaded[2]) is dict else {}


def _unmarshal(data: bytes) -> Any:
    """`marshal.loads` with the cyclic collector paused: loading makes thousands of
    containers, and a collection started among them would cost more than the load."""
    with collector_paused():
        return marshal.loads(data)


def _write(directory: Path, name: str, data: bytes) -> None:
    """Replace the cache file at once: write a private temporary file beside it first."""
    os.makedirs(directory, mode=0o700, exist_ok=True)
    if not _private(os.lstat(directory), stat.S_ISDIR):
        return
    temp = directory / f".{name}.{os.getpid()}.{time.monotonic_ns()}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(temp, directory / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise

"""One plugin being read (`Ctx`): its root, name, options and the diagnostics of its parts,
and the `Fatal` problem that drops a whole plugin. Every format and component reader takes one."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypeVar

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import (
    contained,
    resolve_root,
    resolves_inside,
    walk,
)
from satchel.foundations.origin import Origin
from satchel.hosts._vocabulary import SKILL_RULES, SkillRule
from satchel.plugins._model import Format, Plugin

__all__ = [
    "Ctx",
    "Fatal",
    "Kind",
    "SKILL_RULES",
    "SkillRule",
    "fatal",
    "frozen",
    "listdir",
    "listed_or_default",
]


Kind = Literal["hooks", "mcp", "agents"]


T = TypeVar("T")


_UNSUPPORTED: Mapping[Kind, tuple[str, str]] = MappingProxyType(
    {
        "hooks": ("plugin.hooks.unsupported", "plugin hooks recognised but not executed"),
        "mcp": ("plugin.mcp.unsupported", "plugin MCP component recognised but not loaded"),
        "agents": ("plugin.agents.unsupported", "plugin agents recognised but not loaded"),
    }
)


class Fatal(Exception):  # a value carried out of a manifest check, not a bug
    """A problem that drops the whole plugin."""

    def __init__(self, found: Diagnostic) -> None:
        super().__init__(found.message)
        self.diagnostic = found


def fatal(code: str, message: str, path: Path | None, *, hint: str | None = None) -> Fatal:
    return Fatal(diagnostic(code, message, path, hint=hint, severity="error"))


@dataclass(slots=True)
class Ctx:
    """One plugin being read: its resolved root, name, namespace and options, and
    the diagnostics of its parts so far."""

    root: Path
    dir_name: str = ""  # the directory's name as given (before symlinks)
    name: str = ""
    namespace: str = ""
    executable: bool = True
    skill_rule: SkillRule = "claude-code"
    # read as a host profile that names its formats reads them: each as its own host
    # does (a hook on an event that host does not fire is skipped); False: satchel's
    # own reading, which keeps it for a caller that fires any event
    as_host: bool = False
    diags: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        root: Path,
        *,
        executable: bool,
        real_root: Path | None = None,
        skill_rule: SkillRule = "claude-code",
        as_host: bool = False,
    ) -> Ctx:
        """The plugin at `root`; `real_root`: `root` already resolved, when the caller
        has it."""
        given = Path(os.path.abspath(root))
        real = resolve_root(given) if real_root is None else real_root
        return cls(real, given.name, executable=executable, skill_rule=skill_rule, as_host=as_host)

    @property
    def origin(self) -> Origin:
        """Where the plugin's skills, commands and agents come from: scope ``plugin``,
        its name as family and plugin, its namespace, its root (once the format has
        named it)."""
        return Origin(
            "plugin", self.name, plugin=self.name, namespace=self.namespace, path=self.root
        )

    def add(self, code: str, message: str, path: Path | None, **kw: Any) -> None:
        self.diags.append(diagnostic(code, message, path, **kw))

    def keep(self, result: tuple[Iterable[T], Iterable[Diagnostic]]) -> tuple[T, ...]:
        """What a component parser found; its diagnostics join the plugin's."""
        found, diags = result
        self.diags.extend(diags)
        return tuple(found)

    def plugin(
        self, fmt: Format, scope: str, manifest: Mapping[str, Any] | None = None, **parts: Any
    ) -> Plugin:
        """The plugin read so far: its name, root and diagnostics, the version and
        description of `manifest`, and `parts`."""
        if manifest is not None:
            parts["manifest"] = frozen(manifest)
            parts["version"] = manifest.get("version")
            parts["description"] = manifest.get("description")
        return Plugin(
            name=self.name,
            root=self.root,
            format=fmt,
            namespace=self.namespace,
            scope=scope,
            diagnostics=tuple(self.diags),
            **parts,
        )

    def rel(self, path: Path) -> str:
        """`path` as the plugin names it, for messages."""
        try:
            return path.relative_to(self.root).as_posix() or "."
        except ValueError:
            return str(path)

    def fixed(self, relative: str) -> Path | None:
        """A fixed component location when it exists and stays inside the root; None
        when it is missing, or (reported) when it leads out."""
        path = self.root / relative
        state, _ = walk(path, self.root)
        if state == "missing" or (state == "linked" and not os.path.lexists(path)):
            return None
        if state == "clean" or resolves_inside(path, self.root):
            return path
        message = f"{relative} resolves outside the plugin root; it is not loaded"
        self.add("plugin.path.outside_root", message, path, severity="warning")
        return None

    def entry(self, value: Any, where: str, path: Path | None) -> Path | None:
        """A path the plugin declares (`where` names the field, `path` the file that
        declares it): the contained path, or None (reported)."""
        if not isinstance(value, str) or not value.strip():
            got = repr(value) if isinstance(value, str) else type_name(value)
            message = f"{where} must be a plugin-relative path, not {got}; it is ignored"
            self.add("plugin.manifest.invalid", message, path, severity="warning")
            return None
        parts = value.replace("\\", "/").split("/")
        if value.startswith(("/", "\\")) or ".." in parts or (len(value) > 1 and value[1] == ":"):
            message = f"{where} {value!r} leaves the plugin root (absolute or ..); it is ignored"
            self.add("plugin.path.outside_root", message, path, severity="warning")
            return None
        target = self.root.joinpath(*[p for p in parts if p not in ("", ".")])
        if not contained(target, self.root):
            message = f"{where} {value!r} resolves outside the plugin root; it is ignored"
            self.add("plugin.path.outside_root", message, path, severity="warning")
            return None
        return target

    def listed(self, manifest: Mapping[str, Any], key: str, path: Path) -> list[Path]:
        """The contained paths a manifest field names, one path or a list of them
        (refused entries reported)."""
        value = manifest.get(key)
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        found = [self.entry(v, f"`{key}`", path) for v in values]
        return [p for p in found if p is not None]

    def runs(self, kind: Kind, paths: Sequence[Path]) -> bool:
        """Whether components of `kind` are read: not by a declarative-only client,
        which only notes where they are (one diagnostic, when there are any)."""
        if self.executable:
            return True
        if paths:
            code, what = _UNSUPPORTED[kind]
            where = ", ".join(self.rel(p) for p in paths)
            self.add(code, f"{what} by a declarative-only client: {where}", paths[0])
        return False


def listdir(ctx: Ctx, directory: Path, code: str) -> list[os.DirEntry[str]]:
    """The entries of `directory` in name order ([] and `code` when it cannot be
    listed)."""
    try:
        with os.scandir(directory) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as e:
        message = f"cannot list {ctx.rel(directory)}: {e.strerror or e}"
        ctx.add(code, message, directory, severity="warning")
        return []


def frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


def listed_or_default(
    ctx: Ctx, manifest: Mapping[str, Any], key: str, default: str | None, path: Path
) -> list[Path]:
    """The contained paths a field lists, or the default location (if any) when the
    field is absent."""
    if key in manifest:
        return ctx.listed(manifest, key, path)
    fixed = None if default is None else ctx.fixed(default)
    return [] if fixed is None else [fixed]

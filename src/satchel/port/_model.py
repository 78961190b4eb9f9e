"""What a port produces: the files for each target host, what each drops, and the report."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic

__all__ = ["Action", "Drop", "Kind", "PortReport", "TargetReport", "Written"]

# written: a new file or one port wrote before; unchanged: the same bytes are there;
# refused: a file port did not write is there (or the path leaves the root);
# planned: what --dry-run would write
Action = Literal["written", "unchanged", "refused", "planned"]


@model
class Written:
    """One file a target needs: its plugin-relative `path`, its `text`, and what
    happened to it."""

    path: str
    text: str
    action: Action

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "action": self.action}


Kind = Literal["skill", "command", "agent", "hook", "mcp_server"]


@model
class Drop:
    """One component of the source that a target does not get, or gets without some of
    its fields (``port.mcp.field``; a hook without some tools in its matcher,
    ``port.hook.tool``), or gets under another name (``port.name.changed``,
    `to`): its `kind`, its `name` as the source's inventory
    names it (a skill's, command's, agent's or server's name; a hook's event in
    satchel's spelling, see `satchel.port.hook_key`), and the diagnostic saying why."""

    kind: Kind
    name: str
    diagnostic: Diagnostic
    to: str | None = None  # ``port.name.changed``: the name the target gives it

    @property
    def whole(self) -> bool:
        """Whether the component itself is left out (not only some of its fields, and
        not only its name: `to`)."""
        return self.diagnostic.code not in (
            "port.mcp.field",
            "port.name.changed",
            "port.hook.tool",
            "port.hook.answer",
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "code": self.diagnostic.code}
        if self.to is not None:
            out["to"] = self.to
        return out


@model
class TargetReport:
    """One target host: the files it needs and the diagnostics (``port.*``) naming
    each component it cannot express, and each file refused. `skipped`: nothing is
    written for it (the plugin is already in that host's format, or its name is not
    one the host accepts)."""

    target: str
    title: str
    files: tuple[Written, ...] = ()
    drops: tuple[Drop, ...] = ()
    problems: tuple[Diagnostic, ...] = ()
    skipped: bool = False

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Every diagnostic of the target: each drop's, then the files' problems."""
        return (*(d.diagnostic for d in self.drops), *self.problems)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "title": self.title,
            "skipped": self.skipped,
            "files": [f.to_json() for f in self.files],
            "dropped": [d.to_json() for d in self.drops],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


@model
class PortReport:
    """A whole port: the source plugin's root and format, one `TargetReport` per
    target, and the source's own diagnostics (reading it). `plugin` None: the source
    is not a plugin satchel reads, and nothing is written."""

    root: Path
    format: str | None
    targets: tuple[TargetReport, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    dry_run: bool = False

    @property
    def ok(self) -> bool:
        """Whether every target got every component and every file: nothing dropped,
        nothing refused, and the source was read."""
        if self.format is None:
            return False
        if any(d.to is None for t in self.targets for d in t.drops):
            return False
        return not any(d.severity == "error" for d in self.all_diagnostics())

    def all_diagnostics(self) -> list[Diagnostic]:
        return [*self.diagnostics, *(d for t in self.targets for d in t.diagnostics)]

    def to_json(self) -> dict[str, Any]:
        return {
            "root": str(self.root),
            "format": self.format,
            "dry_run": self.dry_run,
            "ok": self.ok,
            "targets": [t.to_json() for t in self.targets],
        }

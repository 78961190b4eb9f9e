"""What `satchel compat` reports: per host, what loads (`Loads`), what is dropped and
the rule that drops it (`Drop`), and what the always-on context costs (`Tokens`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic

__all__ = [
    "COMPONENTS",
    "Component",
    "Drop",
    "HostReport",
    "Kind",
    "Loads",
    "Ported",
    "Report",
    "Tokens",
    "Verdict",
]

Kind = Literal["skill", "plugin", "project"]
# as-shipped: the host drops nothing of it as it is; port: it drops something, and
# nothing once `satchel port` wrote its manifest; neither: something either way
Verdict = Literal["as-shipped", "port", "neither"]
Component = Literal[
    "skill", "command", "agent", "hook", "mcp_server", "instruction", "plugin", "index",
    "output_style", "theme", "channel", "workflow", "hooks_module", "lsp_server", "monitor",
    "bin", "user_option", "app",
]  # fmt: skip
COMPONENTS: tuple[Component, ...] = (
    "skill", "command", "agent", "hook", "mcp_server", "instruction", "plugin", "index",
    "output_style", "theme", "channel", "workflow", "hooks_module", "lsp_server", "monitor",
    "bin", "user_option", "app",
)  # fmt: skip


@model
class Drop:
    """One thing a host drops, cuts or ignores: the `diagnostic` (a ``compat.*`` code,
    its message and the file concerned), the kind of `component` and its `id` (as the
    host would name it, or its directory name when the host never names it)."""

    diagnostic: Diagnostic
    component: Component
    id: str
    path: str | None = None  # the file, relative to the subject

    @property
    def code(self) -> str:
        return self.diagnostic.code

    @property
    def message(self) -> str:
        return self.diagnostic.message

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.diagnostic.severity,
            "message": self.message,
            "component": self.component,
            "id": self.id,
            "path": self.path,
        }


@model
class Loads:
    """What a host loads, each under the id that host gives it, in load order."""

    skills: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    agents: tuple[str, ...] = ()
    hooks: tuple[str, ...] = ()
    mcp_servers: tuple[str, ...] = ()
    instructions: tuple[str, ...] = ()
    plugins: tuple[str, ...] = ()

    def to_json(self) -> dict[str, list[str]]:
        return {
            "skills": list(self.skills),
            "commands": list(self.commands),
            "agents": list(self.agents),
            "hooks": list(self.hooks),
            "mcp_servers": list(self.mcp_servers),
            "instructions": list(self.instructions),
            "plugins": list(self.plugins),
        }


@model
class Tokens:
    """The always-on context a host reads before any task: its skill index (`index`
    tokens, `index_chars` characters, `listed` skills) and its always-on instruction
    files (`instructions` tokens). `budget_chars` and `budget_entries` are the index
    budget that applies (`Host.index`; None: no budget), `overflow` what the host does
    when it is over, `rule` where the budget comes from, and `fits` whether it fits."""

    index: int
    index_chars: int
    listed: int
    instructions: int
    budget_chars: int | None
    budget_entries: int | None
    overflow: str
    rule: str
    fits: bool

    @property
    def total(self) -> int:
        return self.index + self.instructions

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "instructions": self.instructions,
            "total": self.total,
            "index_chars": self.index_chars,
            "listed": self.listed,
            "budget": {
                "chars": self.budget_chars,
                "entries": self.budget_entries,
                "overflow": self.overflow,
                "rule": self.rule,
            },
            "fits": self.fits,
        }


@model
class Ported:
    """A plugin as the host reads it after ``satchel port --to TARGET`` (worked out in
    a scratch copy, never in the plugin): the port `target`, whether port writes
    anything for it (`written`; not when the plugin is in the host's format already,
    its name is one the host refuses, or a file port would write is the plugin's own:
    `problems` say which, and `loads` and `drops` are those as shipped), what the host then
    `loads`, and what is still lost (`drops`: port's own ``port.*`` drops, then the
    compat rules on the written plugin)."""

    target: str
    written: bool
    loads: Loads
    drops: tuple[Drop, ...]
    problems: tuple[Diagnostic, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "written": self.written,
            "loads": self.loads.to_json(),
            "drops": [d.to_json() for d in self.drops],
            "problems": [d.to_json() for d in self.problems],
        }


@model
class HostReport:
    """One host's view: its profile `host` name and `title`, what it `loads` as
    shipped, what it `drops`, the always-on `tokens`, the `diagnostics` of the view
    itself (a model the host does not know: ``host.model-unknown``), and, for a plugin
    and a host `satchel port` writes for, the view after port (`ported`)."""

    host: str
    title: str
    loads: Loads
    drops: tuple[Drop, ...]
    tokens: Tokens
    diagnostics: tuple[Diagnostic, ...] = ()
    ported: Ported | None = None

    @property
    def verdict(self) -> Verdict:
        """Whether the host loads everything as shipped, only after port, or neither."""
        if not self.drops:
            return "as-shipped"
        if self.ported is not None and self.ported.written and not self.ported.drops:
            return "port"
        return "neither"

    @property
    def unfixed(self) -> tuple[Drop, ...]:
        """What neither the plugin as shipped nor port makes the host load: nothing
        when either view drops nothing, else port's view's drops when port writes for
        the host, else the drops as shipped."""
        if self.verdict != "neither":
            return ()
        if self.ported is not None and self.ported.written:
            return self.ported.drops
        return self.drops

    def to_json(self) -> dict[str, Any]:
        return {
            "host": self.host,
            "title": self.title,
            "loads": self.loads.to_json(),
            "drops": [d.to_json() for d in self.drops],
            "tokens": self.tokens.to_json(),
            "ported": None if self.ported is None else self.ported.to_json(),
            "verdict": self.verdict,
        }


@model
class Report:
    """`compat(path)`: the subject (`path`, its `kind`) and one `HostReport` per host,
    in the order asked; its JSON's ``diagnostics`` are the hosts' (`diagnostics`)."""

    path: Path
    kind: Kind
    hosts: tuple[HostReport, ...]

    def get(self, host: str) -> HostReport | None:
        """The report of the host named `host`, if it was asked for."""
        return next((h for h in self.hosts if h.host == host), None)

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Every host's `HostReport.diagnostics`, each once, in the hosts' order."""
        return tuple(dict.fromkeys(d for h in self.hosts for d in h.diagnostics))

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "kind": self.kind,
            "hosts": [h.to_json() for h in self.hosts],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }

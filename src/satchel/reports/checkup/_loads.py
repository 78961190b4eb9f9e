"""`Loads`: what one host will load, under the ids it gives each thing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from satchel.core._model import model

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment
    from satchel.hooks import Hook

__all__ = ["Loads", "loads_of"]


@model
class Loads:
    """The ids of the skills, commands, agent types, plugins (enabled ones) and MCP
    servers a host loads, its hooks as ``Event [matcher]: command (source)`` lines,
    and the instruction files it reads, each sorted."""

    skills: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    agents: tuple[str, ...] = ()
    plugins: tuple[str, ...] = ()
    hooks: tuple[str, ...] = ()
    mcp_servers: tuple[str, ...] = ()
    instructions: tuple[Path, ...] = ()

    def counts(self) -> dict[str, int]:
        """How many of each kind, by kind."""
        return {kind: len(getattr(self, kind)) for kind in KINDS}

    def to_json(self, shown: Callable[[Path], str]) -> dict[str, Any]:
        """Each kind as a list; instruction files as `shown` writes them."""
        out: dict[str, Any] = {kind: list(getattr(self, kind)) for kind in KINDS[:-1]}
        out["instructions"] = [shown(p) for p in self.instructions]
        return out


KINDS = ("skills", "commands", "agents", "plugins", "hooks", "mcp_servers", "instructions")


def loads_of(env: Environment) -> Loads:
    """What `env` loads."""
    hooks = sorted({_hook(h) for h in env.hooks.loaded()})
    return Loads(
        skills=tuple(sorted(env.skills)),
        commands=tuple(sorted(env.commands.commands)),
        agents=tuple(sorted(env.agents.agents)),
        plugins=tuple(sorted(p.name for p in env.plugins.enabled())),
        hooks=tuple(hooks),
        mcp_servers=tuple(sorted(s.name for s in env.mcp_servers.enabled())),
        instructions=tuple(f.path for f in env.instructions),
    )


def _hook(hook: Hook) -> str:
    matcher = f" [{hook.spec.matcher}]" if hook.spec.matcher else ""
    return f"{hook.spec.event}{matcher}: {hook.spec.command} ({hook.source})"

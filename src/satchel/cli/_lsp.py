"""What the LSP verbs share: a server's row, its JSON (env values never shown), the
servers a name picks, and the note an untrusted folder gets."""

from __future__ import annotations

import shlex
from typing import Any

from satchel.assembly._environment import Environment
from satchel.cli._workspace import trust_command
from satchel.plugins._lsp import LspServer

UNTRUSTED = (
    "The project is not trusted, so its plugins' language servers would not load; {how} trusts it."
)


def runs(server: LspServer) -> str:
    """What the server runs: its command and args."""
    return shlex.join((server.command, *server.args))


def extensions(server: LspServer) -> str:
    """``.py .pyi -> python``, one group per language."""
    groups: dict[str, list[str]] = {}
    for extension, language in server.extensions.items():
        groups.setdefault(language, []).append(extension)
    return ", ".join(f"{' '.join(exts)} -> {lang}" for lang, exts in groups.items())


def server_json(server: LspServer, scope: str) -> dict[str, Any]:
    """The entry as JSON, with `scope` (its plugin's) and env names only."""
    doc = server.to_json()
    doc["env"] = sorted(server.env)
    return {"id": f"{server.plugin}:{server.name}", "scope": scope, **doc}


def scopes(env: Environment) -> dict[str | None, str]:
    """Each enabled plugin's scope, by name."""
    return {p.name: p.scope for p in env.plugins.enabled()}


def picked(servers: tuple[LspServer, ...], name: str | None) -> tuple[LspServer, ...]:
    """The servers `name` picks: ``PLUGIN:SERVER``, or a bare server name (every
    plugin's of that name); all of them for None."""
    if name is None:
        return servers
    return tuple(s for s in servers if name in (s.name, f"{s.plugin}:{s.name}"))


def untrusted_note(env: Environment) -> str:
    return UNTRUSTED.format(how=f"`{trust_command(env.layout)}`")

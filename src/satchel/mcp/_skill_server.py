"""How to reach one server of the MCP Skills extension: the value a host names a
skills server by, in ``[skill_servers.<label>]``, in a gateway's sources, or in code.
The client that talks to it is `satchel.mcp._skills_client`, imported only when a
server is reached."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path

from satchel.core._model import model

__all__ = ["SkillServer"]


@model
class SkillServer:
    """How to reach one skills server: a `command` (stdio) or a `url` (streamable
    HTTP); `label` is the host's name for it, the half of every skill's identity.
    `references` are ``SKILL.md`` URIs the host names on its own (the extension's
    explicit references), each confirmed with ``skills/get`` whether or not the server
    lists it. `project`: the project's own config declares it, so a pinned trust of the
    project binds its skills (`satchel.mcp._approved`). `client`: whose keyring service
    holds an OAuth login for its `url` (``satchel mcp login URL``: `satchel.mcp._oauth_store`)."""

    label: str
    command: tuple[str, ...] = ()
    url: str | None = None
    cwd: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float = 30.0
    references: tuple[str, ...] = ()
    project: bool = False
    client: str = "satchel"

    def shown(self) -> str:
        """The server as the user named it (the command line, or the URL)."""
        import shlex

        return shlex.join(self.command) if self.command else str(self.url)

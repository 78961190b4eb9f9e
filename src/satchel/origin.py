"""Where a loaded thing came from (`Origin`) and how far the project is believed (`Trust`).

`load()` decides trust once, into one `Trust` value on the `Environment`; every part
that treats the project's content differently reads its flags instead of combining
the host's options again:

* ``trusted``: the project folder is trusted (the host said so, or the user's list of
  trusted folders does) and its content loads: skills, commands, agents, instruction
  files, and what runs (plugins, hooks, MCP servers, ``!`cmd``` lines);
* ``untrusted``: the folder is not trusted; the project's skills, commands, agents and
  instruction files load below the user's, and nothing of it runs;
* ``hidden``: the host turned the project's content off (``trust_project_skills=False``);
  none of it loads, whether or not the folder is trusted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["Origin", "Scope", "Trust", "TrustState"]

TrustState = Literal["trusted", "untrusted", "hidden"]
Scope = Literal["project", "user", "plugin", "extra", "written", "config", "host"]


@dataclass(frozen=True, slots=True)
class Trust:
    """How far the project's own content is believed, decided once by `load()`.

    `state` is what the project's content gets (see the module docstring); `folder`
    whether the project folder itself is trusted (it may be while the host hides the
    project's content)."""

    state: TrustState
    folder: bool

    def __post_init__(self) -> None:
        if self.state == "trusted" and not self.folder:
            raise ValueError("a project whose folder is not trusted cannot be trusted")
        if self.state == "untrusted" and self.folder:
            raise ValueError("a project whose folder is trusted is trusted or hidden")

    @classmethod
    def decide(cls, *, folder: bool, load_project: bool) -> Trust:
        """The one trust value for a folder that is trusted or not, whose content the
        host loads or hides."""
        if not load_project:
            return cls("hidden", folder)
        return cls("trusted" if folder else "untrusted", folder)

    @property
    def load_project(self) -> bool:
        """The project's skills, commands, agents and instruction files are read."""
        return self.state != "hidden"

    @property
    def run_project(self) -> bool:
        """The project's executable parts load: its plugins, hooks, MCP servers and
        skills' ``!`cmd``` lines."""
        return self.state == "trusted"

    @property
    def demote_project(self) -> bool:
        """The user's skills, commands, agents and plugins rank above the project's."""
        return not self.folder


@dataclass(frozen=True, slots=True)
class Origin:
    """Where one loaded item came from: the `scope` of its root (``host`` for what
    the host defines in code), the `family` that root belongs to (a plugin's name, a
    client's folder), the `plugin` that ships it and the `namespace` its name is
    qualified with (if any), the `path` it was read from (None: defined in code) and
    the `trust` its project was loaded with."""

    scope: Scope
    family: str = ""
    plugin: str | None = None
    namespace: str | None = None
    path: Path | None = None
    trust: TrustState = "trusted"

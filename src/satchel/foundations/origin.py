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

A trusted folder pinned by ``satchel trust`` holds back what changed since
(`satchel.trust._approval`): `Trust.held` names those items, so what is read later (a
skill's or agent type's own hooks) is held back by the same decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from satchel.core._model import model

if TYPE_CHECKING:
    from satchel.core.layout import Root

__all__ = [
    "NO_ORIGIN",
    "Origin",
    "Originated",
    "Pins",
    "Scope",
    "Trust",
    "TrustState",
    "as_scope",
    "root_origin",
]

TrustState = Literal["trusted", "untrusted", "hidden"]
# ``""``: no root at all (a value built in code that names none).
Scope = Literal[
    "", "project", "user", "plugin", "extra", "written", "config", "host", "builtin", "mcp"
]


@model
class Pins:
    """The digests a trusted folder was pinned to (`satchel.trust._approval`): the folder on
    the list that trusts the project, and its item -> digest map."""

    folder: Path
    approved: Mapping[str, str]


@model
class Trust:
    """How far the project's own content is believed, decided once by `load()`.

    `state` is what the project's content gets (see the module docstring); `folder`
    whether the project folder itself is trusted (it may be while the host hides the
    project's content); `held` the pin keys (``hook <name>``, ``mcp-server <name>``...)
    of the project's executable items that are new or changed since the folder was
    trusted: they do not run until it is trusted again; `pins` what ``satchel trust``
    pinned (None: the folder carries none, or the host decided), against which what is
    read only later (a skill's ``!`cmd``` lines, read when it is activated) is held."""

    state: TrustState
    folder: bool
    held: frozenset[str] = frozenset()
    pins: Pins | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.state == "trusted" and not self.folder:
            raise ValueError("a project whose folder is not trusted cannot be trusted")
        if self.state == "untrusted" and self.folder:
            raise ValueError("a project whose folder is trusted is trusted or hidden")

    @classmethod
    def decide(cls, *, folder: bool, load_project: bool, hide_untrusted: bool = False) -> Trust:
        """The one trust value for a folder that is trusted or not, whose content the
        host loads or hides; `hide_untrusted` hides it when the folder is not trusted
        (Gemini CLI's rule)."""
        if not load_project or (hide_untrusted and not folder):
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

    def holds(self, key: str) -> bool:
        """Whether the item pinned as `key` is held back (new or changed since trust)."""
        return key in self.held

    def runs(self, project: bool, *, key: str | None = None, workspace: bool = False) -> bool:
        """Whether one executable item may run, by whose it is: the `project`'s (a
        project file's, a project plugin's) when the project runs (`run_project`) and
        it is not held back (`key`, when it is pinned, not in `held`); the user's own
        (their files, their plugins, the plugin directories a host names) whatever the
        project is, as the user's hooks always run. A kind that needs a trusted
        workspace (`workspace`: plugin monitors and ``bin/``; Claude Code skips every
        plugin monitor without workspace trust) runs in no folder that is not trusted,
        whoever's it is."""
        if workspace and not self.folder:
            return False
        if not project:
            return True
        return self.run_project and (key is None or key not in self.held)


@model
class Origin:
    """Where one loaded item came from: the `scope` of its root (``host``, ``builtin``
    or ``""`` for what the host defines in code), the `family` that root belongs to (a
    plugin's name, a client's folder), the `plugin` that ships it and the `namespace`
    its name is qualified with (if any), the `path` of the root it was found under (a
    skills, commands or agents directory, the plugin's root, the one file a source is;
    None: defined in code; the item's own file is the model's `path`). How far the
    project is believed is not an origin's: it is the one `Trust` of the `Environment`.

    One origin is built where a walk starts (a layout root, a plugin, a file) and every
    item found there carries it."""

    scope: Scope
    family: str = ""
    plugin: str | None = None
    namespace: str | None = None
    path: Path | None = None


NO_ORIGIN = Origin("")  # a value built in code, from no root


class Originated:
    """What a loaded item (a skill, command, agent type or MCP server) answers of its
    `origin`: the `scope` of its root, the `family` of that root and the `plugin` that
    ships it."""

    __slots__ = ()
    origin: Origin

    @property
    def scope(self) -> str:
        """The scope of the root it came from (``project``, ``user``, ``plugin``...)."""
        return self.origin.scope

    @property
    def family(self) -> str:
        """The tool family of that root (``.claude``, a plugin's name...)."""
        return self.origin.family

    @property
    def plugin(self) -> str | None:
        """The plugin that ships it (None for anything else)."""
        return self.origin.plugin


def as_scope(label: str) -> Scope:
    """A layout row's scope label as an origin's `Scope` (a host's own table may name
    scopes of its own; they pass through as written)."""
    return cast(Scope, label)


def root_origin(root: Root) -> Origin:
    """The origin of everything found under a layout root: its scope, family and path."""
    return Origin(as_scope(root.scope), root.family, path=root.path)

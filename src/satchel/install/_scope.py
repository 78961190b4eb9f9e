"""Where installs go: a scope (project or user), a tool family, and the lock file.

Skills install into the skills root of the chosen family in the chosen scope, read
from the layout's own table (`satchel.core.layout.default_roots`): for the project
``<project>/.satchel/skills`` (family ``satchel``), ``<project>/.agents/skills``
(``agents``: every agent sees them) or ``<project>/.claude/skills`` (``claude``);
for the user ``<config>/satchel/skills``, ``~/.agents/skills`` or
``~/.claude/skills``. Plugins go to the family's plugins root when the table has
one, else to the client's own. The lock file is ``skills.lock`` in the client's own
directory of the scope: ``<project>/.satchel/skills.lock`` or
``<config>/satchel/skills.lock``.
"""

from __future__ import annotations

from pathlib import Path

from satchel.core._model import model
from satchel.core.layout import OWN_CLIENT, PROJECT, USER, Layout, RootSpec

__all__ = ["FAMILIES", "SCOPES", "Scope", "scope_for"]

SCOPES = (PROJECT, USER)
FAMILIES = ("satchel", "agents", "claude")
LOCK_FILE = "skills.lock"


@model
class Scope:
    """One scope's install roots and lock file, for one layout."""

    name: str
    layout: Layout

    @property
    def state(self) -> Path:
        """The client's own directory in this scope (it holds the lock file)."""
        if self.name == PROJECT:
            return self.layout.project / f".{self.layout.client}"
        return self.layout.config_home / self.layout.client

    @property
    def lock_path(self) -> Path:
        return self.state / LOCK_FILE

    def skills_dir(self, family: str) -> Path:
        """The skills root of `family` in this scope."""
        return self._root(self.layout.roots, family, "skills")

    def plugins_dir(self, family: str) -> Path:
        """The plugins root of `family` in this scope, else the client's own."""
        try:
            return self._root(self.layout.plugin_roots, family, "plugins")
        except LookupError:
            return self._root(self.layout.plugin_roots, "satchel", "plugins")

    def dir_for(self, kind: str, family: str) -> Path:
        return self.plugins_dir(family) if kind == "plugin" else self.skills_dir(family)

    def _root(self, table: tuple[RootSpec, ...], family: str, kind: str) -> Path:
        wanted = f".{self.layout.client}" if family == OWN_CLIENT else f".{family}"
        for spec in table:
            if spec.scope == self.name and spec.family == wanted:
                return self.layout.resolve((spec,))[0].path
        if family == OWN_CLIENT or kind == "plugins":
            raise LookupError(f"no {self.name} {kind} root for {wanted}")
        base = self.layout.project if self.name == PROJECT else self.layout.home
        return base / wanted / kind


def scope_for(layout: Layout, name: str) -> Scope:
    """The scope called `name` (``project`` or ``user``)."""
    if name not in SCOPES:
        raise ValueError(f"scope must be project or user, not {name!r}")
    return Scope(name, layout)

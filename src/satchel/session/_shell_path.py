"""The PATH a host's shell tool runs with: the enabled plugins' ``bin/`` first.

Claude Code adds each enabled plugin's ``bin/`` to its Bash tool's PATH (CHANGELOG
2.1.91). satchel does so only when loading is not declarative-only and the
environment's one trust decision lets an item of the plugin's scope run, as it does
for its monitors (`Trust.runs`): a user plugin's in a trusted workspace, a project
plugin's when the project runs as well (a program changed since `satchel trust` is not
in its plugin's `bin`), in plugin
precedence order, and leaves out a ``bin/`` holding a link that leads outside its plugin
(`satchel.plugins.components._bin`). Nothing here changes ``os.environ``: the host
gets a value to start its shell with.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from satchel.core.layout import PROJECT
from satchel.plugins.components._bin import bin_dir
from satchel.trust._approval import programs_key

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment

__all__ = ["bin_dirs", "shell_env", "shell_path"]


def bin_dirs(environment: Environment) -> tuple[Path, ...]:
    """The ``bin/`` directories that go on PATH, in plugin precedence order."""
    if not environment.options.executable:
        return ()
    trust = environment.trust
    found = (
        bin_dir(p.root, p.bin)
        for p in environment.plugins.enabled()
        if trust.runs(p.scope == PROJECT, key=programs_key(p.name), workspace=True)
    )
    return tuple(d for d in found if d is not None)


def shell_path(environment: Environment, base: str) -> str:
    """`base` (a PATH value) with the plugins' ``bin/`` directories before it."""
    parts = [str(d) for d in bin_dirs(environment)]
    return os.pathsep.join([*parts, base] if base else parts)


def shell_env(environment: Environment, base: Mapping[str, str]) -> dict[str, str]:
    """A copy of `base` whose ``PATH`` is `shell_path` of its own."""
    env = dict(base)
    env["PATH"] = shell_path(environment, base.get("PATH", ""))
    return env

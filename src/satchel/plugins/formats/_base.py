"""What every format adapter shares: the `adapter` wrapper, plugin names and manifest reading."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic, type_name
from satchel.foundations._contain import (
    contained,
    probe_json,
    str_list,
)
from satchel.plugins._context import (
    Ctx,
    Fatal,
    SkillRule,
    fatal,
)
from satchel.plugins._model import Plugin

__all__ = [
    "Loader",
    "NAME",
    "Result",
    "adapter",
    "check_inside",
    "manifest_object",
    "plugin_name",
    "read_manifest",
    "skills_problem",
]

NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}\Z")


Result = tuple[Plugin | None, list[Diagnostic]]


Loader = Callable[..., Result]


def adapter(read: Callable[[Ctx, str, bool], Plugin]) -> Loader:
    """A format adapter, ``load(root, *, scope, strict, executable, real_root, skill_rule,
    dir_name, as_host)``, from `read(ctx, scope, strict)`, which reads the plugin into
    `ctx` or raises `Fatal`: the plugin and its diagnostics, or None and the diagnostics
    so far with the fatal one last. `real_root` is `root` resolved, when the caller has
    it (so that a plugin root is resolved once). `read`'s docstring is the adapter's."""

    def load(
        root: Path,
        *,
        scope: str = "",
        strict: bool = False,
        executable: bool = True,
        real_root: Path | None = None,
        skill_rule: SkillRule = "claude-code",
        dir_name: str | None = None,
        as_host: bool = False,
    ) -> Result:
        ctx = Ctx.of(
            root, executable=executable, real_root=real_root, skill_rule=skill_rule,
            as_host=as_host,
        )  # fmt: skip
        if dir_name is not None:
            ctx.dir_name = dir_name
        try:
            plugin = read(ctx, scope, strict)
        except Fatal as f:
            return None, [*ctx.diags, f.diagnostic]
        return plugin, ctx.diags

    load.__doc__ = read.__doc__
    return load


def plugin_name(value: Any, dir_name: str, path: Path) -> str:
    """A foreign plugin's name: `value` when given and not empty, else the directory
    name; either must be 1-64 of ``a-z 0-9 - _ .`` starting with a letter or digit
    (so ``<name>:<command>`` can be typed), else `Fatal` ``plugin.manifest.invalid``."""
    name = dir_name if value is None or value == "" else value
    if not isinstance(name, str) or not NAME.match(name):
        origin = "the directory name" if value in (None, "") else "the name"
        shown = repr(name) if isinstance(name, str) else type_name(name)
        raise fatal(
            "plugin.manifest.invalid",
            f"{origin} {shown} cannot name a plugin: 1-64 of a-z, 0-9, '-', '_', '.', "
            "starting with a letter or digit",
            path,
        )
    return name


def skills_problem(key: str, value: Any) -> str | None:
    """What the name, version, description, keywords or skills field of a Codex or
    Kimi manifest must be, when `value` is not that."""
    if key in ("name", "version", "description") and not isinstance(value, str):
        return f"a string, not {type_name(value)}"
    if key == "keywords" and not str_list(value):
        return "an array of strings"
    if key == "skills" and not (isinstance(value, str) or str_list(value)):
        return f"a path or a list of paths, not {type_name(value)}"
    return None


def check_inside(ctx: Ctx, path: Path, label: str) -> None:
    """A manifest resolving outside the root is fatal."""
    if not contained(path, ctx.root):
        raise fatal("plugin.path.outside_root", f"{label} resolves outside the root", path)


def manifest_object(ctx: Ctx, path: Path, label: str) -> dict[str, Any]:
    """The JSON object in the manifest `path` (named `label`), which must resolve
    inside the root; anything else is fatal."""
    check_inside(ctx, path, label)
    value, problem = probe_json(path)
    if problem is not None:
        raise fatal("plugin.manifest.invalid", f"{label}: {problem}", path)
    if not isinstance(value, dict):
        message = f"{label} must hold a JSON object, not {type_name(value)}"
        raise fatal("plugin.manifest.invalid", message, path)
    return value


def read_manifest(
    ctx: Ctx,
    path: Path,
    label: str,
    problem_of: Callable[[str, Any], str | None],
    *,
    optional: bool = False,
) -> dict[str, Any]:
    """A foreign JSON manifest, which must exist (`optional`: else it is {}), resolve
    inside the root and hold an object whose known fields have their types
    (`problem_of(key, value)`)."""
    if not os.path.lexists(path):
        if optional:
            return {}
        raise fatal("plugin.manifest.invalid", f"no {label}", path)
    value = manifest_object(ctx, path, label)
    for key, item in value.items():
        found = problem_of(key, item)
        if found is not None:
            raise fatal("plugin.manifest.invalid", f"`{key}` must be {found}", path)
    return value

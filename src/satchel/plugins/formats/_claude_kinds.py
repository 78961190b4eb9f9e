"""The Claude Code plugin kinds read beside skills, commands, agents, hooks and MCP
servers: output styles, themes, workflows, channels and hooks modules (each read by
its module in `satchel.plugins.components`, which cites its source).

Where each comes from: ``output-styles/`` (``outputStyles`` replaces it), ``themes/``
(``experimental.themes`` replaces it), ``workflows/`` (``workflows`` replaces it),
the manifest's ``channels``, and ``modules`` in the plugin's hooks files. A path
field of the wrong type is fatal, as Claude Code refuses such a plugin ("Invalid
input" on ``outputStyles``, ``workflows``, ``experimental.themes``); a path that does
not exist is reported and the rest loads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import type_name
from satchel.foundations._contain import str_list
from satchel.plugins._context import Ctx, listed_or_default
from satchel.plugins.components import _styles, _themes, _workflows
from satchel.plugins.components._channels import read_channels
from satchel.plugins.components._channels import type_problem as channels_problem
from satchel.plugins.components._modules import read_modules

__all__ = ["read_kinds", "type_problem"]

_PATHS = ("outputStyles", "workflows")


def type_problem(key: str, value: Any) -> str | None:
    """What one of these manifest fields should be, when `value` is not that."""
    if key in _PATHS and not (isinstance(value, str) or str_list(value)):
        return f"a path or a list of paths, not {type_name(value)}"
    if key == "channels":
        return channels_problem(value)
    if key == "experimental" and isinstance(value, dict) and "themes" in value:
        themes = value["themes"]
        if not (isinstance(themes, str) or str_list(themes)):
            return f"an object whose themes is a path or a list of paths, not {type_name(themes)}"
    return None


def read_kinds(
    ctx: Ctx, manifest: Mapping[str, Any], path: Path, hook_files: Sequence[Path]
) -> dict[str, Any]:
    """The `Plugin` fields of these kinds: output_styles, themes, workflows, channels
    and modules."""
    styles = listed_or_default(ctx, manifest, "outputStyles", _styles.DEFAULT_DIR, path)
    experimental = manifest.get("experimental")
    themes_at = experimental if isinstance(experimental, dict) else {}
    themes = listed_or_default(ctx, themes_at, "themes", _themes.DEFAULT_DIR, path)
    workflows = listed_or_default(ctx, manifest, "workflows", _workflows.DEFAULT_DIR, path)
    return {
        "output_styles": ctx.keep(
            _styles.read_output_styles(styles, ctx.root, scope="plugin", plugin=ctx.namespace)
        ),
        "themes": ctx.keep(_themes.read_themes(themes, ctx.root, ctx.namespace)),
        "workflows": ctx.keep(_workflows.read_workflows(workflows, ctx.root, ctx.namespace)),
        "channels": ctx.keep(read_channels(manifest.get("channels"), path, ctx.name)),
        "modules": ctx.keep(read_modules(hook_files, ctx.root, ctx.name)),
    }

"""OpenCode plugins: skills only, from ``.opencode/skills/<name>/SKILL.md`` (Vibe's
compatibility table; the name must equal the directory, as OpenCode checks).

OpenCode's plugins are JS/TS modules. They are found and reported, one
``plugin.compatibility.executable_format_unsupported`` per place, and never run,
imported or even opened: code files under ``.opencode/plugins/`` and
``.opencode/tools/`` (and one level below), a ``package.json`` with the keyword
``opencode`` or ``opencode-plugin``, and the npm plugins an ``opencode.json`` lists
under ``"plugin"``. The plugin is named after its directory (OpenCode has no
manifest name; see `satchel.plugins.formats._base.plugin_name`).
"""

from __future__ import annotations

from satchel.foundations._contain import contained, is_file, probe_json
from satchel.plugins._context import Ctx
from satchel.plugins._detect import code_files, opencode_package
from satchel.plugins._model import Plugin
from satchel.plugins.components._parts import load_skills
from satchel.plugins.formats._base import adapter, plugin_name

__all__ = ["CODE_DIRS", "SKILLS", "load"]

SKILLS = ".opencode/skills"
CODE_DIRS = (".opencode/plugins", ".opencode/tools")
UNSUPPORTED = "plugin.compatibility.executable_format_unsupported"


@adapter
def load(ctx: Ctx, scope: str, strict: bool) -> Plugin:
    """The OpenCode plugin at `root` (its skills), or None and the fatal diagnostic."""
    ctx.name = ctx.namespace = plugin_name(None, ctx.dir_name, ctx.root)
    skills = ctx.fixed(SKILLS)
    found = [] if skills is None else load_skills(ctx, skills, match_dir=True)
    _report_code(ctx)
    return ctx.plugin("opencode", scope, skills=tuple(found))


def _report_code(ctx: Ctx) -> None:
    """One diagnostic per place that holds OpenCode code; nothing is opened."""
    for relative in CODE_DIRS:
        files = code_files(ctx.root / relative, ctx.root)
        if files:
            listed = ", ".join(ctx.rel(f) for f in files[:5]) + (", ..." if len(files) > 5 else "")
            message = f"OpenCode JS/TS plugin code is never run: {listed}"
            ctx.add(UNSUPPORTED, message, ctx.root / relative)
    package = ctx.root / "package.json"
    if opencode_package(package, ctx.root):
        message = "package.json is an OpenCode npm plugin (JS/TS); it is never run"
        ctx.add(UNSUPPORTED, message, package)
    for name in ("opencode.json", "opencode.jsonc"):
        config = ctx.root / name
        if not is_file(config) or not contained(config, ctx.root):
            continue
        value, _ = probe_json(config)
        plugins = value.get("plugin") if isinstance(value, dict) else None
        if isinstance(plugins, list) and plugins:
            shown = ", ".join(repr(p) for p in plugins[:5] if isinstance(p, str))
            message = f"{name} loads OpenCode npm plugins ({shown}); they are never run"
            ctx.add(UNSUPPORTED, message, config)

"""Read one plugin directory, whatever its format: `detect` picks the adapter.

    plugin, diagnostics = read_plugin(Path(".satchel/plugins/deploy-kit"))

Each format has one adapter module exposing ``load(root, *, scope, strict,
executable)``. A fatal problem (Vibe's fatal codes) gives no `Plugin`, and the
diagnostics say why; a non-fatal one drops only the part concerned and is listed in
`Plugin.diagnostics` too. Nothing is executed and nothing outside the plugin root is
read. Bad input never raises.

``executable=False`` is caveman's declarative-only client: hooks, MCP servers and
agents are recognised and not parsed (the `Plugin` holds none), each kind with one
``plugin.hooks.unsupported`` / ``plugin.mcp.unsupported`` /
``plugin.agents.unsupported`` naming where it is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

import satchel.plugins.formats._bundle as bundle
import satchel.plugins.formats._claude as claude
import satchel.plugins.formats._codex as codex
import satchel.plugins.formats._cursor as cursor
import satchel.plugins.formats._gemini as gemini
import satchel.plugins.formats._kimi as kimi
import satchel.plugins.formats._native as native
import satchel.plugins.formats._opencode as opencode
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import is_dir, resolve_root
from satchel.plugins._context import SkillRule
from satchel.plugins._detect import NATIVE_MANIFEST, Detection, detect
from satchel.plugins._model import Format, Plugin
from satchel.plugins.formats._base import Loader

__all__ = ["LOADERS", "MANIFESTS", "Loader", "manifest_file", "read_plugin"]

LOADERS: Mapping[Format, Loader] = MappingProxyType(
    {
        "agent-plugins": native.load,
        "bundle": bundle.load,
        "claude": claude.load,
        "codex": codex.load,
        "cursor": cursor.load,
        "gemini": gemini.load,
        "kimi": kimi.load,
        "opencode": opencode.load,
    }
)

# the manifest files that name a plugin's version, by format (the first found is read)
MANIFESTS: Mapping[Format, tuple[str, ...]] = MappingProxyType(
    {
        "agent-plugins": (NATIVE_MANIFEST,),
        "bundle": (bundle.BUNDLE_MANIFEST,),
        "claude": (claude.MANIFEST,),
        "codex": (codex.MANIFEST,),
        "cursor": (cursor.MANIFEST,),
        "gemini": (gemini.MANIFEST,),
        "kimi": kimi.MANIFESTS,
    }
)


def manifest_file(plugin: Plugin) -> str | None:
    """The plugin's manifest, relative to its root (``.claude-plugin/plugin.json``), or
    None when its format has none or the file is not there."""
    return next(
        (rel for rel in MANIFESTS.get(plugin.format, ()) if os.path.lexists(plugin.root / rel)),
        None,
    )


def read_plugin(
    root: str | os.PathLike[str],
    *,
    scope: str = "",
    strict: bool = False,
    executable: bool = True,
    named: bool = True,
    detection: Detection | None = None,
    skill_rule: SkillRule = "claude-code",
    dir_name: str | None = None,
) -> tuple[Plugin | None, list[Diagnostic]]:
    """The plugin in the directory `root`, or None and the fatal diagnostics.

    `scope` is recorded on the plugin (``project``, ``user``...). `strict` makes an
    unknown field of an Agent Plugins or bundle manifest fatal, as Vibe does.
    `executable` False is declarative-only loading (caveman). `skill_rule`: how a
    plugin skill is named (``claude-code``: a Claude Code plugin's skill by its
    directory; ``vibe``: a skill whose name is not its directory's is skipped, in every
    format). Placeholders such as
    ``${PLUGIN_DATA}`` stay unexpanded until a server or hook is started.
    `named` (True: the caller names `root` as a plugin) lets Claude Code's default
    layout without a manifest be a plugin; `detection` settles a directory holding
    several hosts' manifests (`satchel.plugins._detect.Detection`). `dir_name` is the
    name the directory stands for when its own name is not the plugin's (a Claude Code
    install's version directory) [None: its own name]. A `detection` that names the
    only formats read (a host profile's) reads each as its own host does: a Claude Code
    plugin's hook on an event Claude Code does not fire is skipped
    (``plugin.hooks.invalid``), where satchel's own reading keeps it.
    """
    path = Path(os.path.abspath(root))
    if not is_dir(path):
        message = "the plugin root is not a directory"
        return None, [diagnostic("plugin.manifest.invalid", message, path, severity="error")]
    top = resolve_root(path)  # once: detection and the adapter both start from it
    fmt, found = detect(path, real_root=top, named=named, detection=detection)
    loader = None if fmt is None else LOADERS.get(fmt)
    if loader is None:
        return None, found
    plugin, diags = loader(
        path,
        scope=scope,
        strict=strict,
        executable=executable,
        real_root=top,
        skill_rule=skill_rule,
        dir_name=dir_name,
        as_host=detection is not None and detection.reads is not None,
    )
    return plugin, [*found, *diags]

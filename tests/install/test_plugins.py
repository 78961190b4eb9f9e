"""Plugins in a source: one shipped for several hosts is one plugin (browse shows what
its chosen manifest declares, hooks included; install keeps it whole), a marketplace's
``plugins/<name>/`` without a manifest is a plugin, and a plugin that will not load
all it declares is installed with a warning that names what is left out."""

from __future__ import annotations

import json
from pathlib import Path

import satchel
from satchel.core.layout import Layout
from satchel.install import browse_source, install_from_spec
from satchel.plugins import load_plugins
from tests.plugins.multihost import NAME, multihost_files
from tests.support import skill_md

from .support import bare, git_repo, state

UNUSED = (
    "this directory holds manifests for several hosts; .claude-plugin (Claude Code) is read "
    "and these are not used: .codex-plugin/plugin.json (Codex), .cursor-plugin/plugin.json "
    "(Cursor), gemini-extension.json (Gemini CLI), .kimi-plugin/plugin.json (Kimi Code), "
    ".opencode/plugins (OpenCode)"
)


def _served(tmp_path: Path, files: dict[str, str]) -> tuple[Path, str]:
    repo = git_repo(tmp_path / "work", files)
    return repo, f"file://{bare(repo, tmp_path / 'r.git')}"


def test_browse_shows_a_plugin_for_several_hosts_with_its_hook(layout: Layout, tmp_path: Path):
    _, url = _served(tmp_path, multihost_files())
    listing = browse_source(url, layout=layout, environ={})
    assert listing.skills == ()
    assert [(p.name, p.folder, p.contents, p.ok) for p in listing.plugins] == [
        (NAME, "", "2 skills, 1 hook", True)
    ]
    notes = [(d.code, d.severity, d.message, d.path) for d in listing.diagnostics]
    assert notes == [("plugin.compatibility.manifest_unused", "info", UNUSED, Path("."))]
    again = browse_source(url, layout=layout, environ={})  # from the listing cache
    assert (again.items, again.diagnostics) == (listing.items, listing.diagnostics)


def test_install_keeps_a_plugin_for_several_hosts_whole_and_it_loads(
    layout: Layout, tmp_path: Path
):
    repo, url = _served(tmp_path, multihost_files())
    result = install_from_spec(url, layout=layout, environ={})
    assert [(i.entry.kind, i.entry.name) for i in result.installed] == [("plugin", NAME)]
    assert [d.code for d in result.diagnostics] == ["plugin.compatibility.manifest_unused"]
    target = layout.project / ".satchel" / "plugins" / NAME
    expected = {k: v for k, v in state(repo).items() if not k.startswith(".git")}
    assert state(target) == expected
    plugin = load_plugins(layout).plugins[NAME]
    assert plugin.format == "claude"
    assert [(h.event, h.matcher) for h in plugin.hooks] == [
        ("SessionStart", "startup|clear|compact")
    ]
    env = satchel.load(layout=layout)
    assert {f"{NAME}:brainstorming", f"{NAME}:debugging"} <= set(env.skills)


def _md(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}.\n---\nBody.\n"


def test_a_marketplace_plugin_without_a_manifest_is_one_plugin(layout: Layout, tmp_path: Path):
    files = {
        ".claude-plugin/marketplace.json": json.dumps({"name": "m", "plugins": []}),
        "plugins/helper/commands/ship.md": _md("ship"),
        "plugins/helper/skills/lint/SKILL.md": skill_md("lint"),
        "plugins/helper/hooks/hooks.json": json.dumps(
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}
        ),
        "skills/pdf/SKILL.md": skill_md("pdf"),
    }
    _, url = _served(tmp_path, files)
    listing = browse_source(url, layout=layout, environ={})
    assert [(i.kind, i.name, i.folder, i.contents) for i in listing.items] == [
        ("plugin", "helper", "plugins/helper", "1 skill, 1 command, 1 hook"),
        ("skill", "pdf", "skills/pdf", ""),
    ]
    assert listing.diagnostics == ()


def test_a_source_of_bare_skills_is_not_one_plugin(layout: Layout, tmp_path: Path):
    files = {"skills/pdf/SKILL.md": skill_md("pdf"), "commands/ship.md": _md("ship")}
    _, url = _served(tmp_path, files)
    listing = browse_source(url, layout=layout, environ={})
    assert [(i.kind, i.name) for i in listing.items] == [("skill", "pdf")]


def test_a_plugin_that_will_not_load_all_it_declares_warns(layout: Layout, tmp_path: Path):
    files = {
        # Codex ignores a `hooks` field holding the event map alone
        "plugins/codexy/.codex-plugin/plugin.json": json.dumps(
            {"name": "codexy", "hooks": {"Stop": []}}
        ),
        "plugins/codexy/skills/lint/SKILL.md": skill_md("lint"),
        "plugins/codexy/hooks/hooks.json": json.dumps({"hooks": {}}),
    }
    _, url = _served(tmp_path, files)
    message = (
        "plugin 'codexy' (plugins/codexy) will not load all it declares: "
        "plugin.hooks.invalid: `hooks` must be a path, a list of paths, an object holding a "
        "`hooks` object or a list of them, not an object of events; Codex ignores it and "
        "reads hooks/hooks.json"
    )
    expected = [("install.plugin.partial", "warning", message, Path("plugins/codexy"))]
    listing = browse_source(url, layout=layout, environ={})
    assert [(p.name, p.contents) for p in listing.plugins] == [("codexy", "1 skill")]
    assert [(d.code, d.severity, d.message, d.path) for d in listing.diagnostics] == expected
    result = install_from_spec(url, layout=layout, environ={})
    assert [(d.code, d.severity, d.message, d.path) for d in result.diagnostics] == expected
    assert (layout.project / ".satchel/plugins/codexy/hooks/hooks.json").is_file()


def test_the_browse_command_shows_what_a_plugin_holds_and_the_warning(
    satchel, tmp_path: Path
) -> None:
    _, url = _served(tmp_path, multihost_files())
    code, out, _ = satchel("browse", url)
    assert code == 0
    assert "(2 skills, 1 hook) Workflows for coding." in out
    assert "plugin.compatibility.manifest_unused" in out
    code, out, _ = satchel("browse", url, "--json")
    assert json.loads(out)["plugins"][0]["contents"] == "2 skills, 1 hook"


def test_a_skill_past_the_walk_bounds_is_reported_not_dropped_silently(
    layout: Layout, tmp_path: Path
) -> None:
    deep = "a/b/c/d/e/f/g/deep"
    files = {"skills/pdf/SKILL.md": skill_md("pdf"), f"{deep}/SKILL.md": skill_md("deep")}
    _, url = _served(tmp_path, files)
    listing = browse_source(url, layout=layout, environ={})
    assert [i.name for i in listing.items] == ["pdf"]
    assert [(d.code, d.severity, d.message, d.path) for d in listing.diagnostics] == [
        (
            "discovery.limit",
            "warning",
            "the walk stopped: 1 directory deeper than 6 levels",
            Path("a/b/c/d/e/f"),
        )
    ]

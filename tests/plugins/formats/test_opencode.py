"""OpenCode: skills only; its JS/TS plugins are found, reported and never run. Each code
file is a tripwire: run, imported or required, it writes a canary file."""

from __future__ import annotations

from pathlib import Path

from satchel.plugins import read_plugin
from tests.plugins.helpers import add_skill, audited, write_json
from tests.support import codes, put

UNSUPPORTED = "plugin.compatibility.executable_format_unsupported"


def tripwire(canary: Path) -> str:
    return (
        'import { writeFileSync } from "node:fs";\n'
        f"writeFileSync({str(canary)!r}, 'executed');\n"
        "export const Plugin = async () => ({});\n"
    )


def opencode_tree(root: Path, canary: Path) -> None:
    add_skill(root, ".opencode/skills/brainstorm")
    add_skill(root, ".opencode/skills/renamed", name="other-name")
    put(root, ".opencode/plugins/superpowers.js", tripwire(canary))
    put(root, ".opencode/plugins/nested/helper.ts", tripwire(canary))
    put(root, ".opencode/tools/search.ts", tripwire(canary))
    put(root, "index.mjs", tripwire(canary))
    write_json(
        root,
        "package.json",
        {"name": "opencode-superpowers", "main": "index.mjs", "keywords": ["opencode-plugin"],
         "scripts": {"postinstall": f"node -e \"require('fs').writeFileSync('{canary}','x')\""}},
    )  # fmt: skip
    write_json(root, "opencode.json", {"plugin": ["opencode-helicone-session"], "mcp": {}})


def test_skills_load_and_code_is_reported_never_run(tmp_path: Path, plugin_dir: Path):
    canary = tmp_path / "canary"
    opencode_tree(plugin_dir, canary)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.format == "opencode"
    assert plugin.name == plugin.namespace == "demo"
    assert [s.name for s in plugin.skills] == ["brainstorm"]  # names must match directories
    assert codes(diags).count(UNSUPPORTED) == 4  # plugins/, tools/, package.json, opencode.json
    assert codes(diags).count("plugin.skill.invalid") == 1
    reported = " ".join(d.message for d in diags if d.code == UNSUPPORTED)
    for name in ("superpowers.js", "nested/helper.ts", "search.ts", "package.json",
                 "opencode-helicone-session"):  # fmt: skip
        assert name in reported
    assert (plugin.mcp_servers, plugin.hooks, plugin.commands) == ((), (), ())
    assert not canary.exists()


def test_code_files_are_never_opened_and_nothing_is_spawned(tmp_path: Path, plugin_dir: Path):
    canary = tmp_path / "canary"
    opencode_tree(plugin_dir, canary)
    code = f"from satchel.plugins import read_plugin\nread_plugin({str(plugin_dir)!r})\n"
    events = ("open", "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn",
              "ctypes.dlopen", "import")  # fmt: skip
    seen = audited(code, events)
    opened = [e for e in seen if e.startswith("open:")]
    assert any(e.endswith("brainstorm/SKILL.md") for e in opened)  # the hook does see opens
    assert [e for e in opened if e.endswith((".js", ".ts", ".mjs"))] == []
    assert not any(e.startswith(("subprocess", "os.system", "os.exec", "os.posix")) for e in seen)
    assert not any("superpowers" in e or "helper" in e for e in seen if e.startswith("import"))
    assert not canary.exists()


def test_an_opencode_plugin_with_code_only(tmp_path: Path, plugin_dir: Path):
    put(plugin_dir, ".opencode/plugins/only.js", tripwire(tmp_path / "canary"))
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.skills == ()
    assert codes(diags) == [UNSUPPORTED]
    assert diags[0].severity == "warning"


def test_opencode_skills_linked_outside_the_root_are_not_read(tmp_path: Path, plugin_dir: Path):
    add_skill(tmp_path, "outside/evil")
    (plugin_dir / ".opencode" / "skills").mkdir(parents=True)
    (plugin_dir / ".opencode" / "skills" / "evil").symlink_to(tmp_path / "outside" / "evil")
    add_skill(plugin_dir, ".opencode/skills/good")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and [s.name for s in plugin.skills] == ["good"]
    assert codes(diags) == ["plugin.skill.invalid"]

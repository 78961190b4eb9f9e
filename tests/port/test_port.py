"""What port refuses and what it keeps: files it did not write, paths out of the root,
a source that is not a plugin, names a host refuses, and porting again."""

from __future__ import annotations

import json
import os

import pytest

from satchel.port import RECORD, port, targets_named
from tests.support import codes, put, write_tree

from .plugins import claude_plugin, codex_plugin

HAND_WRITTEN = b'{"name": "release-kit", "skills": "./skills/"}\n'


def test_a_file_port_did_not_write_is_left_byte_for_byte(tmp_path):
    root = claude_plugin(tmp_path / "release-kit")
    manifest = put(root, ".codex-plugin/plugin.json", HAND_WRITTEN)
    report = port(root, ["codex"])
    (codex,) = report.targets
    assert [(f.path, f.action) for f in codex.files] == [(".codex-plugin/plugin.json", "refused")]
    assert manifest.read_bytes() == HAND_WRITTEN
    (problem,) = codex.problems
    assert problem.code == "port.file.exists"
    assert problem.severity == "error"
    assert problem.message == (
        "codex: .codex-plugin/plugin.json exists and port did not write it; it is left as it is"
    )
    assert problem.hint == "pass --force to replace it"
    assert not report.ok


def test_force_replaces_a_file_port_did_not_write(tmp_path):
    root = claude_plugin(tmp_path / "release-kit")
    manifest = put(root, ".codex-plugin/plugin.json", HAND_WRITTEN)
    (codex,) = port(root, ["codex"], force=True).targets
    assert [f.action for f in codex.files] == ["written"]
    assert manifest.read_text() == codex.files[0].text
    assert codex.problems == ()


def test_port_replaces_its_own_files_and_refuses_them_once_edited(tmp_path):
    root = codex_plugin(tmp_path / "lint-suite")
    (first,) = port(root, ["kimi"]).targets
    assert [f.action for f in first.files] == ["written"]
    (again,) = port(root, ["kimi"]).targets
    assert [f.action for f in again.files] == ["unchanged"]
    source = root / ".codex-plugin/plugin.json"
    source.write_text(source.read_text().replace("Linters as", "Linters, as"))
    (changed,) = port(root, ["kimi"]).targets
    assert [f.action for f in changed.files] == ["written"]
    edited = root / "kimi.plugin.json"
    edited.write_text(edited.read_text().replace("lint-suite", "lint-suite-x", 1))
    before = edited.read_bytes()
    (refused,) = port(root, ["kimi"]).targets
    assert [f.action for f in refused.files] == ["refused"]
    assert codes(refused.problems) == ["port.file.exists"]
    assert edited.read_bytes() == before


def test_porting_again_reads_the_source_not_the_manifests_port_wrote(tmp_path):
    root = claude_plugin(tmp_path / "release-kit")
    port(root, ["vibe", "codex"])
    report = port(root, ["vibe", "codex"])
    assert report.format == "claude"
    assert [f.action for t in report.targets for f in t.files] == ["unchanged"] * 4


def test_the_record_names_each_file_port_wrote_with_its_hash(tmp_path):
    root = codex_plugin(tmp_path / "lint-suite")
    port(root, ["vibe"])
    record = json.loads((root / RECORD).read_text())
    assert sorted(record["files"]) == ["mcp.json", "plugin.json"]


def test_dry_run_writes_nothing(tmp_path):
    root = claude_plugin(tmp_path / "release-kit")
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    report = port(root, ["codex", "gemini", "vibe"], dry_run=True)
    assert {f.action for t in report.targets for f in t.files} == {"planned"}
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_path_escaping_the_root_is_refused_even_with_force(tmp_path):
    root = claude_plugin(tmp_path / "release-kit")
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / ".codex-plugin")
    (codex,) = port(root, ["codex"], force=True).targets
    assert [f.action for f in codex.files] == ["refused"]
    (problem,) = codex.problems
    assert problem.code == "port.path.outside_root"
    assert problem.message == (
        "codex: .codex-plugin/plugin.json resolves outside the plugin root; it is not written"
    )
    assert list(outside.iterdir()) == []


def test_a_source_that_is_not_a_plugin_writes_nothing(tmp_path):
    root = tmp_path / "notes"
    put(root, "README.md", "Just notes.\n")
    report = port(root, ["codex"])
    assert report.format is None
    assert report.targets == ()
    assert codes(report.diagnostics) == ["plugin.compatibility.format_unrecognized"]
    assert not report.ok
    assert sorted(p.name for p in root.iterdir()) == ["README.md"]


def test_a_missing_source_is_not_a_plugin(tmp_path):
    report = port(tmp_path / "absent", ["kimi"])
    assert report.format is None
    assert codes(report.diagnostics) == ["plugin.manifest.invalid"]


def test_a_name_the_target_refuses_skips_that_target(tmp_path):
    root = codex_plugin(tmp_path / "lint-suite")
    manifest = root / ".codex-plugin/plugin.json"
    manifest.write_text(manifest.read_text().replace('"lint-suite"', '"lint.suite"'))
    kimi, cursor = port(root, ["kimi", "cursor"]).targets
    assert kimi.skipped and kimi.files == ()
    (problem,) = kimi.problems
    assert problem.code == "port.name.invalid"
    assert problem.message == (
        "kimi: Kimi Code names a plugin [a-z0-9][a-z0-9_-]{0,63}, not 'lint.suite'; "
        "nothing is written"
    )
    assert not cursor.skipped
    assert not (root / "kimi.plugin.json").exists()


def test_gemini_hooks_are_added_to_the_sources_hooks_file_keeping_every_key(tmp_path):
    """Gemini CLI reads only hooks/hooks.json, Claude Code's own file, which Claude Code
    reads too and where it ignores Gemini's event keys: port adds those, and keeps
    every key and value Claude Code's hooks have."""
    root = claude_plugin(tmp_path / "release-kit")
    before = json.loads((root / "hooks/hooks.json").read_text())
    (gemini,) = port(root, ["gemini"]).targets
    assert "port.path.taken" not in {d.diagnostic.code for d in gemini.drops}
    after = json.loads((root / "hooks/hooks.json").read_text())
    assert {k: after["hooks"][k] for k in before["hooks"]} == before["hooks"]
    added = [k for k in after["hooks"] if k not in before["hooks"]]
    assert added == ["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent"]
    # porting again reads Claude Code's hooks only, and writes the same file
    (again,) = port(root, ["gemini"]).targets
    assert {f.path: f.action for f in again.files}["hooks/hooks.json"] == "unchanged"
    assert [d.diagnostic.code for d in again.drops] == [d.diagnostic.code for d in gemini.drops]


def test_a_hooks_file_edited_since_port_added_to_it_is_the_authors(tmp_path):
    root = claude_plugin(tmp_path / "release-kit")
    port(root, ["gemini"])
    edited = (root / "hooks/hooks.json").read_text().replace("echo ready", "echo set")
    (root / "hooks/hooks.json").write_text(edited)
    # its Gemini CLI keys are now the author's: kept, and nothing is added over them
    (gemini,) = port(root, ["gemini"]).targets
    assert "hooks/hooks.json" not in {f.path for f in gemini.files}
    assert (root / "hooks/hooks.json").read_text() == edited
    taken = sorted(d.name for d in gemini.drops if d.diagnostic.code == "port.path.taken")
    assert taken == [
        "after_tool_use", "before_tool_use", "before_tool_use", "stop", "user_prompt_submit"
    ]  # fmt: skip
    said = {d.diagnostic.message for d in gemini.drops if d.diagnostic.code == "port.path.taken"}
    assert (
        "gemini: PreToolUse hook: hooks/hooks.json, one of the plugin's own files, already "
        "has BeforeTool"
    ) in said


def test_gemini_hooks_are_written_in_its_event_names(tmp_path):
    root = write_tree(
        tmp_path / "guard",
        {
            "kimi.plugin.json": json.dumps(
                {
                    "name": "guard",
                    "hooks": [
                        {"event": "PreToolUse", "matcher": "Shell", "command": "./g.sh"},
                        {"event": "Stop", "command": "./s.sh", "timeout": 5},
                        {"event": "TurnStarted", "command": "./t.sh"},
                    ],
                }
            ),
            "SKILL.md": "---\nname: guard\ndescription: Guards.\n---\n",
        },
    )
    (gemini,) = port(root, ["gemini"]).targets
    hooks = json.loads((root / "hooks/hooks.json").read_text())
    assert hooks == {
        "hooks": {
            "BeforeTool": [
                {
                    "matcher": "Shell",
                    "hooks": [{"type": "command", "command": "./g.sh", "timeout": 30000}],
                }
            ],
            "AfterAgent": [{"hooks": [{"type": "command", "command": "./s.sh", "timeout": 5000}]}],
        }
    }
    (dropped,) = [d for d in gemini.drops if d.kind == "hook"]
    assert (dropped.kind, dropped.name, dropped.diagnostic.code) == (
        "hook",
        "turn_started",  # Kimi's TurnStarted, under satchel's name for it
        "port.hook.event",
    )
    assert dropped.diagnostic.message == (
        "gemini: Gemini CLI fires no TurnStarted event; the hook is not written"
    )


def test_vibe_and_agent_plugins_cannot_both_be_written():
    with pytest.raises(ValueError) as both:
        targets_named(["vibe", "agent-plugins"])
    assert str(both.value) == "vibe and agent-plugins both write plugin.json; name one of them"
    with pytest.raises(ValueError) as unknown:
        targets_named(["copilot"])
    assert str(unknown.value) == (
        "unknown target 'copilot'; the targets are claude-code, codex, cursor, gemini, kimi, "
        "vibe, agent-plugins"
    )

"""`audit_change`: only what a new version adds, matched by rule, file and message
(never by line), tool lists compared rule by rule, scripts by path and bytes."""

from __future__ import annotations

import json
from pathlib import Path

from satchel.audit import NewRisk, audit_change, audit_path, delta
from tests.support import put, skill_md, write_tree

MANIFEST = json.dumps({"name": "kit", "version": "1.0.0", "description": "Kit."})


def plugin(root: Path, files: dict[str, str | bytes]) -> Path:
    return write_tree(root, {".claude-plugin/plugin.json": MANIFEST, **files})


def hooks(**events: str) -> str:
    table = {e: [{"hooks": [{"type": "command", "command": c}]}] for e, c in events.items()}
    return json.dumps({"hooks": table})


def shown(risks: tuple[NewRisk, ...]) -> list[tuple[str, str, str, str | None, int | None]]:
    return [(r.what, r.severity, r.message, r.path, r.line) for r in risks]


def test_lines_added_above_a_finding_do_not_make_it_new(tmp_path: Path) -> None:
    old = write_tree(tmp_path / "old", {"SKILL.md": skill_md("s", body="a\u200bb\n")})
    new = write_tree(tmp_path / "new", {"SKILL.md": skill_md("s", body="x\ny\n\na\u200bb\n")})
    assert audit_path(old).findings[0].line != audit_path(new).findings[0].line
    found = audit_change(old, new)
    assert (found.risks, found.gone) == ((), 0)


def test_a_second_hidden_character_of_the_same_kind_is_new(tmp_path: Path) -> None:
    old = write_tree(tmp_path / "old", {"SKILL.md": skill_md("s", body="a\u200bb\n")})
    new = write_tree(tmp_path / "new", {"SKILL.md": skill_md("s", body="a\u200bb\nc\u200bd\n")})
    assert shown(audit_change(old, new).risks) == [
        (
            "new hidden characters",
            "high",
            "invisible or control characters: U+200B at column 2",
            "SKILL.md",
            7,
        )
    ]


def test_a_hook_on_a_new_event_and_a_new_remote_host(tmp_path: Path) -> None:
    remote = {"mcpServers": {"r": {"type": "http", "url": "https://a.example.com/mcp"}}}
    old = plugin(
        tmp_path / "old",
        {"hooks/hooks.json": hooks(Stop="echo done"), ".mcp.json": json.dumps(remote)},
    )
    remote["mcpServers"]["r"]["url"] = "https://b.example.com/mcp"
    new = plugin(
        tmp_path / "new",
        {
            "hooks/hooks.json": hooks(Stop="echo done", PreToolUse="sh check.sh"),
            ".mcp.json": json.dumps(remote),
        },
    )
    found = audit_change(old, new)
    assert shown(found.risks) == [
        (
            "new remote host",
            "medium",
            'MCP server "r" of plugin kit connects to "https://b.example.com/mcp" '
            "(streamable-http)",
            ".mcp.json",
            None,
        ),
        (
            "new hook",
            "medium",
            'plugin:kit hook on PreToolUse runs "sh check.sh"',
            "hooks/hooks.json",
            None,
        ),
    ]
    assert found.gone == 1  # the server's old URL


def test_only_removed_risk_is_no_new_risk(tmp_path: Path) -> None:
    old = plugin(tmp_path / "old", {"hooks/hooks.json": hooks(Stop="a", PreToolUse="b")})
    new = plugin(tmp_path / "new", {"hooks/hooks.json": hooks(Stop="a")})
    found = audit_change(old, new)
    assert (found.risks, found.gone) == ((), 1)
    assert found.to_json() == {
        "new_risk": [],
        "counts": {"high": 0, "medium": 0, "low": 0},
        "gone": 1,
    }


def test_nothing_installed_makes_everything_new(tmp_path: Path) -> None:
    new = plugin(tmp_path / "new", {"hooks/hooks.json": hooks(Stop="a")})
    found = audit_change(tmp_path / "absent", new)
    assert [r.what for r in found.risks] == ["new hook"]


def test_allowed_tools_are_compared_as_rules(tmp_path: Path) -> None:
    def skill(where: str, tools: str | None) -> Path:
        fields = {} if tools is None else {"allowed-tools": tools}
        return write_tree(tmp_path / where, {"SKILL.md": skill_md("s", **fields)})

    narrower = audit_change(skill("a", "Bash(git:*) Read"), skill("b", "Bash(git push:*)"))
    assert narrower.risks == ()
    added = audit_change(skill("c", "Bash(git:*)"), skill("d", "Bash(git:*) WebFetch"))
    assert shown(added.risks) == [
        (
            "allowed-tools broadened",
            "low",
            'skill "s": Bash(git:*) -> Bash(git:*), WebFetch',
            "SKILL.md",
            None,
        )
    ]
    shell = audit_change(skill("e", None), skill("f", "Bash(npm:*)"))
    assert shown(shell.risks) == [
        ("allowed-tools broadened", "medium", 'skill "s": (none) -> Bash(npm:*)', "SKILL.md", None)
    ]


def test_an_agent_types_tool_list_dropped_is_every_tool(tmp_path: Path) -> None:
    listed = "---\nname: runner\ndescription: Runs.\ntools: Read, Grep\n---\n\nRun.\n"
    bare = "---\nname: runner\ndescription: Runs.\n---\n\nRun.\n"
    old = plugin(tmp_path / "old", {"agents/runner.md": listed})
    new = plugin(tmp_path / "new", {"agents/runner.md": bare})
    assert shown(audit_change(old, new).risks) == [
        (
            "agent tools broadened",
            "medium",
            'agent type "kit:runner": Read, Grep -> (every tool)',
            "agents/runner.md",
            None,
        )
    ]
    assert audit_change(new, old).risks == ()  # a list where every tool was: narrower


def test_scripts_added_or_changed_and_binaries_once(tmp_path: Path) -> None:
    old = plugin(tmp_path / "old", {"scripts/a.sh": "echo a\n", "scripts/b.sh": "echo b\n"})
    new = plugin(
        tmp_path / "new",
        {"scripts/a.sh": "echo a\n", "scripts/b.sh": "curl x\n", "bin/tool.so": b"\x7fELF"},
    )
    put(new / "run", "echo run\n", mode=0o755)
    assert shown(audit_change(old, new).risks) == [
        (
            "new executable",
            "medium",
            "bin/tool.so is a compiled or binary executable file",
            "bin/tool.so",
            None,
        ),
        # a bin/ program the new version puts first on the shell's PATH
        (
            "new finding",
            "low",
            "plugin kit puts bin/ programs first on the shell's PATH: tool.so",
            "bin",
            None,
        ),
        ("new script", "low", "run is a new script", "run", None),
        (
            "changed script",
            "low",
            "scripts/b.sh changed since the installed version",
            "scripts/b.sh",
            None,
        ),
    ]


def test_delta_of_reports_alone_compares_findings(tmp_path: Path) -> None:
    old = plugin(tmp_path / "old", {"hooks/hooks.json": hooks(Stop="a")})
    new = plugin(tmp_path / "new", {"hooks/hooks.json": hooks(Stop="b")})
    found = delta(audit_path(old), audit_path(new))
    assert [(r.rule, r.message) for r in found.risks] == [
        ("A-HOOK-PRESENT", 'plugin:kit hook on Stop runs "b"')
    ]

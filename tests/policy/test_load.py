"""`load()` under a policy: each key it enforces, on real files in temp dirs."""

from __future__ import annotations

import json
import os

import satchel
from satchel.session import Session
from tests.hooks.support import hooks_toml, write_hooks
from tests.policy.support import system_policy
from tests.support import put, write_skill

SHELL = "---\nname: ctx\ndescription: Context.\n---\nOne: !`printf one`\n"


def refusals(env: satchel.Environment) -> list[str]:
    return [d.message for d in env.diagnostics if d.code == "policy.denied"]


def test_skills_allow_and_deny_decide_which_skills_load(layout, tmp_path, monkeypatch):
    path = system_policy(
        tmp_path, monkeypatch, '[skills]\nallow = ["team-*"]\ndeny = ["team-old*"]\n'
    )
    root = layout.project / ".agents" / "skills"
    for name in ("team-lint", "team-old-lint", "mine"):
        write_skill(root, name)
    env = satchel.load(layout=layout)
    assert sorted(env.skills) == ["team-lint"]
    assert env.policy.files == (path,)
    assert refusals(env) == [
        f"skill 'mine' is refused by policy key `skills.allow` in {path}",
        f"skill 'team-old-lint' is refused by policy key `skills.deny` in {path}",
    ]


def test_a_disabled_format_keeps_its_plugins_out(layout, tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, 'disabled_formats = ["claude"]\n')
    kit = put(tmp_path / "kit" / ".claude-plugin" / "plugin.json", '{"name": "kit"}').parent.parent
    write_skill(kit / "skills", "kit-skill")
    env = satchel.load(layout=layout, plugin_dirs=[kit])
    assert env.plugins.plugins == {}
    assert "kit:kit-skill" not in env.skills and "kit-skill" not in env.skills
    assert refusals(env) == [
        f"plugin 'kit' (claude) is refused by policy key `disabled_formats` in {path}"
    ]


def test_disabled_components_leave_out_whole_kinds(layout, tmp_path, monkeypatch):
    path = system_policy(
        tmp_path, monkeypatch, 'disabled_components = ["commands", "agents", "skills"]\n'
    )
    write_skill(layout.project / ".agents" / "skills", "one")
    put(layout.project / ".claude" / "commands" / "go.md", "Go.\n")
    put(
        layout.project / ".claude" / "agents" / "helper.md",
        "---\nname: helper\ndescription: Helps.\n---\nHelp.\n",
    )
    env = satchel.load(layout=layout)
    assert (dict(env.skills), dict(env.commands.commands), dict(env.agents.agents)) == ({}, {}, {})
    assert refusals(env) == [
        f"skill 'one' is refused by policy key `disabled_components` in {path}",
        f"every agents component is refused by policy key `disabled_components` in {path}",
        f"every commands component is refused by policy key `disabled_components` in {path}",
    ]


def test_require_trust_ignores_a_hosts_trusted_true(project, home, tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, "require_trust = true\n")
    layout = satchel.Layout.default(project, home=home, env={})  # not on the user's list
    env = satchel.load(layout=layout, trusted=True)
    assert env.trusted is False
    assert refusals(env) == [
        "trusting the project without the list of trusted folders is refused by policy key "
        f"`require_trust` in {path}"
    ]


def test_hook_keys_mark_the_hooks_they_refuse_skipped(layout, tmp_path, monkeypatch):
    path = system_policy(
        tmp_path,
        monkeypatch,
        'allowed_hook_types = ["command", "http"]\n'
        'allowed_http_hook_urls = ["https://hooks.acme.com/*"]\n',
    )
    handlers = [
        {"type": "command", "command": "true"},
        {"type": "http", "url": "https://evil.example/x"},
        {"type": "http", "url": "https://hooks.acme.com/in"},
        {"type": "prompt", "prompt": "Is it fine?"},
    ]
    write_hooks(layout.project, hooks_toml(("pre_tool", None, handlers)))
    env = satchel.load(layout=layout)
    status = [(h.spec.type, h.status) for h in env.hooks.hooks]
    assert status == [
        ("command", "loaded"),
        ("http", "skipped"),
        ("http", "loaded"),
        ("prompt", "skipped"),
    ]
    assert refusals(env) == [
        "http hook 'https://evil.example/x' on pre_tool (project) is refused by policy key "
        f"`allowed_http_hook_urls` in {path}",
        f"prompt hook 'Is it fine?' on pre_tool (project) is refused by policy key "
        f"`allowed_hook_types` in {path}",
    ]
    assert env.hooks.hooks[1].why == refusals(env)[0]


def test_managed_hooks_only_and_all_hooks_off(layout, tmp_path, monkeypatch):
    write_hooks(layout.project, hooks_toml(("pre_tool", None, [{"command": "true"}])))
    path = system_policy(tmp_path, monkeypatch, "allow_managed_hooks_only = true\n")
    env = satchel.load(layout=layout)
    assert [h.status for h in env.hooks.hooks] == ["skipped"]
    assert refusals(env) == [
        "command hook 'true' on pre_tool (project) is refused by policy key "
        f"`allow_managed_hooks_only` in {path}"
    ]
    put(path, "disable_all_hooks = true\n")
    env = satchel.load(layout=layout)
    assert env.hooks.loaded() == ()
    assert refusals(env) == [
        f"command hook 'true' on pre_tool (project) is refused by policy key "
        f"`disable_all_hooks` in {path}"
    ]


def test_mcp_allow_and_deny_decide_which_servers_load(layout, tmp_path, monkeypatch):
    path = system_policy(
        tmp_path, monkeypatch, '[mcp]\nallow = ["command:gh-mcp *", "url:https://*.acme.com/*"]\n'
    )
    put(
        layout.config_home / "satchel" / "config.toml",
        '[mcp_servers.github]\ncommand = "gh-mcp"\nargs = ["--ro"]\n'
        '[mcp_servers.evil]\ncommand = "curl"\nargs = ["evil.example"]\n'
        '[mcp_servers.docs]\nurl = "https://docs.acme.com/mcp"\n',
    )
    env = satchel.load(layout=layout)
    assert [s.name for s in env.mcp_servers.servers] == ["github", "docs"]
    assert refusals(env) == [f"MCP server 'evil' is refused by policy key `mcp.allow` in {path}"]


def test_mcp_deny_keeps_a_skill_server_from_starting(layout, tmp_path, monkeypatch):
    """A refused skill server is never started: its command does not exist, and no
    connection failure is reported, only the refusal."""
    path = system_policy(tmp_path, monkeypatch, '[mcp]\ndeny = ["command:*no-such-server*"]\n')
    missing = str(tmp_path / "no-such-server")
    env = satchel.load(layout=layout, skill_servers={"remote": {"command": missing}})
    assert refusals(env) == [f"MCP server 'remote' is refused by policy key `mcp.deny` in {path}"]
    assert [d.code for d in env.diagnostics if d.code.startswith("mcp.")] == []
    assert not any(name.startswith("remote:") for name in env.skills)


def test_disable_skill_shell_execution_stops_shell_lines(layout, tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, "disable_skill_shell_execution = true\n")
    put(layout.project / ".agents" / "skills" / "ctx" / "SKILL.md", SHELL)
    env = satchel.load(layout=layout)
    session = Session(env, environ={"PATH": os.environ["PATH"]})
    why = f"shell interpolation is refused by policy key `disable_skill_shell_execution` in {path}"
    assert f"One: [satchel: not run, {why}: printf one]\n" in session.expand("/ctx")
    assert [(d.code, d.message) for d in session.diagnostics] == [
        ("exec.interpolation.refused", f"skill 'ctx': {why}: printf one")
    ]


def test_a_hostile_project_cannot_loosen_the_system_policy(layout, tmp_path, monkeypatch):
    """The project (trusted, even) writes its own policy.toml and a config.toml both
    asking for hooks back: the system's policy stands and the attempt is reported."""
    path = system_policy(tmp_path, monkeypatch, "disable_all_hooks = true\n")
    hostile = put(layout.project / ".satchel" / "policy.toml", "disable_all_hooks = false\n")
    put(layout.project / ".satchel" / "config.toml", "[policy]\ndisable_all_hooks = false\n")
    write_hooks(layout.project, hooks_toml(("pre_tool", None, [{"command": "true"}])))
    env = satchel.load(layout=layout)
    assert env.hooks.loaded() == ()
    assert env.policy.files == (path, hostile)
    assert [(d.code, d.message) for d in env.diagnostics if d.code.startswith("policy.")] == [
        (
            "policy.loosen",
            f"policy file {hostile}: `disable_all_hooks` would loosen the policy set by "
            f"{path}; it is ignored",
        ),
        (
            "policy.denied",
            f"command hook 'true' on pre_tool (project) is refused by policy key "
            f"`disable_all_hooks` in {path}",
        ),
    ]


def test_an_unreadable_policy_loads_nothing_executable(layout, tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, "[[broken\n")
    write_hooks(layout.project, hooks_toml(("pre_tool", None, [{"command": "true"}])))
    put(layout.config_home / "satchel" / "config.toml", '[mcp_servers.gh]\ncommand = "gh"\n')
    put(layout.project / ".agents" / "skills" / "ctx" / "SKILL.md", SHELL)
    env = satchel.load(layout=layout)
    assert env.options.executable is False
    assert env.hooks.loaded() == () and env.mcp_servers.servers == ()
    assert "ctx" in env.skills  # what does not run still loads
    invalid = [d for d in env.diagnostics if d.code == "policy.invalid"]
    assert [(d.severity, d.path) for d in invalid] == [("error", path)]
    session = Session(env, environ={"PATH": os.environ["PATH"]})
    assert "One: [satchel: not run, shell interpolation is refused: the policy file" in (
        session.expand("/ctx")
    )
    assert json.dumps(invalid[0].to_json())  # it serialises as every diagnostic does


def test_reload_reads_a_policy_fixed_since_the_closed_load(layout, tmp_path, monkeypatch):
    """A closed policy loads declaratively; once its file parses, a reload runs again."""
    path = system_policy(tmp_path, monkeypatch, "[[broken\n")
    put(layout.config_home / "satchel" / "config.toml", '[mcp_servers.gh]\ncommand = "gh"\n')
    closed = satchel.load(layout=layout)
    assert (closed.options.executable, closed.mcp_servers.servers) == (False, ())
    path.write_text("disable_all_hooks = true\n", encoding="utf-8")
    fresh, _ = closed.reload()
    assert fresh.options.executable is True
    assert [s.name for s in fresh.mcp_servers.servers] == ["gh"]
    assert [d.code for d in fresh.diagnostics if d.code.startswith("policy.")] == []

"""`satchel plugins`, `satchel plugin inspect`, plugin directories in `validate`, and the
doctor's Plugins section: the example's plugin of each format, statuses, exit codes,
secrets kept out, hostile text escaped, and nothing ever run."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema
import pytest

from satchel.core.layout import Layout
from satchel.plugins import read_plugin
from satchel.trust._trust import trust
from tests.support import put, skill_md, write_skill
from tests.support.checkout import CHECKOUT

from .support import EXAMPLE, HOME, WORKSPACE, check_golden

PLUGINS_DIR = "examples/workspace/.satchel/plugins"
USER_PLUGIN = "examples/home/.agents/plugins/snippets"
EXAMPLES = {
    "deploy-kit": "agent-plugins",
    "release-bundle": "bundle",
    "pr-tools": "claude",
    "lint-kit": "codex",
    "meeting-notes": "kimi",
    "style-guide": "opencode",
}
# The stand-in secrets of the example's MCP files: no output may hold one.
SECRETS = (
    "example-deploy-token-not-a-secret",
    "example-status-token-not-a-secret",
    "example-registry-key-not-a-secret",
    "example-calendar-token-not-a-secret",
    "${GITHUB_TOKEN}",
    "eu-west-1",  # deploy-api's DEPLOY_REGION value
)
SCHEMAS = CHECKOUT / "tests" / "plugins" / "formats" / "schemas"
NATIVE = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
MCP = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"


def _json(path: Path, value: object) -> None:
    put(path, json.dumps(value, indent=2))


def _skill(root: Path, name: str, description: str = "Does a useful thing.") -> None:
    write_skill(root, name, skill_md(name, description, "Do.\n", gap=False))


def _native(root: Path, **fields: object) -> Path:
    _json(root / "plugin.json", {"$schema": NATIVE, "name": root.name, **fields})
    return root


# -- the example -------------------------------------------------------------------


def test_example_has_a_plugin_of_each_format(satchel, in_repo):
    doc = satchel("plugins", "--json", *EXAMPLE).json()
    found = {(p["name"], p["format"], p["scope"]) for p in doc["plugins"]}
    expected = {(name, fmt, "project") for name, fmt in EXAMPLES.items()}
    assert found == expected | {("snippets", "agent-plugins", "user")}
    formats = {fmt for _, fmt, _ in found}
    assert formats == {"agent-plugins", "bundle", "claude", "codex", "kimi", "opencode"}
    assert all(p["enabled"] for p in doc["plugins"])


def test_plugins_listing_matches_golden(satchel, in_repo):
    result = satchel("plugins", *EXAMPLE)
    assert (result.code, result.err) == (
        0,
        f"project: {WORKSPACE} (--project)\n"
        "1 diagnostic about plugins; run `satchel doctor --project examples/workspace "
        "--home examples/home --trust` to see them.\n",
    )
    check_golden("plugins.txt", result.out)


def test_plugins_json_is_the_plugin_sets_json(satchel, in_repo):
    result = satchel("plugins", "--json", *EXAMPLE)
    doc = result.json()
    assert result.code == 0
    assert set(doc) == {"version", "project", "plugins", "shadowed", "diagnostics"}
    assert [p["name"] for p in doc["plugins"]] == [*sorted(EXAMPLES), "snippets"]
    deploy = doc["plugins"][0]
    assert deploy["root"] == str(WORKSPACE / ".satchel/plugins/deploy-kit")
    assert deploy["namespace"] == "deploy"
    assert deploy["vibe"] is True
    assert deploy["components"] == {
        "skills": 1,
        "commands": 0,
        "agents": 1,
        "mcp_servers": 2,
        "hooks": 2,
        "knowledge": 1,
        "libraries": 1,
        "connectors": 1,
        "apps": 0,
        "lsp_servers": 0,
        "monitors": 0,
        "bin": 0,
    }
    assert deploy["skills"] == ["deploy:rollout"]
    assert doc["plugins"][-1]["root"] == str(HOME / ".agents/plugins/snippets")
    assert doc["shadowed"] == []
    assert [d["code"] for d in doc["diagnostics"]] == [
        "plugin.compatibility.executable_format_unsupported"
    ]


@pytest.mark.parametrize("name", [*EXAMPLES, "snippets"])
def test_inspect_each_example_plugin_matches_golden(satchel, in_repo, name):
    path = USER_PLUGIN if name == "snippets" else f"{PLUGINS_DIR}/{name}"
    result = satchel("plugin", "inspect", path)
    assert (result.code, result.err) == (0, "")
    check_golden(f"plugin-inspect-{name}.txt", result.out)


def test_inspect_json_is_the_plugin_with_every_diagnostic(satchel, in_repo):
    result = satchel("plugin", "inspect", "--json", f"{PLUGINS_DIR}/deploy-kit")
    doc = result.json()
    assert result.code == 0
    assert doc["loaded"] is True
    plugin, _ = read_plugin(WORKSPACE / ".satchel/plugins/deploy-kit")
    assert plugin is not None
    assert set(doc) == {"loaded", "provides", *plugin.to_json()}
    assert (doc["name"], doc["format"], doc["namespace"]) == (
        "deploy-kit",
        "agent-plugins",
        "deploy",
    )
    assert doc["agents"] == ["deploy:deployer"]
    stdio, remote = doc["mcp_servers"]
    assert (stdio["name"], stdio["transport"], stdio["command"]) == (
        "deploy-api",
        "stdio",
        "./bin/deploy-mcp",
    )
    assert stdio["args"] == [
        "--config",
        "${PLUGIN_ROOT}/deploy.toml",
        "--cache",
        "${PLUGIN_DATA}/cache",
    ]
    assert stdio["env"] == {"DEPLOY_REGION": "***", "DEPLOY_TOKEN": "***"}
    assert (remote["transport"], remote["url"]) == (
        "streamable-http",
        "https://status.example.com/mcp",
    )
    assert remote["headers"] == {"Authorization": "***", "X-Team": "***"}
    assert [(h["event"], h["matcher"], h["command"]) for h in doc["hooks"]] == [
        ("pre_tool", "deploy.deploy_api_rollout", "python3 hooks/guard_production.py"),
        ("post_agent", None, "python3 hooks/summary.py"),
    ]
    assert [k["name"] for k in doc["knowledge"]] == ["runbooks"]
    [library] = doc["libraries"]
    assert (library["language"], library["alias"]) == ("python", "deploy_helpers")
    assert library["path"] == str(WORKSPACE / ".satchel/plugins/deploy-kit/lib/deploy_helpers.py")
    assert doc["connectors"] == [
        {"id": "github", "tools": ["create_deployment", "list_deployments"], "plugin": "deploy-kit"}
    ]
    assert doc["tool_overrides"] == [
        {"key": "rollout_status", "name": "status", "exposure": "direct_and_programmatic"},
        {"key": "list_incidents", "name": None, "exposure": "programmatic"},
    ]
    assert doc["diagnostics"] == []


def test_inspect_json_lists_the_diagnostics_of_a_loaded_plugin(satchel, in_repo):
    doc = satchel("plugin", "inspect", "--json", f"{PLUGINS_DIR}/style-guide").json()
    assert doc["loaded"] is True
    assert [(d["code"], d["severity"]) for d in doc["diagnostics"]] == [
        ("plugin.compatibility.executable_format_unsupported", "warning")
    ]


def test_the_native_example_files_pass_the_official_schemas(in_repo):
    plugin_schema = json.loads((SCHEMAS / "plugin.schema.json").read_text(encoding="utf-8"))
    mcp_schema = json.loads((SCHEMAS / "mcp.schema.json").read_text(encoding="utf-8"))
    for root in (WORKSPACE / ".satchel/plugins/deploy-kit", HOME / ".agents/plugins/snippets"):
        manifest = json.loads((root / "plugin.json").read_text(encoding="utf-8"))
        jsonschema.validate(manifest, plugin_schema)
    mcp = json.loads(
        (WORKSPACE / ".satchel/plugins/deploy-kit/mcp.json").read_text(encoding="utf-8")
    )
    jsonschema.validate(mcp, mcp_schema)


@pytest.mark.parametrize(
    "args",
    [
        ["plugins", *EXAMPLE],
        ["plugins", "--json", *EXAMPLE],
        ["doctor", "--json", *EXAMPLE],
        ["validate", "--json", PLUGINS_DIR],
        *(["plugin", "inspect", f"{PLUGINS_DIR}/{name}"] for name in EXAMPLES),
        *(["plugin", "inspect", "--json", f"{PLUGINS_DIR}/{name}"] for name in EXAMPLES),
    ],
)
def test_env_and_header_values_are_never_printed(satchel, in_repo, args):
    result = satchel(*args)
    for secret in SECRETS:
        assert secret not in result.out
        assert secret not in result.err


def test_inspect_prints_env_and_header_names(satchel, in_repo):
    out = satchel("plugin", "inspect", f"{PLUGINS_DIR}/deploy-kit").out
    assert "env: DEPLOY_REGION, DEPLOY_TOKEN" in out
    assert "headers: Authorization, X-Team" in out
    assert "(env and header values hidden)" in out


def test_a_url_query_is_masked(satchel, tmp_path):
    root = _native(tmp_path / "kit")
    servers = {
        "api": {"type": "streamable-http", "url": "https://api.example.com/mcp?key=s3cr3t"},
    }
    _json(root / "mcp.json", {"$schema": MCP, "mcpServers": servers})
    human = satchel("plugin", "inspect", root)
    doc = satchel("plugin", "inspect", "--json", root).json()
    assert "s3cr3t" not in human.out
    assert "https://api.example.com/mcp?***" in human.out
    assert doc["mcp_servers"][0]["url"] == "https://api.example.com/mcp?***"


def test_extra_server_fields_show_their_names_only(satchel, tmp_path):
    root = tmp_path / "kit"
    _json(root / ".claude-plugin/plugin.json", {"name": "kit"})
    server = {"command": "npx", "oauth": {"clientSecret": "hunter2"}}
    _json(root / ".mcp.json", {"mcpServers": {"api": server}})
    human = satchel("plugin", "inspect", root).out
    doc = satchel("plugin", "inspect", "--json", root).json()
    assert "other fields: oauth" in human
    assert doc["mcp_servers"][0]["extras"] == {"oauth": "***"}
    assert "hunter2" not in human
    assert "hunter2" not in json.dumps(doc)


# -- statuses and the doctor ----------------------------------------------------------


@pytest.fixture
def statuses(project, home):
    """A project plugin shadowing a user one, and a user plugin disabled in config.toml."""
    for root in (project / ".satchel/plugins/kit", home / ".agents/plugins/kit"):
        _native(root, description=f"From {root.parts[-4]}.")
        _skill(root / "skills", "tidy")
    quiet = home / ".config/satchel/plugins/quiet"
    _json(quiet / ".claude-plugin/plugin.json", {"name": "quiet"})
    _skill(quiet / "skills", "hush")
    put(home / ".config/satchel/config.toml", "[plugins.quiet]\nenabled = false\n")
    trust(Layout.default(project, home=home, env={}), project)  # as `satchel trust` records
    return ("--project", project, "--home", home)


def test_plugins_shows_enabled_disabled_and_shadowed(satchel, statuses, project, home):
    result = satchel("plugins", *statuses)
    assert result.code == 0
    rows = [line.split() for line in result.out.splitlines() if line.startswith(("kit", "quiet"))]
    assert [row[:5] for row in rows] == [
        ["kit", "agent-plugins", "kit", "project", "enabled"],
        ["quiet", "claude", "quiet", "user", "disabled"],
        ["kit", "agent-plugins", "kit", "user", "shadowed"],
    ]
    doc = satchel("plugins", "--json", *statuses).json()
    assert [(p["name"], p["enabled"]) for p in doc["plugins"]] == [("kit", True), ("quiet", False)]
    assert doc["shadowed"] == [
        {
            "name": "kit",
            "winner": str(project / ".satchel/plugins/kit"),
            "loser": str(home / ".agents/plugins/kit"),
        }
    ]


def test_doctor_counts_plugins_per_format_and_status(satchel, statuses, project, home):
    doc = satchel("doctor", "--json", *statuses).json()
    assert doc["plugins"] == {
        "loaded": 1,
        "names": ["kit", "quiet"],
        "disabled": ["quiet"],
        "formats": {
            "agent-plugins": {"enabled": 1, "disabled": 0, "shadowed": 1},
            "claude": {"enabled": 0, "disabled": 1, "shadowed": 0},
        },
        "shadowed": [
            {
                "name": "kit",
                "winner": str(project / ".satchel/plugins/kit"),
                "loser": str(home / ".agents/plugins/kit"),
            }
        ],
        "components": {"skills": 1},  # of the enabled plugins
        "installed": [],  # none a host installed for itself
    }
    out = satchel("doctor", *statuses).out
    section = out.split("\nPlugins:")[1].split("\n\n")[0]
    assert section.startswith(" 1 loaded, 1 disabled, 1 shadowed\nkit, quiet\nholding 1 skill\n")
    rows = [line.split() for line in section.splitlines()]
    assert ["agent-plugins", "1", "0", "1"] in rows
    assert ["claude", "0", "1", "0"] in rows
    kept, hidden = (row for row in rows if "kept" in row or "hidden" in row)
    assert kept[:4] == ["kit", "kept", "project", "agent-plugins"]
    assert hidden[:4] == ["kit", "hidden", "user", "agent-plugins"]


def test_doctor_json_for_a_project_without_plugins(satchel, project, home):
    doc = satchel("doctor", "--json", "--project", project, "--home", home).json()
    assert doc["plugins"] == {
        "loaded": 0,
        "names": [],
        "disabled": [],
        "formats": {},
        "shadowed": [],
        "components": {},
        "installed": [],
    }


def test_no_plugins_says_where_satchel_looked(satchel, project, home):
    result = satchel("plugins", "--project", project, "--home", home)
    assert result.code == 0
    assert result.out == ""
    assert result.err.startswith(
        f"project: {project} (--project)\nNo plugins found; satchel looked in "
    )
    assert str(project / ".satchel/plugins") in result.err
    assert str(home / ".agents/plugins") in result.err
    assert satchel("plugins", "--json", "--project", project, "--home", home).json() == {
        "version": 1,
        "project": str(project),
        "plugins": [],
        "shadowed": [],
        "diagnostics": [],
    }


# -- exit codes ----------------------------------------------------------------------


def test_a_fatal_manifest_exits_1_and_says_it_is_not_loaded(satchel, tmp_path):
    root = tmp_path / "broken"
    _json(root / "plugin.json", {"$schema": NATIVE, "name": "Not A Name"})
    result = satchel("plugin", "inspect", root)
    assert result.code == 1
    assert result.out.startswith(f"Not loaded: {root}")
    assert "plugin.manifest.invalid" in result.out
    doc = satchel("plugin", "inspect", "--json", root).json()
    assert (doc["loaded"], doc["root"]) == (False, str(root))
    assert [(d["code"], d["severity"]) for d in doc["diagnostics"]] == [
        ("plugin.manifest.invalid", "error")
    ]


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        (lambda root: root.mkdir(), "plugin.compatibility.format_unrecognized"),
        (lambda root: None, "plugin.manifest.invalid"),  # no such directory
        (
            lambda root: _json(root / "plugin.json", {"$schema": NATIVE.replace("1.0.0", "2.0.0")}),
            "plugin.schema.version_unsupported",
        ),
        (
            lambda root: _json(root / "gemini-extension.json", {"name": "x"}),
            "plugin.manifest.invalid",  # Gemini CLI needs a version too
        ),
    ],
    ids=["no-manifest", "missing", "version", "gemini-without-version"],
)
def test_every_fatal_problem_exits_1(satchel, tmp_path, setup, code):
    root = tmp_path / "kit"
    setup(root)
    result = satchel("plugin", "inspect", "--json", root)
    assert result.code == 1
    assert [d["code"] for d in result.json()["diagnostics"]] == [code]


def test_an_error_that_is_not_fatal_exits_1_with_the_plugin_shown(satchel, tmp_path):
    root = tmp_path / "kit"
    put(root / "plugin.toml", 'name = "kit"\nprompts = ["Bad_Name.md"]\n')
    put(root / "Bad_Name.md", "Do it.\n")
    result = satchel("plugin", "inspect", "--json", root)
    assert result.code == 1
    doc = result.json()
    assert doc["loaded"] is True
    assert [(d["code"], d["severity"]) for d in doc["diagnostics"]] == [
        ("command.name.invalid", "error")
    ]


def test_strict_makes_an_unknown_manifest_field_fatal(satchel, tmp_path):
    root = _native(tmp_path / "kit", owner="me")
    loose = satchel("plugin", "inspect", "--json", root)
    assert loose.code == 0
    assert [d["code"] for d in loose.json()["diagnostics"]] == ["plugin.manifest.field.unknown"]
    strict = satchel("plugin", "inspect", "--strict", "--json", root)
    assert strict.code == 1
    assert strict.json()["loaded"] is False


def test_declarative_loads_no_hooks_servers_or_agents(satchel, in_repo):
    path = f"{PLUGINS_DIR}/deploy-kit"
    result = satchel("plugin", "inspect", "--declarative", "--json", path)
    doc = result.json()
    assert result.code == 0
    assert (doc["mcp_servers"], doc["hooks"], doc["agents"]) == ([], [], [])
    assert doc["skills"] == ["deploy:rollout"]
    assert [d["code"] for d in doc["diagnostics"]] == [
        "plugin.mcp.unsupported",
        "plugin.hooks.unsupported",
        "plugin.agents.unsupported",
    ]
    out = satchel("plugin", "inspect", "--declarative", path).out
    assert "MCP servers:" not in out
    assert "plugin.hooks.unsupported" in out


# -- validate --------------------------------------------------------------------------


def test_validate_checks_plugin_directories(satchel, in_repo, tmp_path):
    broken = tmp_path / "broken"
    _json(broken / "plugin.json", {"$schema": NATIVE, "name": "Not A Name"})
    result = satchel("validate", PLUGINS_DIR, USER_PLUGIN, "examples/workspace/.satchel/skills")
    assert result.code == 0
    check_golden("validate-plugins.txt", result.out)
    failed = satchel("validate", "--json", f"{PLUGINS_DIR}/pr-tools", broken)
    assert failed.code == 1
    assert [
        (Path(c["path"]).name, c["name"], c["ok"], c["kind"], c["format"])
        for c in failed.json()["checked"]
    ] == [
        ("pr-tools", "pr-tools", True, "plugin", "claude"),
        ("broken", None, False, "plugin", None),
    ]
    assert failed.json()["checked"][1]["diagnostics"][0]["code"] == "plugin.manifest.invalid"
    human = satchel("validate", broken).out
    assert human.startswith(f"fail  {broken}\n")
    assert human.splitlines()[-1] == "1 plugin checked: 0 ok, 1 failed"


def test_validate_keeps_skill_directories_skills(satchel, tmp_path):
    skill = tmp_path / "skills" / "tidy"
    _skill(tmp_path / "skills", "tidy")
    _json(skill / "plugin.json", {"name": "not-a-plugin"})  # beside a SKILL.md: still a skill
    doc = satchel("validate", "--json", skill).json()["checked"]
    assert [(c["kind"], c["name"], c["ok"]) for c in doc] == [("skill", "tidy", True)]
    doc = satchel("validate", "--json", tmp_path / "skills").json()["checked"]
    assert [(c["kind"], c["name"]) for c in doc] == [("skill", "tidy")]


def test_validate_strict_applies_to_plugins(satchel, tmp_path):
    root = _native(tmp_path / "kit", owner="me")
    assert satchel("validate", root).code == 0
    assert satchel("validate", "--strict", root).code == 1


# -- hostile text and nothing run -----------------------------------------------------

HOSTILE = "Clears \x1b[2J the screen, \u202e flips text, [bold]loud[/bold] :smile:"


def test_hostile_plugin_text_prints_escaped_and_literal(satchel, project, home):
    root = project / ".satchel/plugins/evil"
    _native(root, description=HOSTILE)
    _skill(root / "skills", "tidy", description='"Tidy \\e[31m up [red]now[/red]."')
    server = {"type": "stdio", "command": "evil", "args": ["--x\x1b[2J"], "env": {"A\u202eB": "v"}}
    _json(root / "mcp.json", {"$schema": MCP, "mcpServers": {"srv[bold]x[/bold]": server}})
    where = ("--project", project, "--home", home)
    outputs = [
        satchel("plugin", "inspect", root).out,
        satchel("plugins", *where).out,
        satchel("doctor", *where).out,
        satchel("validate", root).out,
    ]
    for out in outputs:
        assert "\x1b" not in out
        assert "\u202e" not in out
        assert "\x07" not in out
    inspect = outputs[0]
    assert "Clears \\x1b[2J the screen, \\u202e flips text, [bold]loud[/bold] :smile:" in inspect
    assert "[red]now[/red]" in inspect
    servers = inspect.split("MCP servers:")[1]
    assert "srv[bold]x[/bold]" in servers
    assert "--x\\x1b[2J" in servers
    assert "env: A\\u202eB" in servers
    raw = satchel("plugin", "inspect", "--json", root).out
    assert raw.isascii()
    assert json.loads(raw)["description"] == HOSTILE


@pytest.fixture
def no_process(monkeypatch):
    """Any attempt to start a process fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"a process was started: {args!r}")

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
    for name in ("system", "posix_spawn", "posix_spawnp", "execv", "execve", "execvp", "fork"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse)


def test_inspecting_and_listing_plugins_runs_nothing(satchel, project, home, tmp_path, no_process):
    canary = tmp_path / "canary"
    touch = f"touch {canary}"
    plugins = project / ".satchel/plugins"
    claude = plugins / "hooked"
    _json(claude / ".claude-plugin/plugin.json", {"name": "hooked"})
    hook = {"type": "command", "command": touch}
    groups = [{"matcher": "*", "hooks": [hook]}]
    _json(claude / "hooks/hooks.json", {"hooks": {"SessionStart": groups, "PreToolUse": groups}})
    server = {"command": "sh", "args": ["-c", touch]}
    _json(claude / ".mcp.json", {"mcpServers": {"boom": server}})
    opencode = plugins / "sneaky"
    _skill(opencode / ".opencode/skills", "tidy")
    js = f'import {{ writeFileSync }} from "node:fs";\nwriteFileSync("{canary}", "ran");\n'
    put(opencode / ".opencode/plugins/boom.js", js)
    _json(opencode / "package.json", {"name": "sneaky", "keywords": ["opencode"], "main": "x.js"})
    vibe = _native(plugins / "vibey", extensions={"ai.mistral.vibe": {"schemaVersion": 1}})
    put(
        vibe / "ai.mistral.vibe/hooks.toml",
        f'[[hooks]]\nname = "boom"\ntype = "pre_tool"\ncommand = "{touch}"\n',
    )
    where = ("--project", project, "--home", home)
    results = [
        *(satchel("plugin", "inspect", p) for p in (claude, opencode, vibe)),
        *(satchel("plugin", "inspect", "--json", p) for p in (claude, opencode, vibe)),
        satchel("plugins", *where),
        satchel("plugins", "--json", *where),
        satchel("doctor", *where),
        satchel("validate", plugins),
        satchel("list", *where),
    ]
    assert not canary.exists()
    assert all(r.code in (0, 1) for r in results)
    assert touch in results[0].out  # the hook is shown, not run
    assert "plugin.compatibility.executable_format_unsupported" in results[1].out
    assert [h["command"] for h in results[5].json()["hooks"]] == [touch]


def _defaults_tree(root: Path) -> None:
    """A Claude Code plugin off by default, with default settings in both places."""
    manifest = {"name": "kit", "defaultEnabled": False, "settings": {"theme": "dark"}}
    put(root, ".claude-plugin/plugin.json", json.dumps(manifest))
    put(root, "agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\nR.\n")
    put(root, "settings.json", json.dumps({"agent": "reviewer"}))


def _apps_tree(root: Path) -> None:
    """A Codex plugin with the apps of openai/plugins' codex-security (its .app.json)."""
    put(root, ".codex-plugin/plugin.json", json.dumps({"name": "sec", "apps": "./.app.json"}))
    apps = {
        "linear": {"id": "asdk_app_69a089a326dc8191b32a3f2553f5be2c"},
        "atlassian": {"id": "connector_692de805e3ec8191834719067174a384",
                      "capabilities": ["read", "write"]},
    }  # fmt: skip
    put(root, ".app.json", json.dumps({"apps": apps}))


@pytest.mark.parametrize("name", ["defaults", "apps"])
def test_inspect_shows_default_settings_and_codex_apps(satchel, tmp_path, monkeypatch, name):
    (_defaults_tree if name == "defaults" else _apps_tree)(tmp_path / "plugin")
    monkeypatch.chdir(tmp_path)
    result = satchel("plugin", "inspect", "plugin")
    assert (result.code, result.err) == (0, "")
    check_golden(f"plugin-inspect-{name}.txt", result.out)

"""Gemini CLI extensions (gemini-extension.json): a realistic extension, modelled on the
examples google-gemini/gemini-cli ships (packages/cli/src/commands/extensions/examples:
custom-commands, hooks, mcp-server, skills), read part by part and against golden
files; bad inputs; TOML commands standalone; Gemini's hook events and answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satchel import load
from satchel.cli import main
from satchel.core.layout import Layout, RootSpec
from satchel.foundations.origin import Origin
from satchel.foundations.process import ProcessResult
from satchel.hooks._events import canonical, host_name
from satchel.hooks._matchers import ALL
from satchel.hooks._model import Hook
from satchel.hooks._spec import HookSpec
from satchel.kinds.commands import load_commands
from satchel.kinds.commands._toml import injections
from satchel.plugins import read_plugin
from satchel.runtime.hooks._output import read_result
from tests.support import check_golden, codes, put, skill_md, write_tree

GREP_CODE = '''\
prompt = """
Please summarize the findings for the pattern `{{args}}`.

Search Results:
!{grep -r {{args}} .}
"""
'''
MANIFEST: dict[str, Any] = {
    "name": "code-tools",
    "version": "1.2.0",
    "description": "Search, commit and review helpers.",
    "contextFileName": "GEMINI.md",
    "excludeTools": ["run_shell_command(rm -rf)"],
    "settings": [
        {"name": "API Key", "description": "The service key.", "envVar": "CODE_TOOLS_KEY"}
    ],
    "mcpServers": {
        "nodeServer": {
            "command": "node",
            "args": ["${extensionPath}${/}example.js"],
            "cwd": "${extensionPath}",
            "trust": True,
            "timeout": 30000,
        },
        "docs": {"httpUrl": "https://docs.example.com/mcp", "headers": {"X-Team": "core"}},
    },
}
HOOKS = {
    "hooks": {
        "SessionStart": [
            {"hooks": [{"type": "command", "command": "node ${extensionPath}/scripts/on-start.js"}]}
        ],
        "BeforeTool": [
            {
                "matcher": "run_shell_command",
                "sequential": True,
                "hooks": [
                    {
                        "type": "command",
                        "name": "guard",
                        "command": "${extensionPath}${/}scripts${/}guard.sh",
                        "timeout": 5000,
                    }
                ],
            }
        ],
        "BeforeModel": [{"hooks": [{"type": "command", "command": "echo {}"}]}],
    }
}
COMMAND = {"type": "command", "command": "x"}
TERMINAL = ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES", "TTY_COMPATIBLE",
            "TTY_INTERACTIVE", "JUPYTER_COLUMNS", "XDG_CONFIG_HOME")  # fmt: skip


def extension(root: Path, **fields: Any) -> Path:
    """The realistic extension at `root`, its manifest changed by `fields` (None drops one)."""
    manifest = {k: v for k, v in {**MANIFEST, **fields}.items() if v is not None}
    return write_tree(
        root,
        {
            "gemini-extension.json": json.dumps(manifest, indent=2),
            "GEMINI.md": "# Code tools\n\nUse /fs:grep-code to search.\n",
            "example.js": "// the MCP server\n",
            "commands/fs/grep-code.toml": GREP_CODE,
            "commands/git/commit.toml": (
                'description = "Write a commit message"\n'
                'prompt = "Write a commit message for the staged changes."\n'
            ),
            "skills/greeter/SKILL.md": skill_md(
                "greeter", "Greets the user warmly. Use when asked to say hello."
            ),
            "agents/reviewer.md": skill_md("reviewer", "Reviews diffs for bugs."),
            "agents/_draft.md": skill_md("draft", "Not an agent yet."),
            "hooks/hooks.json": json.dumps(HOOKS),
            "scripts/on-start.js": "// hook\n",
        },
    )


@pytest.fixture
def ext(tmp_path: Path) -> Path:
    return extension(tmp_path / "code-tools")


def messages(diags: Any) -> list[tuple[str, str, str]]:
    return [(d.code, d.severity, d.message) for d in diags]


def test_a_realistic_extension_loads_every_part(ext: Path):
    plugin, diags = read_plugin(ext)
    assert plugin is not None
    assert (plugin.format, plugin.name, plugin.namespace, plugin.version) == (
        "gemini",
        "code-tools",
        "code-tools",
        "1.2.0",
    )
    assert [plugin.qualified(s.name) for s in plugin.skills] == ["code-tools:greeter"]
    assert [c.name for c in plugin.commands] == ["code-tools:fs:grep-code", "code-tools:git:commit"]
    assert [c.description for c in plugin.commands] == [
        "Custom command from grep-code.toml",
        "Write a commit message",
    ]
    assert [a.name for a in plugin.agents] == ["code-tools:reviewer"]
    assert plugin.instructions == ext.resolve() / "GEMINI.md"
    assert dict(plugin.manifest)["excludeTools"] == ["run_shell_command(rm -rf)"]
    assert messages(diags) == [
        (
            "command.injection.unsupported",
            "info",
            "the prompt holds Gemini CLI's !{...}; satchel runs and reads nothing for a "
            "command, so it reaches the model as written",
        ),
        (
            "plugin.manifest.field.unapplied",
            "info",
            "`excludeTools`, `settings`: kept in the manifest, not applied by satchel",
        ),
    ]


def test_mcp_servers_take_gemini_transports_and_variables(ext: Path):
    plugin, _ = read_plugin(ext)
    assert plugin is not None
    node, docs = plugin.mcp_servers
    assert (node.name, node.transport, node.command, node.args, node.cwd) == (
        "nodeServer",
        "stdio",
        "node",
        ("${PLUGIN_ROOT}/example.js",),
        "${PLUGIN_ROOT}",
    )
    assert dict(node.extras) == {"timeout": 30000}  # trust is dropped, as Gemini CLI drops it
    assert (docs.transport, docs.url, dict(docs.headers)) == (
        "streamable-http",
        "https://docs.example.com/mcp",
        {"X-Team": "core"},
    )


@pytest.mark.parametrize(
    ("entry", "transport"),
    [
        ({"url": "https://x.example.com/sse", "type": "sse"}, "sse"),
        ({"url": "https://x.example.com/mcp", "type": "http"}, "streamable-http"),
        ({"url": "https://x.example.com/mcp"}, "streamable-http"),
        ({"httpUrl": "https://x.example.com/mcp", "url": "https://x.example.com/sse"}, None),
        ({"url": "https://x.example.com/mcp", "command": "node"}, "streamable-http"),
    ],
    ids=["url-sse", "url-http", "url-alone", "httpUrl-wins", "url-before-command"],
)
def test_the_transport_is_chosen_as_gemini_cli_chooses_it(
    tmp_path: Path, entry: dict[str, str], transport: str | None
):
    root = extension(tmp_path / "x", mcpServers={"s": entry})
    plugin, _ = read_plugin(root)
    assert plugin is not None
    (server,) = plugin.mcp_servers
    if transport is None:  # httpUrl: streamable HTTP at that URL
        assert (server.transport, server.url) == ("streamable-http", "https://x.example.com/mcp")
    else:
        assert (server.transport, server.url) == (transport, entry["url"])


def test_hooks_map_gemini_events_and_milliseconds(ext: Path):
    plugin, _ = read_plugin(ext)
    assert plugin is not None
    assert [(h.event, h.command, h.matcher, h.timeout, h.name) for h in plugin.hooks] == [
        ("SessionStart", "node ${PLUGIN_ROOT}/scripts/on-start.js", None, 60.0, None),
        ("BeforeTool", "${PLUGIN_ROOT}/scripts/guard.sh", "run_shell_command", 5.0, "guard"),
        ("BeforeModel", "echo {}", None, 60.0, None),
    ]
    assert {h.format for h in plugin.hooks} == {"gemini"}
    assert dict(plugin.hooks[1].extras) == {"sequential": True}


@pytest.mark.parametrize(
    ("gemini", "satchel"),
    [
        ("SessionStart", "session_start"),
        ("BeforeAgent", "user_prompt_submit"),
        ("BeforeTool", "before_tool_use"),
        ("AfterTool", "after_tool_use"),
        ("AfterAgent", "stop"),
        ("PreCompress", "pre_compact"),
        ("Notification", "notification"),
        ("SessionEnd", "session_end"),
    ],
)
def test_gemini_events_have_satchel_names_and_back(gemini: str, satchel: str):
    assert canonical(gemini, "gemini") == satchel
    assert host_name(satchel, "gemini") == gemini


@pytest.mark.parametrize("event", ["BeforeModel", "AfterModel", "BeforeToolSelection"])
def test_gemini_only_events_keep_their_names(event: str):
    assert canonical(event, "gemini") is None
    assert host_name(event, "gemini") == event


def test_the_environment_runs_the_hooks_under_satchel_events(ext: Path, tmp_path: Path):
    layout = Layout.default(tmp_path, home=tmp_path / "home", project=tmp_path)
    env = load(layout=layout, plugin_dirs=[ext], trusted=True)
    assert [(h.event, h.spec.event) for h in env.hooks.loaded()] == [
        ("session_start", "SessionStart"),
        ("before_tool_use", "BeforeTool"),
        ("BeforeModel", "BeforeModel"),
    ]


@pytest.mark.parametrize(
    ("answer", "decision", "reason", "context"),
    [
        ({"decision": "deny", "reason": "no"}, "deny", "no", None),
        ({"decision": "block", "reason": "no"}, "deny", "no", None),
        ({"decision": "allow"}, "allow", None, None),
        ({"decision": "ask"}, "ask", None, None),
        ({"hookSpecificOutput": {"additionalContext": "note"}}, None, None, "note"),
    ],
)
def test_a_gemini_hook_answers_in_gemini_cli_words(
    answer: dict[str, Any], decision: str | None, reason: str | None, context: str | None
):
    hook = Hook(HookSpec("BeforeTool", "true", "gemini"), "before_tool_use", Origin("plugin"), ALL)
    result = read_result(
        hook, "before_tool_use", ProcessResult(("true",), 0, json.dumps(answer), "")
    )
    assert (result.decision, result.reason, result.additional_context) == (
        decision,
        reason,
        context,
    )


def test_commands_expand_with_gemini_arguments(ext: Path):
    plugin, _ = read_plugin(ext)
    assert plugin is not None
    grep, commit = plugin.commands
    assert grep.expand("TODO") == (
        "Please summarize the findings for the pattern `TODO`.\n\n"
        "Search Results:\n!{grep -r TODO .}\n"
    )
    assert commit.expand("") == "Write a commit message for the staged changes."
    assert commit.expand("  only the docs ") == (
        "Write a commit message for the staged changes.\n\n/git:commit only the docs"
    )
    # one pass: arguments that hold the placeholder are not expanded again
    assert commit.body() == "Write a commit message for the staged changes."
    assert grep.expand("{{args}}").count("{{args}}") == 2


def test_expand_reaches_a_bare_gemini_command_name(ext: Path, tmp_path: Path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    where = ("--project", tmp_path, "--home", tmp_path / "home", "--plugin-dir", ext)
    code = main([str(a) for a in ("expand", *where, "/git:commit now")])
    out = capsys.readouterr().out
    assert code == 0
    assert out == (
        '<agent-plugin-command name="code-tools:git:commit">\n'
        "Write a commit message for the staged changes.\n\n/git:commit now\n"
        "</agent-plugin-command>\n"
    )


def test_inspect_matches_golden(ext: Path, monkeypatch, capsys):
    for name in TERMINAL:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(ext.parent)
    assert main(["plugin", "inspect", "code-tools"]) == 0
    check_golden("plugins/gemini-inspect.txt", capsys.readouterr().out)
    assert main(["plugin", "inspect", "--json", "code-tools"]) == 0
    text = capsys.readouterr().out.replace(str(ext.resolve()), "<root>")
    check_golden("plugins/gemini-inspect.json", text)


# -- bad inputs ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "code", "message"),
    [
        (
            {"name": None},
            "plugin.manifest.invalid",
            "`name` is required (Gemini CLI refuses an extension without it)",
        ),
        (
            {"version": None},
            "plugin.manifest.invalid",
            "`version` is required (Gemini CLI refuses an extension without it)",
        ),
        (
            {"name": "code_tools"},
            "plugin.manifest.invalid",
            "the name 'code_tools' cannot name an extension: 1-64 letters (a-z, A-Z), "
            "digits and '-', as Gemini CLI allows",
        ),
        (
            {"mcpServers": []},
            "plugin.manifest.invalid",
            "`mcpServers` must be an object of servers, not a list",
        ),
        (
            {"contextFileName": 3},
            "plugin.manifest.invalid",
            "`contextFileName` must be a file name or a list of them, not a number",
        ),
        (
            {"excludeTools": "run_shell_command"},
            "plugin.manifest.invalid",
            "`excludeTools` must be an array of tool names",
        ),
        (
            {"contextFileName": ["GEMINI.md", "../notes.md"]},
            "plugin.path.outside_root",
            "contextFileName '../notes.md' is outside the extension directory "
            "(Gemini CLI refuses the extension)",
        ),
    ],
    ids=[
        "no-name",
        "no-version",
        "bad-name",
        "servers-list",
        "context-number",
        "exclude-string",
        "context-outside",
    ],
)
def test_a_bad_manifest_is_fatal(tmp_path: Path, fields: dict[str, Any], code: str, message: str):
    plugin, diags = read_plugin(extension(tmp_path / "x", **fields))
    assert plugin is None
    assert (diags[-1].code, diags[-1].severity, diags[-1].message) == (code, "error", message)


def test_a_name_with_capitals_loads_and_need_not_match_the_directory(tmp_path: Path):
    plugin, _ = read_plugin(extension(tmp_path / "elsewhere", name="Code-Tools"))
    assert plugin is not None and plugin.name == "Code-Tools"


def test_a_skill_with_no_name_is_not_loaded_as_gemini_cli_lists_none(tmp_path: Path):
    """Gemini CLI 0.61.0 lists no extension skill whose SKILL.md has no ``name:``
    (judged by tests/port/test_examples_round_trip.py): no folder's name stands in."""
    root = extension(tmp_path / "x")
    put(root / "skills/nameless/SKILL.md", skill_md(None, "Has no name."))
    plugin, diags = read_plugin(root)
    assert plugin is not None
    assert [s.name for s in plugin.skills] == ["greeter"]
    where = root / "skills/nameless/SKILL.md"
    said = [(d.code, d.severity, d.message) for d in diags if d.path == where]
    no_name = "no name: field, and this host names no skill by its folder"
    assert said == [
        ("skill.name.missing", "error", no_name),
        ("plugin.skill.invalid", "warning", f"the skill is skipped: {no_name}"),
    ]


def test_a_name_breaking_the_skill_rule_is_kept_as_gemini_cli_writes_it(tmp_path: Path):
    """Gemini CLI 0.61.0 lists ``Extract Learnings`` as written, each of its
    reserved characters made a hyphen."""
    root = extension(tmp_path / "x")
    put(root / "skills/extract_learnings/SKILL.md", skill_md("Extract Learnings", "Learns."))
    put(root / "skills/slashed/SKILL.md", skill_md("a/b", "Slashed."))
    plugin, diags = read_plugin(root)
    assert plugin is not None
    assert sorted(s.name for s in plugin.skills) == ["Extract Learnings", "a-b", "greeter"]
    kept = "the name 'Extract Learnings' must be lowercase; this host keeps it"
    assert ("skill.name.invalid", "warning", kept) in messages(diags)
    assert "plugin.skill.invalid" not in codes(diags)


def test_an_unknown_field_is_reported_and_kept(tmp_path: Path):
    plugin, diags = read_plugin(extension(tmp_path / "x", contributes={"x": 1}))
    assert plugin is not None
    unknown = "`contributes` is not a gemini-extension.json field; it is ignored"
    assert ("plugin.manifest.field.unknown", "warning", unknown) in messages(diags)
    assert dict(plugin.manifest)["contributes"] == {"x": 1}


def test_context_file_defaults_to_gemini_md_and_may_be_missing(tmp_path: Path):
    root = extension(tmp_path / "x", contextFileName=None)
    plugin, _ = read_plugin(root)
    assert plugin is not None and plugin.instructions == root.resolve() / "GEMINI.md"
    (root / "GEMINI.md").unlink()
    plugin, _ = read_plugin(root)
    assert plugin is not None and plugin.instructions is None


@pytest.mark.parametrize(
    ("entry", "code", "message"),
    [
        (
            {"command": "node", "cwd": "${extensionPath}/../.."},
            "plugin.path.outside_root",
            "MCP server 's': cwd '${PLUGIN_ROOT}/../..' leaves the plugin root; "
            "the entry is skipped",
        ),
        (
            {"tcp": "localhost:9000"},
            "plugin.mcp.transport_unsupported",
            "MCP server 's': transport 'websocket' is not supported (satchel starts stdio, "
            "streamable-http and sse servers); the entry is skipped",
        ),
        (
            {"command": "node", "env": {"NODE_OPTIONS": "--require x"}},
            "plugin.mcp.invalid",
            "MCP server 's': env sets NODE_OPTIONS, which is refused: it can make the server "
            "process run code its command does not name; the entry is skipped",
        ),
    ],
    ids=["cwd-escapes", "websocket", "injecting-env"],
)
def test_a_bad_server_is_dropped_alone(
    tmp_path: Path, entry: dict[str, Any], code: str, message: str
):
    servers = {"s": entry, "ok": {"command": "node"}}
    plugin, diags = read_plugin(extension(tmp_path / "x", mcpServers=servers))
    assert plugin is not None
    assert [s.name for s in plugin.mcp_servers] == ["ok"]
    assert (code, "warning", message) in messages(diags)


def test_a_workspace_path_in_a_server_is_kept_and_reported(tmp_path: Path):
    servers = {"s": {"command": "node", "args": ["${workspacePath}/tool.js"]}}
    plugin, diags = read_plugin(extension(tmp_path / "x", mcpServers=servers))
    assert plugin is not None
    assert plugin.mcp_servers[0].args == ("${workspacePath}/tool.js",)
    assert (
        "plugin.mcp.variable_unexpanded",
        "warning",
        "MCP server 's' uses ${workspacePath}, which satchel does not expand for a server; "
        "it is kept as written",
    ) in messages(diags)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("prompt = ", "not valid TOML: Invalid value (at end of document); the command is skipped"),
        ('description = "x"\n', "it has no prompt; the command is skipped"),
        ("prompt = 1\n", "prompt must be a string, not a number; the command is skipped"),
        (
            'prompt = "x"\ndescription = ["a"]\n',
            "description must be a string, not a list; the command is skipped",
        ),
    ],
    ids=["not-toml", "no-prompt", "prompt-number", "description-list"],
)
def test_a_bad_toml_command_is_skipped_alone(tmp_path: Path, text: str, message: str):
    root = extension(tmp_path / "x")
    put(root, "commands/broken.toml", text)
    plugin, diags = read_plugin(root)
    assert plugin is not None
    assert [c.name for c in plugin.commands] == ["code-tools:fs:grep-code", "code-tools:git:commit"]
    assert ("command.toml.invalid", "warning", message) in messages(diags)


def test_a_file_injection_is_reported_and_kept_as_written(tmp_path: Path):
    root = extension(tmp_path / "x")
    put(root, "commands/review.toml", 'prompt = "Review @{src/app.py} and !{git diff}"\n')
    plugin, diags = read_plugin(root)
    assert plugin is not None
    review = next(c for c in plugin.commands if c.name == "code-tools:review")
    assert review.expand("") == "Review @{src/app.py} and !{git diff}"
    assert (
        "command.injection.unsupported",
        "info",
        "the prompt holds Gemini CLI's !{...} and @{...}; satchel runs and reads nothing "
        "for a command, so it reaches the model as written",
    ) in messages(diags)


def test_markdown_files_under_commands_are_not_gemini_commands(tmp_path: Path):
    root = extension(tmp_path / "x")
    put(root, "commands/notes.md", "# not a command\n")
    plugin, _ = read_plugin(root)
    assert plugin is not None
    assert "code-tools:notes" not in [c.name for c in plugin.commands]


def test_a_commands_directory_leaving_the_root_is_not_read(tmp_path: Path):
    root = extension(tmp_path / "x")
    outside = put(tmp_path, "elsewhere/evil.toml", 'prompt = "x"\n').parent
    for child in (root / "commands").rglob("*"):
        if child.is_file():
            child.unlink()
    for child in sorted((root / "commands").rglob("*"), reverse=True):
        child.rmdir()
    (root / "commands").rmdir()
    (root / "commands").symlink_to(outside)
    plugin, diags = read_plugin(root)
    assert plugin is not None and plugin.commands == ()
    assert "plugin.path.outside_root" in codes(diags)


@pytest.mark.parametrize(
    ("hooks", "message"),
    [
        (
            {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}},
            "event 'PreToolUse' is not a Gemini CLI hook event; its hooks are skipped",
        ),
        (
            {"hooks": {"BeforeTool": [{"hooks": [{"type": "runtime", "name": "x"}]}]}},
            "BeforeTool definition #1 hook #1: type 'runtime' is not supported (a hooks file "
            "declares command hooks); it is skipped",
        ),
        (
            {"hooks": {"BeforeTool": [{"hooks": [{**COMMAND, "timeout": "5s"}]}]}},
            "BeforeTool definition #1 hook #1: timeout must be a number of milliseconds, "
            "not a string; it is skipped",
        ),
        (
            {"hooks": []},
            "hooks.json must be an object holding a hooks object (event -> hook definitions); "
            "no hook of this file loads",
        ),
    ],
    ids=["claude-event", "runtime-type", "timeout-text", "not-an-object"],
)
def test_a_bad_hook_is_dropped_alone(tmp_path: Path, hooks: dict[str, Any], message: str):
    root = extension(tmp_path / "x")
    put(root, "hooks/hooks.json", json.dumps(hooks))
    plugin, diags = read_plugin(root)
    assert plugin is not None and plugin.hooks == ()
    assert ("plugin.hooks.invalid", "warning", message) in messages(diags)


def test_hook_settings_keys_are_not_events(tmp_path: Path):
    root = extension(tmp_path / "x")
    events = {"enabled": True, "disabled": [], "notifications": True, **HOOKS["hooks"]}
    put(root, "hooks/hooks.json", json.dumps({"hooks": events}))
    plugin, diags = read_plugin(root)
    assert plugin is not None and len(plugin.hooks) == 3
    assert "plugin.hooks.invalid" not in codes(diags)


def test_policies_are_recognised_and_not_read(tmp_path: Path):
    root = extension(tmp_path / "x")
    put(root, "policies/rules.toml", '[[rule]]\ntoolName = "x"\ndecision = "deny"\n')
    _, diags = read_plugin(root)
    policies = "policies/ (Gemini CLI policy engine rules) are not read"
    assert ("plugin.policies.unsupported", "info", policies) in messages(diags)


def test_declarative_only_loading_leaves_servers_hooks_and_agents(ext: Path):
    plugin, diags = read_plugin(ext, executable=False)
    assert plugin is not None
    assert (plugin.mcp_servers, plugin.hooks, plugin.agents) == ((), (), ())
    assert [len(plugin.skills), len(plugin.commands)] == [1, 2]
    assert [c for c in codes(diags) if c.startswith("plugin.") and c.endswith(".unsupported")] == [
        "plugin.mcp.unsupported",
        "plugin.agents.unsupported",
        "plugin.hooks.unsupported",
    ]


# -- standalone TOML commands -------------------------------------------------------


def test_a_gemini_commands_root_holds_toml_commands(tmp_path: Path):
    write_tree(
        tmp_path,
        {
            ".gemini/commands/git/commit.toml": 'prompt = "Commit: {{args}}"\n',
            ".gemini/commands/notes.md": "# not a Gemini command\n",
            ".claude/commands/review.md": "Review $ARGUMENTS\n",
            ".claude/commands/other.toml": 'prompt = "not a Claude command"\n',
        },
    )
    layout = Layout.default(tmp_path, client="gemini", home=tmp_path / "home", project=tmp_path)
    found = load_commands(layout)
    assert sorted(found.commands) == ["git:commit", "review"]
    assert found.find("git:commit").expand("fix") == "Commit: fix"  # type: ignore[union-attr]
    assert found.find("review").expand("it") == "Review it"  # type: ignore[union-attr]


def test_shell_injections_are_found_as_gemini_cli_finds_them():
    text = "a !{echo {x}} b !{ ls } c !{unclosed"
    assert injections(text) == [(2, "echo {x}"), (16, "ls")]
    assert injections("@{a.txt}", "@{") == [(0, "a.txt")]


def test_gemini_cli_s_extensions_directory_works_as_a_plugins_root(tmp_path: Path):
    home = tmp_path / "home"
    extension(home / ".gemini/extensions/code-tools")
    put(home, ".gemini/extensions/extension-enablement.json", "{}\n")
    roots = [RootSpec("user", ".gemini", "{home}/.gemini/extensions")]
    layout = Layout.default(tmp_path, home=home, project=tmp_path, plugin_roots=roots)
    env = load(layout=layout)
    assert [(p.name, p.format, p.scope) for p in env.plugins.enabled()] == [
        ("code-tools", "gemini", "user")
    ]
    assert "code-tools:git:commit" in env.commands.commands

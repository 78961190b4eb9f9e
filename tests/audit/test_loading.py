"""What an audit says about one file, environment directories, what loading refused or
held back, command files' ``!`cmd`` lines and agents' tool lists."""

from __future__ import annotations

import json

from satchel.audit import audit_path
from tests.support import put

from .support import claude_plugin, of, rows, skill

COMMAND = "---\ndescription: Review a PR.\n---\nThe diff: !`gh pr diff $1`\n"


def test_a_file_is_audited_alone_not_the_directory_it_sits_in(tmp_path):
    plugin = claude_plugin(tmp_path, "kit")
    put(plugin / "commands" / "review.md", COMMAND)
    put(plugin / "scripts" / "other.sh", "#!/bin/sh\n", mode=0o755)
    put(plugin / "bin" / "tool.so", b"\x7fELF\x00")

    report = audit_path(plugin / "commands" / "review.md")

    assert report.kind == "file"
    assert [(f.rule, f.message, f.path, f.line) for f in report.findings] == [
        (
            "A-EXEC-SHELL-INTERP",
            'an inline !`...` runs "gh pr diff $1" when the command is invoked',
            plugin / "commands" / "review.md",
            4,
        )
    ]


def test_a_file_given_alone_is_checked_as_a_binary_or_an_executable(tmp_path):
    binary = put(tmp_path / "helper.so", b"\x7fELF\x02\x01")
    script = put(tmp_path / "run", "#!/bin/sh\necho hi\n", mode=0o755)

    assert [(r[0], r[1]) for r in rows(binary, base=tmp_path)] == [
        ("A-EXEC-OPAQUE-BINARY", "helper.so is a compiled or binary executable file")
    ]
    assert [(r[0], r[1]) for r in rows(script, base=tmp_path)] == [
        ("A-EXEC-SCRIPTS", "run is a script (executable)")
    ]


def test_a_skills_md_file_is_still_its_skill(tmp_path):
    directory = skill(tmp_path, "one", "Run !`date` now.\n")
    assert audit_path(directory / "SKILL.md").kind == "skill"


def test_environment_directories_are_not_walked(tmp_path):
    tree = tmp_path / "tree"
    skill(tree, "real", "Plain.\n")
    for env in (".venv", "node_modules", "__pycache__", ".tox", ".mypy_cache", "venv"):
        vendored = skill(tree / env / "lib", "vendored", "Run !`rm -rf ~` now.\n")
        put(vendored / "scripts" / "x.py", "print(1)\n")
    venv = tree / "myenv"
    put(venv / "pyvenv.cfg", "home = /usr\n")
    skill(venv / "lib", "in-venv", "Run !`id` now.\n")
    plugin = claude_plugin(tmp_path, "kit")
    put(plugin / "node_modules" / "dep" / "native.node", b"\x7fELF")
    put(plugin / ".git" / "hooks" / "pre-commit", "#!/bin/sh\n", mode=0o755)
    put(plugin / ".venv" / "bin" / "python", b"\x7fELF")

    assert audit_path(tree).kind == "skills"
    assert rows(tree) == []
    assert rows(plugin) == []


def test_a_plugin_off_by_default_is_held_back_as_such(tmp_path):
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    plugin = claude_plugin(project / ".satchel" / "plugins", "quiet")
    manifest = {"name": "quiet", "defaultEnabled": False}
    put(plugin / ".claude-plugin" / "plugin.json", json.dumps(manifest))

    found = of("A-LOAD-HELD-BACK", rows(project, home=tmp_path / "home", base=tmp_path))

    assert [message for _, message, *_ in found] == [
        'plugin "quiet" (claude, project scope) is disabled by default (defaultEnabled): its '
        "hooks, MCP servers and scripts do not load (audit its directory to see them)"
    ]


def test_a_disabled_plugin_and_a_shadowed_one_are_held_back_findings(tmp_path):
    project, home = tmp_path / "repo", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    claude_plugin(project / ".satchel" / "plugins", "off")
    claude_plugin(project / ".satchel" / "plugins", "twin")
    claude_plugin(home / ".config" / "satchel" / "plugins", "twin")
    put(project / ".satchel" / "config.toml", "[plugins.off]\nenabled = false\n")

    found = of("A-LOAD-HELD-BACK", rows(project, home=home, base=tmp_path))

    assert found == [
        (
            "A-LOAD-HELD-BACK",
            'plugin "twin" (claude, user scope) is shadowed by the plugin of that name at '
            f'"{project / ".satchel" / "plugins" / "twin"}": it does not load (audit its '
            "directory to see it)",
            "home/.config/satchel/plugins/twin",
            None,
            "none",
        ),
        (
            "A-LOAD-HELD-BACK",
            'plugin "off" (claude, project scope) is disabled in the config: its hooks, MCP '
            "servers and scripts do not load (audit its directory to see them)",
            "repo/.satchel/plugins/off",
            None,
            "trusted-project",
        ),
    ]


def test_a_project_server_refused_for_a_loader_variable_is_a_finding(tmp_path):
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    server = {"mcpServers": {"loader": {"command": "node", "env": {"LD_PRELOAD": "x.so"}}}}
    put(project / ".mcp.json", json.dumps(server))

    found = of("A-LOAD-REFUSED", rows(project, home=tmp_path / "home"))

    assert [(r[0], r[2], r[4]) for r in found] == [
        ("A-LOAD-REFUSED", ".mcp.json", "trusted-project")
    ]
    assert found[0][1].startswith("the loader refused this entry (config.mcp.invalid): ")
    assert "LD_PRELOAD" in found[0][1]


def test_command_files_shell_lines_and_agents_broad_tools(tmp_path):
    plugin = claude_plugin(tmp_path, "kit")
    put(plugin / "commands" / "review.md", COMMAND)
    agent = "---\nname: {n}\ndescription: An agent.\ntools: {t}\n---\nHelp.\n"
    put(plugin / "agents" / "runner.md", agent.format(n="runner", t="Read, Bash"))
    put(plugin / "agents" / "star.md", agent.format(n="star", t="'*'"))
    put(plugin / "agents" / "scoped.md", agent.format(n="scoped", t="Read, Bash(git:*)"))

    found = rows(plugin)

    assert of("A-EXEC-SHELL-INTERP", found) == [
        (
            "A-EXEC-SHELL-INTERP",
            'an inline !`...` runs "gh pr diff $1" when the command is invoked',
            "commands/review.md",
            4,
            "trusted-source",
        )
    ]
    assert of("A-AGENT-TOOLS-BROAD", found) == [
        (
            "A-AGENT-TOOLS-BROAD",
            'agent type "kit:runner" may use "Bash": any shell command, unasked',
            "agents/runner.md",
            4,
            "trusted-source",
        ),
        (
            "A-AGENT-TOOLS-BROAD",
            'agent type "kit:star" may use "*": every tool, any shell command included',
            "agents/star.md",
            4,
            "trusted-source",
        ),
    ]


HOOKS = '[[hooks.before_tool_use]]\n[[hooks.before_tool_use.hooks]]\ncommand = "{command}"\n'


def held(project, home):
    return [(r[1], r[2], r[4]) for r in of("A-LOAD-HELD-BACK", rows(project, home=home))]


def test_a_hook_the_folders_trust_holds_back_is_a_finding_with_the_reason(satchel, tmp_path):
    project, home = tmp_path / "repo", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    put(project / ".satchel" / "hooks.toml", HOOKS.format(command="sh g.sh"))
    put(project / "g.sh", "echo a\n")

    untrusted = held(project, home)
    assert satchel("trust", project, "--home", home).code == 0
    trusted = held(project, home)
    put(project / ".satchel" / "hooks.toml", HOOKS.format(command="sh g.sh --now"))
    changed = held(project, home)

    assert untrusted == [
        (
            'project hook on before_tool_use runs "sh g.sh" but is held back: the project is '
            "not trusted",
            ".satchel/hooks.toml",
            "trusted-project",
        )
    ]
    assert trusted == []
    assert changed == [
        (
            'project hook on before_tool_use runs "sh g.sh --now" but is held back: changed '
            "since the folder was trusted",
            ".satchel/hooks.toml",
            "trusted-project",
        )
    ]


GEMINI_COMMAND = 'description = "Grep."\nprompt = """\nFound:\n!{grep -r {{args}} .}\n"""\n'


def test_a_gemini_extensions_toml_commands_shell_injections(tmp_path):
    plugin = tmp_path / "finder"
    put(plugin / "gemini-extension.json", json.dumps({"name": "finder", "version": "1.0.0"}))
    put(plugin / "commands" / "grep.toml", GEMINI_COMMAND)
    put(plugin / "commands" / "echo.toml", 'prompt = "Say !{echo {a}} twice"\n')
    expected = 'a !{...} runs "grep -r {{args}} ." when the command is invoked (Gemini CLI)'

    assert of("A-EXEC-SHELL-INTERP", rows(plugin)) == [
        (
            "A-EXEC-SHELL-INTERP",
            'a !{...} runs "echo {a}" when the command is invoked (Gemini CLI)',
            "commands/echo.toml",
            1,
            "trusted-source",
        ),
        ("A-EXEC-SHELL-INTERP", expected, "commands/grep.toml", 4, "trusted-source"),
    ]
    alone = plugin / "commands" / "grep.toml"
    assert [(r[0], r[1], r[3]) for r in rows(alone)] == [("A-EXEC-SHELL-INTERP", expected, 4)]

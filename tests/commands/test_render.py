"""The agent.plugin-commands segment and the invocation wrapper."""

from __future__ import annotations

from pathlib import Path

from satchel.foundations.origin import Origin
from satchel.kinds.commands import (
    CONTEXT_ID,
    HEAD,
    Command,
    load_commands,
    render_commands,
    wrap_command,
)
from satchel.kinds.commands._render import command_line
from tests.commands.helpers import fm
from tests.support import check_golden, put

HERE = Path(__file__).parent


def test_the_segment_id_and_first_line_are_cavemans():
    assert CONTEXT_ID == "agent.plugin-commands"
    assert HEAD == (
        "Plugin slash commands available to this agent. "
        "Commands activate only when explicitly invoked."
    )


def test_no_commands_no_text():
    assert render_commands([]) == ""
    assert render_commands({}) == ""
    assert render_commands([Command("x", "d", disable_model_invocation=True)]) == ""


def test_the_segment_from_a_real_tree(layout, project, home):
    claude = project / ".claude" / "commands"
    put(claude, "fix-issue.md", "# Fix a GitHub issue\n\nFix issue $1.\n")
    put(
        claude,
        "frontend/component.md",
        fm(description="Build a component", argument_hint="'<name>'"),
    )
    put(claude, "review.md", fm(description="Review the diff", argument_hint="[base, head]"))
    put(claude, "secret.md", fm(description="Only for people", disable_model_invocation="true"))
    put(claude, "notes.md", "")
    put(
        home / ".claude" / "commands",
        "odd.md",
        fm(description='"Multi\\nline\\u202e with  \\u200bhidden\\tbits"'),
    )
    plugin = Command(
        "deploy-tools:ship", "Ship a release", "[env]", origin=Origin("plugin", namespace="p")
    )
    mcp = Command("mcp__git__log", "Show the log", origin=Origin("mcp"), render=lambda raw: raw)
    found_set = load_commands(layout, plugin_commands=[plugin], extra=[mcp])
    check_golden("index.txt", render_commands(found_set.commands), HERE / "golden")


def test_one_line_per_command():
    assert command_line(Command("a")) == "- /a"
    assert command_line(Command("a", "Do it")) == "- /a: Do it"
    assert command_line(Command("a", "", "<x>")) == "- /a (arguments: <x>)"
    assert (
        command_line(Command("a", " Do\n it ", " <x>\t[y] ")) == "- /a: Do it (arguments: <x> [y])"
    )


def test_the_entry_cap():
    commands = [Command(f"c{i:03d}", f"Command {i}") for i in range(70)]
    text = render_commands(commands)
    lines = text.splitlines()
    assert (len(lines), lines[-1]) == (66, "(6 more commands not listed: index limit reached)")
    check_golden("capped.txt", render_commands(commands, max_commands=2), HERE / "golden")
    one_left = render_commands(commands[:3], max_commands=2)
    assert one_left.splitlines()[-1] == "(1 more command not listed: index limit reached)"


def test_the_byte_cap():
    commands = [Command(f"c{i:03d}", "x" * 200) for i in range(60)]
    text = render_commands(commands)
    assert len(text.encode()) <= 8 * 1024
    assert text.endswith("commands not listed: index limit reached)\n")
    assert render_commands(commands, max_bytes=20) == ""


def test_the_wrapper():
    assert wrap_command(Command("deploy"), "Deploy prod.") == (
        '<agent-plugin-command name="deploy">\nDeploy prod.\n</agent-plugin-command>'
    )
    odd = Command("a\"<b>&'c")
    assert wrap_command(odd, "") == (
        '<agent-plugin-command name="a&quot;&lt;b&gt;&amp;\'c">\n\n</agent-plugin-command>'
    )


def test_an_invocation_end_to_end(layout, project):
    put(project / ".claude" / "commands", "git/fix-issue.md", "Fix issue $1 ($2).\n@src/app.py\n")
    found_set = load_commands(layout)
    command = found_set.find("/git:fix-issue")
    assert command is not None
    assert wrap_command(command, command.expand('42 "high priority"')) == (
        '<agent-plugin-command name="fix-issue">\n'
        "Fix issue 42 (high priority).\n@src/app.py\n"
        "</agent-plugin-command>"
    )

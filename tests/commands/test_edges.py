"""Commands: symlinked dotfiles, bodies re-read later, plugin names, long descriptions,
shell-like word splitting, dollar amounts."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import satchel
from satchel.foundations.origin import Origin
from satchel.kinds.commands import (
    Command,
    CommandBodyError,
    command_line,
    expand_arguments,
    load_commands,
    render_commands,
    scan_commands,
    split_arguments,
)
from tests.support import put, session

# -- commands: where files may live ------------------------------------------------------


def test_a_user_command_symlinked_into_a_dotfiles_checkout_loads(
    home: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    """GNU stow and most dotfile managers make ~/.claude/commands/*.md symlinks into a
    checkout elsewhere. User agents may point anywhere (agents/_discover.py contain=USER
    exemption); user commands are refused as an 'escape', so the user's own commands
    vanish."""
    real = put(tmp_path / "dotfiles" / "claude" / "commands" / "standup.md", "Standup $1\n")
    (home / ".claude" / "commands").mkdir(parents=True)
    (home / ".claude" / "commands" / "standup.md").symlink_to(real)
    found = load_commands(layout)
    assert "standup" in found.commands, [d.message for d in found.diagnostics]


def test_the_body_read_at_expansion_refuses_a_symlink_swapped_in_after_load(
    project: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    """Discovery checks symlink containment; `Command.body()` re-opens the path later
    and follows any symlink (read_bounded without nofollow or a containment check)."""
    path = put(project / ".claude" / "commands" / "review.md", "Review $ARGUMENTS\n")
    outside = put(tmp_path / "elsewhere" / "secret.md", "TOP SECRET\n")
    s = session(satchel.load(layout=layout))
    path.unlink()
    path.symlink_to(outside)
    assert "TOP SECRET" not in s.expand("/review x")


# -- commands: precedence -------------------------------------------------------------


def test_a_command_file_wins_over_a_same_named_plugin_command(
    project: Path, layout: satchel.Layout
) -> None:
    """mermaid / issue 4: a command file wins over a same-named plugin command. With the
    default stem naming the file `tools/deploy.md` answers to `/tools:deploy`, yet a
    plugin `tools` command `deploy` takes that name from it."""
    path = put(project / ".claude" / "commands" / "tools" / "deploy.md", "File deploy\n")
    plugin = Command(
        "tools:deploy", "Plugin", origin=Origin("plugin", namespace="tools"), text="Plugin"
    )
    found = load_commands(layout, plugin_commands=[plugin])
    winner = found.find("tools:deploy")
    assert winner is not None and winner.path == path


# -- commands: the context segment ---------------------------------------------------


def test_one_long_description_does_not_push_every_other_command_out_of_the_segment(
    project: Path, layout: satchel.Layout
) -> None:
    """A frontmatter description is not capped (only the first-line default is, at
    1,024 characters), and `fit_lines` stops at the first entry that does not fit, so
    one project file with a 9 KB description hides every other command."""
    long = "---\ndescription: " + "d" * 9000 + "\n---\nx\n"
    put(project / ".claude" / "commands" / "aaa.md", long)
    put(project / ".claude" / "commands" / "deploy.md", "---\ndescription: Deploy\n---\nx\n")
    text = {seg.id: seg.text for seg in session(satchel.load(layout=layout)).context()}
    assert "- /deploy: Deploy" in text["agent.plugin-commands"]


# -- commands: arguments -----------------------------------------------------------------


@settings(max_examples=500)
@given(st.text(alphabet="ab '\"\\\t", max_size=12))
def test_words_split_as_a_shell_would_when_the_quoting_is_well_formed(text: str) -> None:
    """Issue 4: "$1 ... by each word (quotes respected)". Inside double quotes a
    backslash only escapes \\ and " (POSIX and shlex); split_arguments escapes every
    character, so `/open "C:\\Users\\me"` gives `C:Usersme`."""
    try:
        expected = shlex.split(text)
    except ValueError:
        return
    assert split_arguments(text) == expected


def test_a_windows_path_in_double_quotes_survives() -> None:
    assert expand_arguments("Open $1", r'"C:\Users\me\notes.txt"') == r"Open C:\Users\me\notes.txt"


def test_a_dollar_amount_in_the_body_does_not_swallow_the_arguments() -> None:
    """`$5` in "$5.00" is taken for word 5: it becomes "" and, as a placeholder was
    'found', the user's arguments are neither substituted nor appended: they vanish.
    (Claude Code >= 2.1.210 keeps an unmatched $N verbatim.)"""
    out = expand_arguments("Seats cost $5.00 each. Draft the pricing email.", "for ACME")
    assert "for ACME" in out


# -- the fixes, beyond the review's cases ------------------------------------------------


def test_a_user_command_linked_anywhere_reads_its_body_through_the_link(
    home: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    real = put(tmp_path / "dotfiles" / "standup.md", "---\ndescription: S\n---\nStandup $1\n")
    root = home / ".claude" / "commands"
    root.mkdir(parents=True)
    (root / "standup.md").symlink_to(real)
    (root / "loop.md").symlink_to(root / "loop.md")
    (root / "gone.md").symlink_to(tmp_path / "nothing.md")
    found = load_commands(layout)
    assert list(found.commands) == ["standup"]
    assert found.commands["standup"].expand("today") == "Standup today"
    assert sorted(d.message for d in found.diagnostics) == [
        "cannot read the command file: a symlink loop",
        "cannot read the command file: a symlink to nothing",
    ]


def test_project_and_plugin_commands_still_stay_inside_their_root(
    project: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    outside = put(tmp_path / "dotfiles" / "leak.md", "Leak\n")
    root = project / ".claude" / "commands"
    root.mkdir(parents=True)
    (root / "leak.md").symlink_to(outside)
    plugin_root = tmp_path / "plugins" / "tools" / "commands"
    plugin_root.mkdir(parents=True)
    (plugin_root / "leak.md").symlink_to(outside)
    found = load_commands(layout)
    scan = scan_commands(
        satchel.Root(plugin_root, "plugin", ""), origin=Origin("plugin", namespace="tools")
    )
    assert (dict(found.commands), scan.commands) == ({}, [])
    assert [d.code for d in (*found.diagnostics, *scan.diagnostics)] == ["command.read.error"] * 2


def test_the_body_follows_the_rule_discovery_applied(
    project: Path, home: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    inside = put(project / ".claude" / "commands" / "notes" / "real.md", "Inside\n")
    project_file = put(project / ".claude" / "commands" / "review.md", "Review\n")
    user_file = put(home / ".claude" / "commands" / "mine.md", "Mine\n")
    outside = put(tmp_path / "elsewhere" / "secret.md", "Secret\n")
    found = load_commands(layout)
    review, mine = found.commands["review"], found.commands["mine"]
    assert "_inside" not in repr(review)
    project_file.unlink()
    project_file.symlink_to(inside)
    assert review.body() == "Inside"  # a link inside the root is fine
    project_file.unlink()
    project_file.symlink_to(outside)
    with pytest.raises(CommandBodyError) as caught:
        review.body()
    assert str(caught.value) == (
        f"cannot read the body: a symlink to {outside}, outside {project / '.claude' / 'commands'}"
    )
    user_file.unlink()
    user_file.symlink_to(outside)
    assert mine.body() == "Secret"  # a user's command may link anywhere


def test_slash_bare_name_runs_a_plugin_command(project: Path, layout: satchel.Layout) -> None:
    """mermaid runs a plugin prompt as `/deploy prod`."""
    plugin = Command(
        "tools:deploy", "Deploy", origin=Origin("plugin", namespace="tools"), text="Deploy $1"
    )
    s = session(satchel.load(layout=layout, extra_commands=[plugin]))
    expected = '<agent-plugin-command name="tools:deploy">\nDeploy prod\n</agent-plugin-command>'
    assert s.expand("/deploy prod") == expected
    assert s.expand("/tools:deploy prod") == expected


def test_a_long_frontmatter_description_is_cut_with_an_ellipsis(
    project: Path, layout: satchel.Layout
) -> None:
    put(project / ".claude" / "commands" / "long.md", "---\ndescription: " + "d" * 5000 + "\n---\n")
    put(project / ".claude" / "commands" / "edge.md", "---\ndescription: " + "e" * 1024 + "\n---\n")
    found = load_commands(layout)
    assert found.commands["long"].description == "d" * 1023 + "…"
    assert found.commands["edge"].description == "e" * 1024
    assert found.diagnostics == ()


def test_a_segment_line_cuts_a_long_description_and_hint() -> None:
    line = command_line(Command("a", "word " * 100, "[x] " * 100))
    description, hint = line.removeprefix("- /a: ").removesuffix(")").split(" (arguments: ")
    assert (len(description), description[-5:], len(hint), hint[-4:]) == (255, "word…", 128, "[x]…")
    assert (
        command_line(Command("a", "d" * 256, "h" * 128))
        == f"- /a: {'d' * 256} (arguments: {'h' * 128})"
    )
    many = [Command(f"c{i:02d}", "d" * 1024, "h" * 1024) for i in range(40)]
    lines = render_commands(many).splitlines()  # about 400 bytes an entry: 19 of 40 fit
    assert (len(lines), lines[-1]) == (21, "(21 more commands not listed: index limit reached)")

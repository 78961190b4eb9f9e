"""Untrusted text prints escaped and literal; NO_COLOR turns colour off."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

from tests.support import write_skill

EVIL = (
    "---\n"
    "name: evil\n"
    'description: "Clears \\e[2J the screen, \\u202e flips text, [bold]loud[/bold] :smile:"\n'
    "---\n"
    "Body \x1b[31mred\x1b[0m and [red]markup[/red].\n"
)


@pytest.fixture
def evil(project, home):
    write_skill(project / ".satchel/skills", "evil", EVIL)
    return ("--project", project, "--home", home)


@pytest.mark.parametrize("verb", [["list"], ["show", "evil"]])
def test_control_and_bidi_characters_print_escaped(satchel, evil, verb):
    out = satchel(*verb, *evil).out
    assert "Clears \\x1b[2J the screen, \\u202e flips text" in out
    assert "\x1b" not in out
    assert "\u202e" not in out


@pytest.mark.parametrize("verb", [["list"], ["show", "evil"]])
def test_markup_and_emoji_codes_print_literally(satchel, evil, verb):
    out = satchel(*verb, *evil).out
    assert "[bold]loud[/bold] :smile:" in out


def test_body_is_escaped_and_literal(satchel, evil):
    out = satchel("show", "evil", *evil).out
    assert "Body \\x1b[31mred\\x1b[0m and [red]markup[/red]." in out


EVIL_COMMAND = (
    "---\n"
    'description: "Clears \\e[2J the screen, \\u202e flips text, [bold]loud[/bold] :smile:"\n'
    'argument-hint: "[n] \\e[31m"\n'
    "---\n"
    "Body \x1b[31mred\x1b[0m $ARGUMENTS.\n"
)
EVIL_AGENT = EVIL.replace("name: evil", "name: agent-evil")


@pytest.fixture
def evil_everywhere(evil, project):
    commands = project / ".claude/commands/gr\x1b[2Jp"
    commands.mkdir(parents=True)
    (commands / "evil-cmd.md").write_text(EVIL_COMMAND)
    (project / ".claude/agents").mkdir(parents=True)
    (project / ".claude/agents/agent-evil.md").write_text(EVIL_AGENT)
    return evil


@pytest.mark.parametrize("verb", [["commands"], ["agents"], ["doctor"]])
def test_commands_and_agents_print_escaped(satchel, evil_everywhere, verb):
    out = satchel(*verb, *evil_everywhere).out
    assert "\x1b" not in out
    assert "\u202e" not in out
    if verb != ["doctor"]:
        assert "Clears \\x1b[2J the screen, \\u202e flips text, [bold]loud[/bold] :smile:" in out


def test_a_hostile_hint_and_path_print_escaped(satchel, evil_everywhere):
    out = satchel("commands", *evil_everywhere).out
    assert "[n] \\x1b[31m" in out
    assert "/gr\\x1b[2Jp/evil-cmd.md" in out


def test_expand_json_keeps_the_exact_text_in_ascii(satchel, evil_everywhere):
    result = satchel("expand", "/evil-cmd \x1b[2J", "--json", *evil_everywhere)
    assert result.out.isascii()
    assert result.json()["expanded"] == "Body \x1b[31mred\x1b[0m \x1b[2J."


def test_json_keeps_the_exact_text_in_ascii(satchel, evil):
    result = satchel("show", "evil", "--json", *evil)
    assert result.out.isascii()
    doc = result.json()
    assert doc["description"] == (
        "Clears \x1b[2J the screen, \u202e flips text, [bold]loud[/bold] :smile:"
    )
    assert doc["body"] == "Body \x1b[31mred\x1b[0m and [red]markup[/red]."


def test_paths_and_messages_in_doctor_are_escaped(satchel, project, home):
    write_skill(project / ".satchel/skills", "rtl\u202egnp", name="rtl-png")
    out = satchel("doctor", "--project", project, "--home", home).out
    assert "rtl\\u202egnp" in out
    assert "\u202e" not in out


def test_validate_escapes_what_it_prints(satchel, tmp_path):
    path = write_skill(tmp_path, "evil", EVIL)
    out = satchel("validate", path).out
    assert "\x1b" not in out
    assert "skill.text.hidden-unicode" in out


def _styled(satchel, monkeypatch, evil, **env):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return satchel("doctor", *evil).out


def test_colour_is_used_on_a_terminal(satchel, monkeypatch, evil):
    assert "\x1b[" in _styled(satchel, monkeypatch, evil)


def test_no_color_turns_every_style_off(satchel, monkeypatch, evil):
    out = _styled(satchel, monkeypatch, evil, NO_COLOR="1")
    assert "\x1b" not in out
    assert "warning  skill.text.hidden-unicode" in out


def test_pipes_get_no_colour(satchel, evil):
    out = satchel("doctor", *evil).out
    assert "\x1b" not in out


@pytest.mark.parametrize(
    "verb", [["index", "--format", "paths"], ["expand", "/alpha"]], ids=["index", "expand"]
)
def test_on_a_terminal_escapes_what_a_pipe_gets_raw(tmp_path, verb):
    project = tmp_path / "proj\x1b[2Jx"
    (project / ".git").mkdir(parents=True)
    write_skill(project / ".satchel/skills", "alpha")
    args = [sys.executable, "-m", "satchel", *verb]
    args += ["--project", str(project), "--home", str(tmp_path / "home")]
    piped = subprocess.run(args, capture_output=True, check=True).stdout
    assert b"proj\x1b[2Jx" in piped
    main, child = pty.openpty()
    with subprocess.Popen(args, stdout=child, stderr=subprocess.DEVNULL) as proc:
        os.close(child)
        seen = b""
        while chunk := _read(main):
            seen += chunk
        proc.wait()
    os.close(main)
    assert b"proj\\x1b[2Jx" in seen
    assert b"\x1b" not in seen


def _read(fd):
    try:
        return os.read(fd, 4096)
    except OSError:  # the terminal closes when the child exits
        return b""

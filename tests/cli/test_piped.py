"""Output that is not a terminal is never wrapped or cut: one row, one finding, one
line, so that grep finds it whole; on a terminal, command names are never cut."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

LONG = "a-very-long-command-name-that-would-never-fit-a-narrow-terminal-column"
DESCRIPTION = "Deploy " + "the service carefully " * 12 + "and report back."


@pytest.fixture
def deep(project: Path, home: Path) -> tuple[str | Path, ...]:
    """A project whose names, paths and messages are all longer than any terminal."""
    nested = project / ".claude" / "commands" / ("deeply-nested-group-" * 4).rstrip("-")
    nested.mkdir(parents=True)
    (nested / f"{LONG}.md").write_text(f"---\ndescription: {DESCRIPTION}\n---\n\nGo.\n")
    skill = project / ".satchel" / "skills" / LONG[:60]
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(f"---\nname: other-name\ndescription: {DESCRIPTION}\n---\n")
    return ("--project", project, "--home", home)


def test_piped_commands_keep_name_description_and_path_on_one_line(satchel, deep, project):
    out = satchel("commands", *deep).out
    path = next((project / ".claude" / "commands").rglob("*.md"))
    row = next(line for line in out.splitlines() if LONG in line)
    assert re.split(r"\s{2,}", row) == [f"/{LONG}", "(project)", "-", DESCRIPTION, str(path)]


def test_piped_diagnostics_are_one_line_each_with_place_code_and_message(satchel, deep, project):
    out = satchel("doctor", *deep).out
    skill = project / ".satchel" / "skills" / LONG[:60] / "SKILL.md"
    assert (
        f"{skill}: warning skill.name.mismatch: the name 'other-name' differs from its "
        f"directory name '{LONG[:60]}' (hint: rename the directory to other-name or set "
        f"name: {LONG[:60]})"
    ) in out.splitlines()


def test_piped_lists_are_never_wrapped(satchel, deep):
    for verb in ("doctor", "list", "commands", "plugins", "agents", "hooks"):
        out = satchel(verb, *deep).out
        assert not any(line.startswith(" " * 20) for line in out.splitlines()), verb


def test_piped_validate_prints_each_diagnostic_on_one_line(satchel, deep, project):
    skill = project / ".satchel" / "skills" / LONG[:60]
    out = satchel("validate", skill).out
    lines = out.splitlines()
    assert lines[1].startswith(f"      {skill / 'SKILL.md'}: warning skill.name.mismatch: ")
    assert lines[1].endswith(f"set name: {LONG[:60]})")
    assert len(lines) == 3


@pytest.mark.parametrize("columns", [40, 80])
def test_on_a_terminal_command_names_are_never_cut(satchel, deep, monkeypatch, columns):
    """A name wider than the terminal is broken across lines, never cut short."""
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich: this is a terminal
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("NO_COLOR", "1")
    lines = satchel("commands", *deep).out.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("command "))
    end = next(n for n, line in enumerate(lines) if line.startswith("origin "))
    name = "".join(line.removeprefix("command").strip() for line in lines[start:end])
    assert name == f"/{LONG}"
    assert max(len(line) for line in lines) <= columns

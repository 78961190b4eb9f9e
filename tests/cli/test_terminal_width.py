"""Reports on a terminal of 60, 80 and 200 columns: no line is wider than the
terminal and no column or value is dropped or cut (a table's cells wrap, or each row
becomes a block); into a pipe every row stays one line, the notes on stderr."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from .support import check_golden

WIDTHS = (60, 80, 200)
SKILL = "a-skill-with-a-rather-long-name-for-narrow-terminals"
SKILL_ABOUT = (
    "Check a long description on a narrow terminal: it wraps at spaces inside its "
    "column, keeps every word, and never runs past the right edge of the screen, "
    "whatever the width of the terminal it is printed on."
)
COMMAND = "deploy-the-service-to-the-staging-cluster"
COMMAND_ABOUT = "Deploy the service to the staging cluster and report each health check back"
HINT = "<service-name> [--region REGION]"
PLUGIN = "deployment-toolkit-with-a-long-name"
PLUGIN_SKILL = "rollout-in-stages"
SERVER = "internal-deployment-api-gateway"
RUNS = (
    "deploy-api-server --listen 127.0.0.1:8123 --config ./config/deployment/api.json"
    " --log-level debug"
)
HOOK_COMMAND = "python3 ./scripts/refuse-a-force-push-to-the-main-branch.py --strict"
HOOK_RULE = "Bash(git push --force *)"


@pytest.fixture
def wide(tmp_path: Path, project: Path, home: Path, monkeypatch) -> tuple[str, ...]:
    """A trusted project whose names, descriptions, paths and commands are all long;
    run from its parent, so that paths print as ``project/...`` and ``home/...``."""
    skill = project / ".satchel" / "skills" / SKILL
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(f"---\nname: {SKILL}\ndescription: {SKILL_ABOUT}\n---\n")
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / f"{COMMAND}.md").write_text(
        f"---\ndescription: {COMMAND_ABOUT}\nargument-hint: {HINT}\n---\nGo.\n"
    )
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {SERVER: {"command": RUNS.split()[0], "args": RUNS.split()[1:]}}})
    )
    (project / ".satchel" / "hooks.toml").write_text(
        '[[hooks.before_tool_use]]\nmatcher = "Bash"\n[[hooks.before_tool_use.hooks]]\n'
        f'command = "{HOOK_COMMAND}"\nif = "{HOOK_RULE}"\n'
    )
    plugin = project / ".satchel" / "plugins" / PLUGIN
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": PLUGIN}))
    (plugin / "skills" / PLUGIN_SKILL).mkdir(parents=True)
    (plugin / "skills" / PLUGIN_SKILL / "SKILL.md").write_text(
        f"---\nname: {PLUGIN_SKILL}\ndescription: Roll out one stage at a time.\n---\n"
    )
    monkeypatch.chdir(tmp_path)
    return ("--project", "project", "--home", "home", "--trust")


def on_terminal(monkeypatch, width: int) -> None:
    """What rich reads to treat stdout as a terminal of `width` columns, no colour."""
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("NO_COLOR", "1")


def squeezed(text: str) -> str:
    return "".join(text.split())


def shows(lines: list[str], value: str) -> bool:
    """Whether `value` is printed whole, though maybe wrapped: from some line and
    column, the text there and at that column of the lines below (each up to a gap of
    three blanks) reads `value`, blanks aside."""
    wanted = squeezed(value)
    for first, line in enumerate(lines):
        for column in range(len(line)):
            if line[column] == " " or (column and line[column - 1] != " "):
                continue
            read = ""
            for below in lines[first:]:
                read += squeezed(below[column:].split("   ")[0])
                if not wanted.startswith(read):
                    break
                if read == wanted:
                    return True
    return False


def test_shows_finds_a_value_wrapped_in_its_column():
    lines = ["name   a long value that", "other  wraps here   x", "       and ends", "z"]
    assert shows(lines, "a long value that wraps here and ends")
    assert shows(lines, "x")
    assert not shows(lines, "a long value that wraps here and stops")
    assert not shows(lines, "name a long")  # two columns are not one value


def fitted(satchel, args: tuple[str, ...], width: int) -> str:
    """What the report prints on a terminal of `width` columns; no line is wider."""
    result = satchel(*args)
    assert result.code == 0, result.err
    too_wide = [line for line in result.out.splitlines() if len(line) > width]
    assert too_wide == [], f"lines wider than {width} columns"
    return result.out


# Each report that prints a table, and the values of the long rows it must show.
REPORTS = {
    "doctor": (
        ("doctor",),
        ["project", ".satchel", "project/.satchel/skills", "exists", "missing", "plugin", PLUGIN],
    ),
    "list": (
        ("list",),
        [SKILL, "project", ".satchel", SKILL_ABOUT, f"project/.satchel/skills/{SKILL}/SKILL.md"],
    ),
    "commands": (
        ("commands",),
        [f"/{COMMAND}", "(project)", HINT, COMMAND_ABOUT, f"project/.claude/commands/{COMMAND}.md"],
    ),
    "plugins": (
        ("plugins",),
        [PLUGIN, "claude", "project", "enabled", "1 skill", f"project/.satchel/plugins/{PLUGIN}"],
    ),
    "hooks": (
        ("hooks",),
        ["before_tool_use", "Bash", HOOK_RULE, "project", "loaded", HOOK_COMMAND],
    ),
    "mcp list": (
        ("mcp", "list"),
        [SERVER, "project config", "stdio", "configured", RUNS],
    ),
}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("report", REPORTS)
def test_on_a_terminal_every_value_shows_and_no_line_is_wider(
    satchel, wide, monkeypatch, report, width
):
    on_terminal(monkeypatch, width)
    words, values = REPORTS[report]
    lines = fitted(satchel, (*words, *wide), width).splitlines()
    missing = [value for value in values if not shows(lines, value)]
    assert missing == []


@pytest.mark.parametrize("width", WIDTHS)
def test_doctor_shows_every_column_of_its_roots(satchel, wide, monkeypatch, width):
    on_terminal(monkeypatch, width)
    lines = fitted(satchel, ("doctor", *wide), width).splitlines()
    roots = lines[lines.index("Roots") + 1 : lines.index("Skills: 2 loaded")]
    for header in ("scope", "family", "path", "status", "loaded", "shadowed"):
        assert any(header in line.split() for line in roots), header


GOLDEN = ("list", "commands", "plugins", "doctor")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("report", GOLDEN)
def test_fitted_reports_match_golden(satchel, wide, monkeypatch, report, width, tmp_path):
    on_terminal(monkeypatch, width)
    words, _ = REPORTS[report]
    text = fitted(satchel, (*words, *wide), width)
    head = f"project: {tmp_path / 'project'} (--project)"
    check_golden(f"width/{report}-{width}.txt", after(head, text))


def after(head: str, text: str) -> str:
    """`text` without its first lines, which are `head` wrapped (it names a temporary
    directory, as long as the machine makes it)."""
    lines = text.splitlines(keepends=True)
    read = ""
    for n, line in enumerate(lines):
        read += squeezed(line)
        if read == squeezed(head):
            return "".join(lines[n + 1 :])
    raise AssertionError(f"the output does not open with {head!r}")


@pytest.mark.parametrize("report", REPORTS)
def test_piped_rows_are_whole_lines_and_notes_go_to_stderr(satchel, wide, report, tmp_path):
    words, values = REPORTS[report]
    result = satchel(*words, *wide)
    head = f"project: {tmp_path / 'project'} (--project)"
    if report == "doctor":  # the project is what doctor reports on
        assert result.out.splitlines()[0] == head
        return
    assert result.err.splitlines()[0] == head
    assert "project: " not in result.out
    assert "satchel doctor" not in result.out
    row = next(line for line in result.out.splitlines() if values[0] in line)
    assert [value for value in values if value not in row] == []


@pytest.mark.parametrize("width", WIDTHS)
def test_on_a_terminal_the_notes_stay_on_stdout(satchel, wide, monkeypatch, width, tmp_path):
    on_terminal(monkeypatch, width)
    result = satchel("list", *wide)
    assert result.err == ""
    assert squeezed(result.out).startswith(squeezed(f"project: {tmp_path / 'project'}"))


# Every other verb that prints a table, on the example workspace.
EXAMPLE_ARGS = ("--project", "examples/workspace", "--home", "examples/home", "--trust")
PLUGIN_DIR = "examples/workspace/.satchel/plugins/deploy-kit"
TABLES = {
    "agents": ("agents", *EXAMPLE_ARGS),
    "instructions": ("instructions", *EXAMPLE_ARGS[:4]),
    "lsp list": ("lsp", "list", *EXAMPLE_ARGS),
    "show": ("show", "db-migrations", *EXAMPLE_ARGS),
    "policy check": ("policy", "check", *EXAMPLE_ARGS),
    "hosts": ("hosts",),
    "hosts codex": ("hosts", "codex"),
    "plugin inspect": ("plugin", "inspect", PLUGIN_DIR),
    "compat": ("compat", "examples/workspace"),
    "browse": ("browse", "./examples/workspace/.satchel/plugins"),
    # starts the example's stdio server; its plugin data goes to a temporary home
    "mcp check": (
        *("mcp", "check", "--server", "deploy-api"),
        *("--project", "examples/workspace", "--trust", "--home", "~"),
    ),
}


def characters(text: str) -> Counter[str]:
    """The letters and digits a text shows (a terminal sets a diagnostic's place,
    code and hint out otherwise, and draws its rules across)."""
    return Counter(char for char in text if char.isalnum())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("verb", TABLES)
def test_every_table_fits_and_shows_what_a_pipe_gets(
    satchel, in_repo, tmp_path, monkeypatch, verb, width
):
    """On a terminal a report shows every letter and digit the pipe gets (a block
    repeats its headers, so it may show more), and no line is wider than the terminal."""
    monkeypatch.setenv("HOME", str(tmp_path))
    args = tuple(str(tmp_path) if arg == "~" else arg for arg in TABLES[verb])
    piped = satchel(*args)
    on_terminal(monkeypatch, width)
    shown = fitted(satchel, args, width)
    assert characters(piped.out) - characters(shown) == Counter()
    assert "…" not in shown

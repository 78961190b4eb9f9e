"""What satchel loads under a host's profile against what the real host sends its
model, for the same project: Claude Code's agent-type listing, and each host's
instruction files (the files, their order, and the text the host wraps them in).

One project holds every case; each host runs once on it (all at once, once per test
run: tests/hostloop/project_runs.py, which test_hostloop.py reads too), from its
subfolder ``sub`` so that the files of every folder from the root down to the working
directory are read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel import hosts
from satchel.assembly import listings
from satchel.kinds._instructions import InstructionFile, load_instructions
from tests.hostloop.project_runs import RUNS, UNICODE_AGENT, ran
from tests.hostloop.show import Seen, seen

# Claude Code's own agent types (2.1.332 and 2.1.337, as their listing shows them).
CLAUDE_BUILTINS = {"claude", "Explore", "general-purpose", "Plan", "statusline-setup"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each installed host's view of the project, and the project and homes."""
    project, homes, turns = ran(tmp_path_factory)
    views = {w: seen(RUNS[w][1], turn) for w, turn in turns.items()}
    return {"project": project, "homes": homes, "views": views}


def _view(runs: dict[str, Any], which: str) -> tuple[Seen, Path, Path]:
    if which not in runs["views"]:
        pytest.skip(f"{which} is not in .tools/")
    view: Seen = runs["views"][which]
    assert view.returncode == 0, view.output
    return view, runs["project"], runs["homes"][which]


def _layout(host: str, project: Path, home: Path) -> satchel.Layout:
    return hosts.get(host).layout(project / "sub", home=home, env={})


def _files(host: str, project: Path, home: Path) -> tuple[InstructionFile, ...]:
    mode = hosts.get(host).instructions
    assert mode is not None
    files, _ = load_instructions(_layout(host, project, home), mode=mode)
    return files


def _name(line: str) -> str:
    return line[2:].split(": ", 1)[0]


# -- Claude Code: the agent-type listing ---------------------------------------------------


@pytest.mark.parametrize("which", ["claude-code", "claude-code-next"])
def test_claude_code_lists_satchels_agent_types_line_for_line(
    runs: dict[str, Any], which: str
) -> None:
    view, project, home = _view(runs, which)
    lay = _layout("claude-code", project, home)
    env = satchel.load(layout=lay, host="claude-code", trusted=True, plugin_dirs=[project / "kit"])
    ours = listings.agent_listing(env.agents.agents.values(), "claude-code")
    assert ours is not None
    loaded = {_name(line) for line in ours}
    theirs = [line for line in view.agents if _name(line) in loaded | {UNICODE_AGENT}]
    # the deliberate difference: satchel skips a name outside ASCII (a look-alike of
    # another agent's name could stand in for it), Claude Code lists it last
    assert theirs[-1] == f"- {UNICODE_AGENT}: Non-ASCII name. (Tools: All tools)"
    assert list(ours) == theirs[:-1]
    assert {_name(line) for line in view.agents} - loaded == (CLAUDE_BUILTINS - {"Plan"}) | {
        UNICODE_AGENT
    }


def test_satchel_refuses_the_non_ascii_agent_name_claude_code_lists(runs: dict[str, Any]) -> None:
    project = runs["project"]
    lay = _layout("claude-code", project, project / "no-home")
    env = satchel.load(layout=lay, host="claude-code", trusted=True)
    [d] = [d for d in env.agents.diagnostics if UNICODE_AGENT in d.message]
    assert d.code == "agent.name.invalid"
    assert d.message == (
        f"the name {UNICODE_AGENT!r} cannot be used: it may only hold letters, digits, "
        "'_', '.' and '-'; the agent is skipped"
    )


def test_claude_code_and_satchel_skip_the_agent_without_description(runs: dict[str, Any]) -> None:
    view, _, _ = _view(runs, "claude-code")
    assert "nodesc" not in {_name(line) for line in view.agents}


# -- instruction files ---------------------------------------------------------------------


@pytest.mark.parametrize("which", ["claude-code", "claude-code-next"])
def test_claude_code_sends_the_instruction_files_satchel_loads(
    runs: dict[str, Any], which: str
) -> None:
    view, project, home = _view(runs, which)
    files = _files("claude-code", project, home)
    sent = [f for f in files if f.condition.applies == "always"]
    # the deliberate difference: Claude Code goes on up to `/`, satchel reads nothing
    # above the project root
    above = str(project.parent / "CLAUDE.md")
    theirs = [(i.path, i.text) for i in view.instructions]
    assert theirs.pop(2) == (above, "Above the project.")  # after the user's two files
    assert theirs == [(str(f.path), f.text.strip()) for f in sent]
    label = "project instructions, checked into the codebase"
    block = (view.instructions_block or "").replace(
        f"\n\nContents of {above} ({label}):\n\nAbove the project.", ""
    )
    assert listings.instruction_blocks(files, "claude-code", project / "sub") == (block,)
    assert str(project / ".claude/rules/cond.md") in {str(f.path) for f in files}  # held back


def test_claude_code_and_satchel_read_imports_inside_the_working_folder_only(
    runs: dict[str, Any],
) -> None:
    view, project, home = _view(runs, "claude-code")
    paths = [i.path for i in view.instructions]
    sub = project / "sub"
    at = paths.index(str(sub / "CLAUDE.md"))
    assert paths[at + 1] == str(sub / "extra.md")  # right after its importer
    at = paths.index(str(sub / ".claude/rules/front.md"))
    assert paths[at + 1] == str(sub / ".claude/rules/near.txt")  # a rule's too
    assert str(project / "docs/outside.md") not in paths
    mode = hosts.get("claude-code").instructions
    assert mode is not None
    _, found = load_instructions(_layout("claude-code", project, home), mode=mode)
    [d] = [d for d in found if d.code == "instructions.imports"]
    assert d.message == (
        "CLAUDE.md imports files outside the working folder, which Claude Code reads only "
        "once the user approves them: @docs/outside.md"
    )


def test_codex_sends_the_agents_md_satchel_loads(runs: dict[str, Any]) -> None:
    view, project, home = _view(runs, "codex")
    files = _files("codex", project, home)
    assert [str(f.path) for f in files] == [
        str(home / ".codex/AGENTS.md"),
        str(project / "AGENTS.md"),
        str(project / "sub/AGENTS.override.md"),
    ]
    assert listings.instruction_blocks(files, "codex", project / "sub") == (
        view.instructions_block,
    )


def test_gemini_cli_sends_the_gemini_md_satchel_loads(runs: dict[str, Any]) -> None:
    view, project, home = _view(runs, "gemini")
    files = _files("gemini", project, home)
    assert [(i.path, i.kind) for i in view.instructions] == [
        (str(f.path), "global" if f.scope == "user" else "project") for f in files
    ]
    user, project_block = listings.instruction_blocks(files, "gemini", project / "sub") or ()
    assert view.system.endswith(user)
    assert project_block in (view.instructions_block or "")
    assert (view.instructions_block or "").endswith(f"{project_block}\n</session_context>")


def test_gemini_cli_and_satchel_inline_imports_alike(runs: dict[str, Any]) -> None:
    view, project, _ = _view(runs, "gemini")
    [root] = [i.text for i in view.instructions if i.path == str(project / "GEMINI.md")]
    missing = project / "missing.md"
    assert root == (
        "Root gemini.\n<!-- Imported from: docs/g.md -->\nImported g.\n"
        "<!-- Imported from: h.md -->\nImported h.\n\n<!-- End of import from: h.md -->\n\n"
        "<!-- End of import from: docs/g.md --> then `@docs/g.md` and "
        "<!-- Import failed: missing.md - ENOENT: no such file or directory, "
        f"access '{missing}' -->\n"
        "<!-- Import failed: ../outside.md - Path traversal attempt -->"
    )

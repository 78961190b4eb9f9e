"""One project for the harness and the context checks (tests/hostloop/test_hostloop.py,
test_context.py), and each pinned host's turn on it.

The project holds Claude Code's agents (`AGENTS`, every shape of a ``tools`` line),
every host's instruction files from the root down to the working folder ``sub``, and
one skill, ``alpha``, in each family's folder of ``sub``. Each host runs once in
``sub`` against the scripted model: Claude Code (both versions) and Gemini CLI make
one tool call, then say "finished"; Codex says it at once. `ran` runs them once per
test run (`tests.hostloop.shared.once`).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests import tools
from tests.hostloop.hosts import Turn, run_claude, run_codex, run_gemini
from tests.hostloop.model import Call, Reply, Text
from tests.hostloop.shared import once
from tests.support import put, skill_md

__all__ = ["AGENTS", "ALPHA", "RUNS", "UNICODE_AGENT", "ran"]

ALPHA = "Alpha helps with alpha."
# name -> (frontmatter lines, where): every shape of a `tools` line, names in every
# collation class, a multi-line and an escaped description, a built-in replaced.
AGENTS = {
    "reviewer": ("description: Reviews code for bugs.\ntools: Read, Grep", "project"),
    "writer": ("description: Writes docs.", "project"),
    "limited": ("description: Everything but edits.\ndisallowedTools: Edit, Write", "project"),
    "both": ("description: Both lists.\ntools: Read, Edit, Bash\ndisallowedTools: Edit", "project"),
    "none-left": ("description: Nothing left.\ntools: Edit\ndisallowedTools: Edit", "project"),
    "star": ('description: Star tools.\ntools: "*"', "project"),
    "listy": ("description: A YAML list.\ntools:\n  - Read\n  - Bash(git diff:*)", "project"),
    "Zeta-Upper": ("description: Upper case name.", "project"),
    "a_under": ("description: Underscore name.", "project"),
    "9lives": ("description: Digit name.", "project"),
    "multi": ("description: |\n  First line.\n  Second line.", "project"),
    "esc": ("description: Line one\\nline two.", "project"),
    "Plan": ("description: The project's own planner.", "project"),
    "dup": ("description: The project's dup.", "project"),
    "helper": ("description: A user helper.\nmodel: haiku", "user"),
    "dup-user": ("name: dup\ndescription: The user's dup.", "user"),
}
UNICODE_AGENT = "ünicode"  # Claude Code lists it; satchel refuses a name outside ASCII


def _agent(name: str, lines: str) -> str:
    head = lines if lines.startswith("name:") else f"name: {name}\n{lines}"
    return f"---\n{head}\n---\nYou are {name}.\n"


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    for name, (lines, where) in AGENTS.items():
        if where == "project":
            put(root, f".claude/agents/{name}.md", _agent(name, lines))
    put(root, ".claude/agents/uni.md", _agent(UNICODE_AGENT, "description: Non-ASCII name."))
    put(root, ".claude/agents/nodesc.md", "---\nname: nodesc\n---\nNo description.\n")
    put(root, "kit/.claude-plugin/plugin.json", '{"name": "kit", "version": "1.0.0"}')
    put(root, "kit/agents/checker.md", _agent("checker", "description: Checks.\ntools: Read"))
    # Claude Code's instruction files, at the root and in sub/ (the working folder)
    put(root, "CLAUDE.md", "Root claude.\n@docs/outside.md\n\n")
    put(root, "docs/outside.md", "Outside the working folder.\n")
    put(root, ".claude/CLAUDE.md", "  Dot claude.\n")
    put(root, ".claude/rules/style.md", "Rule style.\n")
    put(root, ".claude/rules/cond.md", "---\npaths: src/**\n---\nOnly for src.\n")
    put(root, "CLAUDE.local.md", "Local.\n")
    put(root, "sub/CLAUDE.md", "Sub claude.\n@extra.md\n")
    put(root, "sub/extra.md", "Imported.\n")
    put(
        root,
        "sub/.claude/rules/front.md",
        "---\ndescription: a rule\n---\nFront rule.\n@near.txt\n",
    )
    put(root, "sub/.claude/rules/near.txt", "Imported by the rule.\n")  # not a rule: not .md
    # Codex's: the override hides sub/AGENTS.md
    put(root, "AGENTS.md", "Root agents.\n")
    put(root, "sub/AGENTS.override.md", "Sub override.\n")
    put(root, "sub/AGENTS.md", "Hidden by the override.\n")
    # Gemini CLI's
    put(
        root,
        "GEMINI.md",
        "Root gemini.\n@docs/g.md then `@docs/g.md` and @missing.md\n@../outside.md\n",
    )
    put(root, "docs/g.md", "Imported g.\n@h.md\n")
    put(root, "docs/h.md", "Imported h.\n")
    put(root.parent, "outside.md", "Outside the project.\n")
    put(root, "sub/GEMINI.md", "\nSub gemini.\n")
    # one skill in each family's folder of the working folder, for the harness's own checks
    for family in (".claude", ".agents", ".gemini"):
        put(root, f"sub/{family}/skills/alpha/SKILL.md", skill_md("alpha", ALPHA))
    # below the working folder: no host sends these at the start, nor does satchel
    for name in ("CLAUDE.md", "AGENTS.md", "GEMINI.md"):
        put(root, f"sub/deeper/{name}", "Below the working folder.\n")
    return root


def _home(root: Path) -> Path:
    for name, (lines, where) in AGENTS.items():
        if where == "user":
            put(root, f".claude/agents/{name}.md", _agent(name, lines))
    put(root, ".claude/CLAUDE.md", "User claude.\n")
    put(root, ".claude/rules/mine.md", "User rule.\n")
    put(root, ".codex/AGENTS.md", "\nUser agents.\n\n")
    put(root, ".gemini/GEMINI.md", "User gemini.\n")
    return root


RUNS: dict[str, tuple[Callable[[], Path | None], str]] = {
    "claude-code": (tools.claude_code, "claude"),
    "claude-code-next": (tools.claude_code_next, "claude"),
    "codex": (tools.codex, "codex"),
    "gemini": (tools.gemini_cli, "gemini"),
}


def _run(which: str, binary: Path, project: Path, home: Path) -> Turn:
    """`which` in ``project/sub``: one scripted tool call (none for Codex), then "finished"."""
    cwd = project / "sub"
    if RUNS[which][1] == "claude":
        args = ["--plugin-dir", str(project / "kit"), "--allowedTools", "Bash(echo:*)"]
        script: list[Reply] = [Call("Bash", {"command": "echo hostloop-ran"}), Text("finished")]
        return run_claude(binary, cwd, home, "go", script, args=args)
    if which == "codex":
        return run_codex(binary, cwd, home, "go", [Text("finished")])
    shell = Call("run_shell_command", {"command": "echo hostloop > ran.txt"})
    script = [shell, Text("finished")]
    return run_gemini(binary, cwd, home, "go", script, args=["--yolo"])


def ran(factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path], dict[str, Turn]]:
    """The project (resolved), each installed host's home and its turn on the project:
    the hosts run once per test run (`once`), all at once."""

    def make(where: Path) -> dict[str, Turn]:
        base = where.resolve()
        project = _project(base / "project")
        put(base, "CLAUDE.md", "Above the project.\n")  # Claude Code reads it; satchel does not
        jobs = {w: b for w, b in _found().items() if b is not None}
        homes = {w: _home(base / f"home-{w}") for w in jobs}
        with ThreadPoolExecutor(len(jobs) or 1) as pool:
            done = {w: pool.submit(_run, w, b, project, homes[w]) for w, b in jobs.items()}
            return {w: f.result() for w, f in done.items()}

    where, turns = once(factory, "hostloop-project", make)
    base = where.resolve()
    return base / "project", {w: base / f"home-{w}" for w in turns}, turns


def _found() -> dict[str, Path | None]:
    return {w: find() for w, (find, _) in RUNS.items()}

"""`MODES` describes every mode `load_instructions` takes; each mode is a whole rule
on its own, and `load()` takes each by name."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

import satchel
from satchel.kinds._instructions import MODES, InstructionMode, load_instructions
from satchel.session._model import ContextSegment
from tests.support import put, write_tree


def test_the_table_names_every_mode_once() -> None:
    assert tuple(MODES) == get_args(InstructionMode)
    assert all(name == info.name for name, info in MODES.items())
    assert [m for m, info in MODES.items() if info.max_total is not None] == ["codex"]
    assert [m for m, info in MODES.items() if info.conditional] == [
        "claude-code",
        "cursor",
        "copilot",
    ]


# One tree holding every host's files: each mode picks only its own.
TREE = {
    "AGENTS.md": "agents\n",
    "CLAUDE.md": "claude\n",
    "GEMINI.md": "gemini\n",
    "SATCHEL.md": "satchel\n",
    "AGENTS.override.md": "override\n",
    "CLAUDE.local.md": "local\n",
    ".cursorrules": "legacy\n",
    ".claude/rules/r.md": "rule\n",
    ".cursor/rules/r.mdc": "---\nalwaysApply: true\n---\ncursor rule\n",
    ".github/copilot-instructions.md": "copilot\n",
    ".github/instructions/r.instructions.md": "---\napplyTo: '**'\n---\ncopilot rule\n",
}


@pytest.mark.parametrize(
    ("mode", "labels"),
    [
        ("satchel", ["AGENTS.md", "SATCHEL.md"]),
        ("codex", ["AGENTS.override.md"]),
        ("claude-code", ["CLAUDE.md", ".claude/rules/r.md", "CLAUDE.local.md"]),
        ("cursor", [".cursorrules", ".cursor/rules/r.mdc", "AGENTS.md"]),
        ("gemini", ["GEMINI.md"]),
        (
            "copilot",
            [
                ".github/copilot-instructions.md",
                "AGENTS.md",
                "CLAUDE.md",
                "GEMINI.md",
                ".github/instructions/r.instructions.md",
            ],
        ),
    ],
)
def test_each_mode_reads_its_own_files(
    project: Path, layout: satchel.Layout, mode: InstructionMode, labels: list[str]
) -> None:
    write_tree(project, TREE)
    files, diags = load_instructions(layout, mode=mode)
    assert [d.code for d in diags] == (["instructions.replaced"] if mode == "satchel" else [])
    assert [f.label for f in files] == labels


def test_load_takes_a_host_mode_and_the_session_leaves_conditional_rules_out(
    project: Path, home: Path, layout: satchel.Layout
) -> None:
    put(home / ".claude" / "CLAUDE.md", "user\n")
    put(project / ".claude" / "rules" / "api.md", "---\npaths: src/api/**\n---\napi\n")
    env = satchel.load(layout=layout, instructions="claude-code")
    assert [f.label for f in env.instructions] == ["~/.claude/CLAUDE.md", ".claude/rules/api.md"]
    segments = [s for s in satchel.Session(env).context() if s.kind == "instruction"]
    assert segments == [
        ContextSegment(
            "agent.instructions.user:~/.claude/CLAUDE.md",
            "instruction",
            "build",
            "Instructions from ~/.claude/CLAUDE.md:\nuser",
        )
    ]

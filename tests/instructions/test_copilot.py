"""The ``copilot`` mode: Copilot's repository-wide and path-specific instructions,
AGENTS.md, and CLAUDE.md / GEMINI.md at the root."""

from __future__ import annotations

from pathlib import Path

import satchel
from satchel.kinds._instructions import (
    Condition,
    applies_to,
    instruction_segments,
    load_instructions,
)
from tests.support import codes, put, write_tree


def test_every_source_in_order(project: Path, home: Path, walk_layout) -> None:
    write_tree(
        home / ".copilot",
        {
            "copilot-instructions.md": "user\n",
            "instructions/py.instructions.md": "---\napplyTo: '**/*.py'\n---\nuser py\n",
        },
    )
    write_tree(
        project,
        {
            ".github/copilot-instructions.md": "repo-wide\n",
            "AGENTS.md": "agents\n",
            "CLAUDE.md": "claude at the root\n",
            "GEMINI.md": "gemini at the root\n",
            ".github/instructions/ts.instructions.md": "---\napplyTo: 'src/**/*.ts'\n---\nts\n",
            ".github/instructions/notes.md": "not an .instructions.md file\n",
            "pkg/AGENTS.md": "pkg agents\n",
            "pkg/CLAUDE.md": "only at the root\n",
            "pkg/.github/instructions/pkg.instructions.md": "---\napplyTo: '**'\n---\nall\n",
        },
    )
    files, diags = load_instructions(walk_layout("pkg"), mode="copilot")
    assert diags == ()
    assert [(f.scope, f.kind, f.label, f.condition.applies) for f in files] == [
        ("user", "copilot", "~/.copilot/copilot-instructions.md", "always"),
        ("user", "rule", "~/.copilot/instructions/py.instructions.md", "globs"),
        ("project", "copilot", ".github/copilot-instructions.md", "always"),
        ("project", "agents", "AGENTS.md", "always"),
        ("project", "claude", "CLAUDE.md", "always"),
        ("project", "gemini", "GEMINI.md", "always"),
        ("project", "agents", "pkg/AGENTS.md", "always"),
        ("project", "rule", ".github/instructions/ts.instructions.md", "globs"),
        ("project", "rule", "pkg/.github/instructions/pkg.instructions.md", "globs"),
    ]
    assert files[2].directory == project
    user_py, ts, everything = files[1], files[7], files[8]
    assert applies_to(files, project / "src" / "x" / "a.ts") == (ts, everything)
    assert applies_to(files, project / "tool.py") == (user_py, everything)
    assert len(instruction_segments(files)) == 6


def test_apply_to_is_required_for_a_path_specific_file(
    project: Path, layout: satchel.Layout
) -> None:
    folder = project / ".github" / "instructions"
    put(folder / "a.instructions.md", "---\ndescription: Reviews\n---\nno applyTo\n")
    put(folder / "b.instructions.md", "---\napplyTo: [1, 2]\n---\nbad\n")
    files, diags = load_instructions(layout, mode="copilot")
    assert [f.condition for f in files] == [
        Condition("manual", description="Reviews"),
        Condition("manual"),
    ]
    assert codes(diags) == ["instructions.rule.invalid"]
    assert diags[0].message == (
        ".github/instructions/b.instructions.md: `applyTo` is a list, not a glob or a list "
        "of globs: it is left out"
    )


def test_untrusted_project_loads_the_user_files_only(
    project: Path, home: Path, layout: satchel.Layout
) -> None:
    put(home / ".copilot" / "copilot-instructions.md", "user\n")
    put(project / ".github" / "copilot-instructions.md", "repo\n")
    files, _ = load_instructions(layout, mode="copilot", trust_project=False)
    assert [f.label for f in files] == ["~/.copilot/copilot-instructions.md"]

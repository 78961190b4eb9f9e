"""The ``claude-code`` mode's ``@path`` imports, as Claude Code reads them (the real
host is compared in tests/hostloop/test_context.py)."""

from __future__ import annotations

from pathlib import Path

from satchel.kinds._instructions import load_instructions
from satchel.kinds._instructions._claude_imports import claude_imports
from tests.support import put, write_tree


def _labels(walk_layout, *parts: str) -> list[str]:  # type: ignore[no-untyped-def]
    files, _ = load_instructions(walk_layout(*parts), mode="claude-code")
    return [f.label for f in files]


def test_an_import_is_at_a_line_start_or_after_whitespace_outside_code() -> None:
    text = (
        "@a.md and see @b.md\n`@code.md` me@mail.md (@paren.md)\n"
        "```\n@fenced.md\n```\n@./c.md @~/d.md @/abs/e @noext @sp\\ ace.md @/\n"
    )
    assert claude_imports(text) == [
        "a.md", "b.md", "./c.md", "~/d.md", "/abs/e", "noext", "sp ace.md"
    ]  # fmt: skip


def test_imports_follow_their_importer_depth_first_four_levels_deep(
    project: Path, walk_layout
) -> None:
    write_tree(
        project,
        {
            "CLAUDE.md": "root\n@a.md\n@docs/b.md\n@missing.md\n",
            "a.md": "a\n@n1.md\n@docs/b.md\n",
            "n1.md": "n1\n@n2.md\n",
            "n2.md": "n2\n@n3.md\n",
            "n3.md": "n3\n@n4.md\n",
            "n4.md": "five levels down: not read\n",
            "docs/b.md": "b\n",
            "CLAUDE.local.md": "local\n@mine.md\n",
            "mine.md": "mine\n",
        },
    )
    assert _labels(walk_layout) == [
        "CLAUDE.md", "a.md", "n1.md", "n2.md", "n3.md", "docs/b.md", "CLAUDE.local.md", "mine.md"
    ]  # fmt: skip
    files, _ = load_instructions(walk_layout(), mode="claude-code")
    assert [f.kind for f in files][-2:] == ["local", "local"]  # labelled as the importer


def test_a_rules_import_follows_the_rule_and_a_conditional_rule_imports_nothing(
    project: Path, walk_layout
) -> None:
    write_tree(
        project,
        {
            ".claude/rules/a.md": "rule\n@near.txt\n",
            ".claude/rules/near.txt": "near\n",
            ".claude/rules/b.md": "---\npaths: src/**\n---\nlater\n@far.txt\n",
            ".claude/rules/far.txt": "far\n",
        },
    )
    assert _labels(walk_layout) == [
        ".claude/rules/a.md",
        ".claude/rules/near.txt",
        ".claude/rules/b.md",
    ]


def test_a_project_import_outside_the_working_folder_is_named_not_read(
    project: Path, home: Path, walk_layout
) -> None:
    write_tree(project, {"CLAUDE.md": "root\n@docs/x.md\n@~/y.md\n", "docs/x.md": "x\n"})
    put(home / "y.md", "y\n")
    put(project / "sub" / "CLAUDE.md", "sub\n@../docs/x.md\n")
    files, diags = load_instructions(walk_layout("sub"), mode="claude-code")
    assert [f.label for f in files] == ["CLAUDE.md", "sub/CLAUDE.md"]
    assert [(d.code, d.message) for d in diags] == [
        (
            "instructions.imports",
            "CLAUDE.md imports files outside the working folder, which Claude Code reads "
            "only once the user approves them: @docs/x.md, @~/y.md",
        ),
        (
            "instructions.imports",
            "sub/CLAUDE.md imports files outside the working folder, which Claude Code reads "
            "only once the user approves them: @../docs/x.md",
        ),
    ]


def test_the_users_files_import_from_anywhere(home: Path, project: Path, walk_layout) -> None:
    write_tree(home, {".claude/CLAUDE.md": "user\n@~/notes/n.md\n@rel.md\n", "notes/n.md": "n\n"})
    put(home / ".claude" / "rel.md", "rel\n")
    assert _labels(walk_layout) == ["~/.claude/CLAUDE.md", "~/notes/n.md", "~/.claude/rel.md"]

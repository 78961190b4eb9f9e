"""The ``cursor`` mode: ``.cursor/rules/**/*.mdc`` with its four rule types, the
legacy ``.cursorrules``, and AGENTS.md."""

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


def test_the_four_rule_types(project: Path, layout: satchel.Layout) -> None:
    write_tree(
        project / ".cursor" / "rules",
        {
            "always.mdc": "---\nalwaysApply: true\n---\nAlways.\n",
            "auto.mdc": '---\nglobs: "src/**/*.ts, *.md"\nalwaysApply: false\n---\nAuto.\n',
            "agent.mdc": "---\ndescription: When touching the database\n---\nAgent.\n",
            "manual.mdc": "---\ndescription:\nglobs:\nalwaysApply: false\n---\nManual.\n",
            "bare.mdc": "No frontmatter: manual.\n",
            "plain.md": "Ignored: Cursor reads .mdc only.\n",
        },
    )
    files, diags = load_instructions(layout, mode="cursor")
    assert diags == ()
    by_name = {f.path.name: f.condition for f in files}
    assert by_name == {
        "agent.mdc": Condition("description", description="When touching the database"),
        "always.mdc": Condition("always"),
        "auto.mdc": Condition("globs", ("src/**/*.ts", "*.md"), None, project, "glob"),
        "bare.mdc": Condition("manual"),
        "manual.mdc": Condition("manual"),
    }
    assert [s.id for s in instruction_segments(files)] == [
        "agent.instructions.project:.cursor/rules/always.mdc"
    ]
    auto = next(f for f in files if f.path.name == "auto.mdc")
    assert applies_to(files, project / "src" / "a" / "b.ts") == (auto,)
    assert applies_to(files, project / "README.md") == (auto,)
    assert applies_to(files, project / "docs" / "README.md") == ()  # anchored at the root
    assert not next(f for f in files if f.path.name == "agent.mdc").applies_to(project / "a")


def test_legacy_file_rules_then_agents_md(project: Path, walk_layout) -> None:
    write_tree(
        project,
        {
            ".cursorrules": "legacy\n",
            "AGENTS.md": "agents\n",
            "CLAUDE.md": "never in cursor mode\n",
            ".cursor/rules/root.mdc": "---\nalwaysApply: true\n---\nroot\n",
            "web/.cursor/rules/ui.mdc": "---\nglobs: src/*.tsx\n---\nui\n",
            "web/AGENTS.md": "web agents\n",
            "web/.cursorrules": "only the root's is read\n",
        },
    )
    files, diags = load_instructions(walk_layout("web"), mode="cursor")
    assert diags == ()
    assert [(f.kind, f.label) for f in files] == [
        ("legacy", ".cursorrules"),
        ("rule", ".cursor/rules/root.mdc"),
        ("rule", "web/.cursor/rules/ui.mdc"),
        ("agents", "AGENTS.md"),
        ("agents", "web/AGENTS.md"),
    ]
    ui = files[2]
    assert ui.directory == project / "web"
    assert ui.applies_to(project / "web" / "src" / "App.tsx")  # relative to web/
    assert not ui.applies_to(project / "src" / "App.tsx")


def test_no_user_files_and_nothing_when_untrusted(
    project: Path, home: Path, layout: satchel.Layout
) -> None:
    put(home / ".cursor" / "rules" / "mine.mdc", "---\nalwaysApply: true\n---\nmine\n")
    put(project / "AGENTS.md", "agents\n")
    files, _ = load_instructions(layout, mode="cursor", trust_project=False)
    assert files == ()  # Cursor's user rules live in its settings, not in files
    files, _ = load_instructions(layout, mode="cursor")
    assert [f.label for f in files] == ["AGENTS.md"]


def test_fields_of_the_wrong_type(project: Path, layout: satchel.Layout) -> None:
    write_tree(
        project / ".cursor" / "rules",
        {
            "a.mdc": '---\nalwaysApply: "true"\ndescription: db\n---\nquoted true\n',
            "b.mdc": "---\nglobs: 7\ndescription: [1]\n---\nbad types\n",
        },
    )
    files, diags = load_instructions(layout, mode="cursor")
    assert [(f.path.name, f.condition.applies) for f in files] == [
        ("a.mdc", "description"),
        ("b.mdc", "manual"),
    ]
    assert codes(diags) == ["instructions.rule.invalid"] * 3
    assert [d.message for d in diags] == [
        ".cursor/rules/a.mdc: `alwaysApply` is a string, not true or false: taken as false",
        ".cursor/rules/b.mdc: `description` is a list, not text: it is left out",
        ".cursor/rules/b.mdc: `globs` is a number, not a glob or a list of globs: it is left out",
    ]

"""The ``gemini`` mode: GEMINI.md (or the ``context.fileName`` names) from the root
down to cwd after ``~/.gemini/``; ``@`` imports reported, not read."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from satchel.kinds._instructions import gemini_context_names, load_instructions
from tests.support import put, write_tree


def test_user_then_root_down_to_cwd(project: Path, home: Path, walk_layout) -> None:
    put(home / ".gemini" / "GEMINI.md", "user\n")
    write_tree(
        project,
        {
            "GEMINI.md": "root\n",
            "AGENTS.md": "never in gemini mode\n",
            "CLAUDE.md": "never in gemini mode\n",
            "a/GEMINI.md": "a\n",
            "a/b/GEMINI.md": "b\n",
            "other/GEMINI.md": "not on the way\n",
        },
    )
    files, diags = load_instructions(walk_layout("a", "b"), mode="gemini")
    assert diags == ()
    assert [(f.scope, f.kind, f.label) for f in files] == [
        ("user", "gemini", "~/.gemini/GEMINI.md"),
        ("project", "gemini", "GEMINI.md"),
        ("project", "gemini", "a/GEMINI.md"),
        ("project", "gemini", "a/b/GEMINI.md"),
    ]


def test_context_names_rename_the_file(project: Path, home: Path, walk_layout) -> None:
    put(home / ".gemini" / "AGENTS.md", "user agents\n")
    put(project / "AGENTS.md", "root agents\n")
    put(project / "CONTEXT.md", "root context\n")
    put(project / "GEMINI.md", "not read once renamed\n")
    files, _ = load_instructions(
        walk_layout(), mode="gemini", context_names=("AGENTS.md", "CONTEXT.md")
    )
    assert [f.label for f in files] == ["~/.gemini/AGENTS.md", "AGENTS.md", "CONTEXT.md"]


@pytest.mark.parametrize(
    ("value", "names"),
    [
        (None, ("GEMINI.md",)),
        ("AGENTS.md", ("AGENTS.md", "GEMINI.md")),  # Gemini CLI 0.61.0 keeps GEMINI.md
        (["AGENTS.md", "GEMINI.md", "AGENTS.md"], ("AGENTS.md", "GEMINI.md")),
        (["GEMINI.md", "AGENTS.md"], ("GEMINI.md", "AGENTS.md")),
        ([], ("GEMINI.md",)),
        (["../x.md", "a/b.md", "", 3, " ok.md "], ("ok.md", "GEMINI.md")),
        ({"fileName": "x"}, ("GEMINI.md",)),
    ],
)
def test_gemini_context_names(value: object, names: tuple[str, ...]) -> None:
    assert gemini_context_names(value) == names


def test_a_name_that_is_a_path_is_a_caller_bug(layout: satchel.Layout) -> None:
    with pytest.raises(
        ValueError, match=r"context_names must be plain file names, not \('a/b.md',\)"
    ):
        load_instructions(layout, mode="gemini", context_names=("a/b.md",))


def test_imports_are_inlined_as_gemini_cli_inlines_them(
    project: Path, layout: satchel.Layout
) -> None:
    put(project / "docs" / "style.md", "style\n@./deeper.md\n")
    put(project / "docs" / "deeper.md", "deeper\n")
    put(
        project / "GEMINI.md",
        "# Main\n@./docs/style.md\nSee @../shared/rules.md and mail a@b.com.\n"
        "`@./in-code.md`\n```\n@./fenced.md\n```\n@./docs/none.md\n",
    )
    files, diags = load_instructions(layout, mode="gemini")
    assert diags == ()
    assert files[0].text == (
        "# Main\n<!-- Imported from: ./docs/style.md -->\nstyle\n"
        "<!-- Imported from: ./deeper.md -->\ndeeper\n\n<!-- End of import from: ./deeper.md -->"
        "\n\n<!-- End of import from: ./docs/style.md -->\n"
        "See <!-- Import failed: ../shared/rules.md - Path traversal attempt -->"
        " and mail a@b.com.\n"
        "`@./in-code.md`\n```\n@./fenced.md\n```\n"
        "<!-- Import failed: ./docs/none.md - ENOENT: no such file or directory, "
        f"access '{project / 'docs' / 'none.md'}' -->\n"
    )


def test_five_levels_are_inlined_and_a_cycle_is_cut(project: Path, layout: satchel.Layout) -> None:
    put(project / "GEMINI.md", "@a1.md\n")
    for n in range(1, 7):
        put(project / f"a{n}.md", f"a{n} @a{n + 1}.md\n")
    put(project / "loop.md", "loop @loop.md\n")
    text = load_instructions(layout, mode="gemini")[0][0].text
    assert "a5 @a6.md" in text and "a6" not in text.replace("@a6.md", "")
    put(project / "GEMINI.md", "@loop.md\n")
    layout2 = satchel.Layout.default(project, home=layout.home, project=project, env={})
    again = load_instructions(layout2, mode="gemini")[0][0].text
    assert again == (
        "<!-- Imported from: loop.md -->\nloop <!-- File already processed: loop.md -->\n\n"
        "<!-- End of import from: loop.md -->\n"
    )


def test_a_gemini_md_linked_out_of_the_project_is_refused(
    project: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    outside = put(tmp_path / "elsewhere" / "GEMINI.md", "outside\n")
    (project / "GEMINI.md").symlink_to(outside)
    files, diags = load_instructions(layout, mode="gemini")
    assert files == ()
    assert [d.code for d in diags] == ["instructions.read.error"]

"""The ``claude-code`` mode: the CLAUDE.md chain, CLAUDE.local.md, and rules with
``paths:`` as Claude Code 2.1.332 reads them."""

from __future__ import annotations

import os
from pathlib import Path

import satchel
from satchel.kinds._instructions import (
    Condition,
    applies_to,
    instruction_segments,
    load_instructions,
)
from tests.support import codes, put, write_tree


def shown(files: tuple[satchel.InstructionFile, ...]) -> list[tuple[str, str, str, str]]:
    return [(f.scope, f.kind, f.label, f.condition.applies) for f in files]


def test_the_chain_user_then_each_directory_root_first(
    project: Path, home: Path, walk_layout
) -> None:
    write_tree(
        home,
        {".claude/CLAUDE.md": "user\n", ".claude/rules/tone.md": "be brief\n"},
    )
    write_tree(
        project,
        {
            "CLAUDE.md": "root\n",
            ".claude/CLAUDE.md": "root hidden\n",  # both are read: neither hides the other
            "AGENTS.md": "never in claude-code mode\n",
            "CLAUDE.local.md": "mine\n",
            ".claude/rules/testing.md": "run pytest\n",
            "a/CLAUDE.md": "a\n",
            "a/b/CLAUDE.local.md": "b mine\n",
            "elsewhere/CLAUDE.md": "not on the way to cwd\n",
        },
    )
    files, diags = load_instructions(walk_layout("a", "b"), mode="claude-code")
    assert diags == ()
    assert shown(files) == [
        ("user", "claude", "~/.claude/CLAUDE.md", "always"),
        ("user", "rule", "~/.claude/rules/tone.md", "always"),
        ("project", "claude", "CLAUDE.md", "always"),
        ("project", "claude", ".claude/CLAUDE.md", "always"),
        ("project", "rule", ".claude/rules/testing.md", "always"),
        ("project", "local", "CLAUDE.local.md", "always"),
        ("project", "claude", "a/CLAUDE.md", "always"),
        ("project", "local", "a/b/CLAUDE.local.md", "always"),
    ]
    assert files[1].directory == home
    assert files[4].directory == project


def test_rules_are_read_recursively_in_name_order(project: Path, layout: satchel.Layout) -> None:
    write_tree(
        project / ".claude" / "rules",
        {
            "b.md": "b\n",
            "a/z.md": "a/z\n",
            "a/inner/y.md": "a/inner/y\n",
            "c.txt": "not a rule\n",
            "d.md.bak": "not a rule\n",
        },
    )
    files, diags = load_instructions(layout, mode="claude-code")
    assert diags == ()
    assert [f.label for f in files] == [
        ".claude/rules/a/inner/y.md",
        ".claude/rules/a/z.md",
        ".claude/rules/b.md",
    ]


def test_paths_make_a_rule_conditional(project: Path, layout: satchel.Layout) -> None:
    put(
        project / ".claude" / "rules" / "api.md",
        '---\npaths:\n  - "src/api/**/*.ts"\n  - "lib/**"\n---\n# API\nValidate input.\n',
    )
    put(project / ".claude" / "rules" / "ts.md", '---\npaths: "*.{ts,tsx}, docs/"\n---\nTS.\n')
    files, diags = load_instructions(layout, mode="claude-code")
    assert diags == ()
    api, ts = files
    assert api.text == "# API\nValidate input.\n"  # the frontmatter is not part of the text
    assert api.condition == Condition(
        "globs", ("src/api/**/*.ts", "lib"), None, project, "gitignore"
    )
    assert ts.condition.globs == ("*.{ts,tsx}", "docs/")
    assert instruction_segments(files) == ()  # conditional: not in the prompt from the start
    assert applies_to(files, project / "src" / "api" / "v1" / "users.ts") == (api, ts)
    assert applies_to(files, project / "lib" / "deep" / "x.py") == (api,)
    assert applies_to(files, "web/App.tsx") == (ts,)  # relative: to the project
    assert applies_to(files, project / "docs" / "a.md") == (ts,)
    assert applies_to(files, project / "README.md") == ()
    assert applies_to(files, project.parent / "other" / "a.ts") == ()  # outside: never


def test_paths_that_cover_everything_are_unconditional(
    project: Path, layout: satchel.Layout
) -> None:
    put(project / ".claude" / "rules" / "all.md", '---\npaths: "**"\n---\neverywhere\n')
    put(project / ".claude" / "rules" / "empty.md", "---\npaths: []\n---\nalso everywhere\n")
    put(project / ".claude" / "rules" / "desc.md", "---\ndescription: x\n---\nno paths\n")
    files, diags = load_instructions(layout, mode="claude-code")
    assert diags == ()
    assert [f.condition.applies for f in files] == ["always"] * 3
    assert [s.text for s in instruction_segments(files)] == [
        "Instructions from .claude/rules/all.md:\neverywhere",
        "Instructions from .claude/rules/desc.md:\nno paths",
        "Instructions from .claude/rules/empty.md:\nalso everywhere",
    ]


def test_a_user_rule_matches_relative_to_cwd(home: Path, walk_layout) -> None:
    put(home / ".claude" / "rules" / "py.md", "---\npaths: ['*.py']\n---\npython\n")
    layout = walk_layout("pkg")
    files, _ = load_instructions(layout, mode="claude-code")
    assert files[0].condition.base == layout.cwd
    assert files[0].applies_to(layout.cwd / "x" / "a.py")
    assert not files[0].applies_to(layout.project / "a.py")  # above cwd


def test_a_nested_directory_rule_matches_relative_to_its_directory(
    project: Path, walk_layout
) -> None:
    put(project / "web" / ".claude" / "rules" / "ui.md", "---\npaths: /src/*.tsx\n---\nui\n")
    files, _ = load_instructions(walk_layout("web"), mode="claude-code")
    (ui,) = files
    assert ui.directory == project / "web"
    assert ui.applies_to(project / "web" / "src" / "App.tsx")
    assert not ui.applies_to(project / "src" / "App.tsx")


def test_bad_frontmatter_is_reported_and_the_rule_not_loaded(
    project: Path, layout: satchel.Layout
) -> None:
    put(project / ".claude" / "rules" / "bad.md", "---\npaths: [unclosed\n---\nbody\n")
    put(project / ".claude" / "rules" / "open.md", "---\npaths: x\nno end\n")
    put(project / ".claude" / "rules" / "good.md", "fine\n")
    files, diags = load_instructions(layout, mode="claude-code")
    assert [f.label for f in files] == [".claude/rules/good.md"]
    assert codes(diags) == ["instructions.rule.invalid"] * 2
    bad, unterminated = diags
    assert bad.path == project / ".claude" / "rules" / "bad.md"
    assert bad.severity == "warning"
    assert bad.message.startswith(".claude/rules/bad.md: its frontmatter cannot be read (")
    assert bad.message.endswith("); it was not loaded")
    assert unterminated.message.startswith(".claude/rules/open.md: its frontmatter cannot")


def test_paths_of_the_wrong_type_apply_always_as_in_claude_code(
    project: Path, layout: satchel.Layout
) -> None:
    put(project / ".claude" / "rules" / "n.md", "---\npaths: 3\n---\nnumber\n")
    files, diags = load_instructions(layout, mode="claude-code")
    assert [f.condition.applies for f in files] == ["always"]
    assert [(d.code, d.message) for d in diags] == [
        (
            "instructions.rule.invalid",
            ".claude/rules/n.md: `paths` is a number, not a glob or a list of globs: "
            "it applies always, as in Claude Code",
        )
    ]


def test_symlinked_rules_are_followed_and_a_loop_is_visited_once(
    project: Path, layout: satchel.Layout
) -> None:
    shared = put(project / "shared" / "style.md", "shared style\n")
    rules = project / ".claude" / "rules"
    put(rules / "own.md", "own\n")
    (rules / "linked.md").symlink_to(shared)
    (rules / "more").symlink_to(project / "shared")  # a symlinked directory
    (rules / "loop").symlink_to(rules)  # a loop back to the rules folder
    files, diags = load_instructions(layout, mode="claude-code")
    assert diags == ()
    assert [f.label for f in files] == [".claude/rules/linked.md", ".claude/rules/own.md"]
    assert files[0].text == "shared style\n"  # more/style.md is the same file: read once


def test_a_rule_linked_out_of_the_project_is_refused(
    project: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    secret = put(tmp_path / "outside" / "secret.md", "secret\n")
    rules = project / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "leak.md").symlink_to(secret)
    (rules / "dir").symlink_to(secret.parent)
    files, diags = load_instructions(layout, mode="claude-code")
    assert files == ()
    real = os.path.realpath(secret.parent)
    assert [(d.code, d.message) for d in diags] == [
        (
            "instructions.read.error",
            f"cannot read .claude/rules/dir: a symlink to {real}, outside the project",
        ),
        (
            "instructions.read.error",
            f"cannot read .claude/rules/leak.md: a symlink to {real}/secret.md, "
            "outside the project",
        ),
    ]


def test_a_user_rule_may_link_into_a_dotfiles_checkout(
    home: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    put(tmp_path / "dotfiles" / "rules" / "mine.md", "mine\n")
    (home / ".claude").mkdir()
    (home / ".claude" / "rules").symlink_to(tmp_path / "dotfiles" / "rules")
    files, diags = load_instructions(layout, mode="claude-code")
    assert diags == ()
    assert [(f.label, f.text) for f in files] == [("~/.claude/rules/mine.md", "mine\n")]


def test_a_huge_rule_is_refused_and_the_rest_load(project: Path, layout: satchel.Layout) -> None:
    put(project / ".claude" / "rules" / "big.md", "x" * 101)
    put(project / ".claude" / "rules" / "small.md", "ok\n")
    files, diags = load_instructions(layout, mode="claude-code", max_file=100)
    assert [f.label for f in files] == [".claude/rules/small.md"]
    assert [d.message for d in diags] == [
        "cannot read .claude/rules/big.md: 101 bytes, more than the 100-byte cap"
    ]


def test_untrusted_project_loads_the_user_files_only(
    project: Path, home: Path, layout: satchel.Layout
) -> None:
    put(home / ".claude" / "CLAUDE.md", "user\n")
    put(project / "CLAUDE.md", "project\n")
    put(project / ".claude" / "rules" / "r.md", "rule\n")
    files, _ = load_instructions(layout, mode="claude-code", trust_project=False)
    assert [f.label for f in files] == ["~/.claude/CLAUDE.md"]


def test_a_project_at_home_reads_the_user_files_once(home: Path) -> None:
    put(home / ".claude" / "CLAUDE.md", "user\n")
    put(home / ".claude" / "rules" / "r.md", "rule\n")
    layout = satchel.Layout.default(home, home=home, project=home, env={})
    files, diags = load_instructions(layout, mode="claude-code")
    assert diags == ()
    assert [(f.scope, f.label) for f in files] == [
        ("user", "~/.claude/CLAUDE.md"),
        ("user", "~/.claude/rules/r.md"),
    ]


def test_to_json_names_the_condition(project: Path, layout: satchel.Layout) -> None:
    put(project / ".claude" / "rules" / "api.md", "---\npaths: src/**\n---\napi\n")
    files, _ = load_instructions(layout, mode="claude-code")
    assert files[0].to_json() == {
        "path": str(project / ".claude" / "rules" / "api.md"),
        "label": ".claude/rules/api.md",
        "scope": "project",
        "kind": "rule",
        "directory": str(project),
        "truncated": False,
        "text": "api\n",
        "condition": {
            "applies": "globs",
            "globs": ["src"],
            "description": None,
            "base": str(project),
        },
    }


def test_a_rules_folder_past_the_file_bound_is_cut_and_said(
    project: Path, layout: satchel.Layout, monkeypatch
) -> None:
    import satchel.kinds._instructions._read as _read

    monkeypatch.setattr(_read, "MAX_RULES", 2)
    for name in ("a.md", "b.md", "c.md", "d.md"):
        put(project / ".claude" / "rules" / name, f"{name}\n")
    files, diags = load_instructions(layout, mode="claude-code")
    assert [f.label for f in files] == [".claude/rules/a.md", ".claude/rules/b.md"]
    assert [(d.code, d.message) for d in diags] == [
        (
            "instructions.truncated",
            ".claude/rules holds more than 2 rule files: the ones after "
            ".claude/rules/b.md were not read",
        )
    ]


def test_a_rule_that_is_a_symlink_loop_is_reported(project: Path, layout: satchel.Layout) -> None:
    rules = project / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "self.md").symlink_to("self.md")
    put(rules / "z.md", "still read\n")
    files, diags = load_instructions(layout, mode="claude-code")
    assert [f.label for f in files] == [".claude/rules/z.md"]
    assert [(d.code, d.message) for d in diags] == [
        ("instructions.read.error", "cannot read .claude/rules/self.md: a symlink loop")
    ]

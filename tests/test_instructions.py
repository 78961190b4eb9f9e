"""Instruction files: mermaid's AGENTS.md / CLAUDE.md / client-file rules, Codex's walk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import satchel
from satchel.core.diagnostics import Diagnostic
from satchel.kinds._instructions import InstructionFile, instruction_segments, load_instructions
from satchel.session._model import ContextSegment
from tests.support import put


def shown(files: tuple[InstructionFile, ...]) -> list[tuple[str, str, str]]:
    return [(f.scope, f.kind, f.label) for f in files]


def only(diags: tuple[Diagnostic, ...]) -> Diagnostic:
    assert len(diags) == 1, diags
    return diags[0]


def walk_layout(project: Path, home: Path, *parts: str, **kw: object) -> satchel.Layout:
    cwd = project.joinpath(*parts)
    cwd.mkdir(parents=True, exist_ok=True)
    return satchel.Layout.default(cwd, home=home, project=project, env={}, **kw)  # type: ignore[arg-type]


# satchel: one directory


def test_agents_md_only(project: Path, layout: satchel.Layout) -> None:
    put(project / "AGENTS.md", "Use tabs.\n")
    files, diags = load_instructions(layout)
    assert diags == ()
    assert files == (
        InstructionFile(
            project / "AGENTS.md", "project", "agents", project, "Use tabs.\n", "AGENTS.md"
        ),
    )


def test_claude_md_only(project: Path, layout: satchel.Layout) -> None:
    put(project / "CLAUDE.md", "Claude rules.\n")
    files, diags = load_instructions(layout)
    assert diags == ()
    assert shown(files) == [("project", "claude", "CLAUDE.md")]
    assert files[0].text == "Claude rules.\n"


def test_dot_claude_claude_md_only(project: Path, layout: satchel.Layout) -> None:
    put(project / ".claude" / "CLAUDE.md", "Hidden rules.\n")
    files, diags = load_instructions(layout)
    assert diags == ()
    assert shown(files) == [("project", "claude", ".claude/CLAUDE.md")]
    assert files[0].directory == project


def test_claude_md_before_dot_claude(project: Path, layout: satchel.Layout) -> None:
    put(project / "CLAUDE.md", "top\n")
    put(project / ".claude" / "CLAUDE.md", "hidden\n")
    files, diags = load_instructions(layout)
    assert diags == ()
    assert shown(files) == [("project", "claude", "CLAUDE.md")]


def test_agents_md_replaces_claude_md(project: Path, layout: satchel.Layout) -> None:
    put(project / "AGENTS.md", "agents\n")
    put(project / "CLAUDE.md", "claude\n")
    files, diags = load_instructions(layout)
    assert shown(files) == [("project", "agents", "AGENTS.md")]
    d = only(diags)
    assert (d.code, d.severity, d.path) == ("instructions.replaced", "info", project / "CLAUDE.md")
    assert d.message == "CLAUDE.md was not read because AGENTS.md is there"
    assert d.hint == "AGENTS.md is read in its place; keep the two in step"


def test_agents_md_replaces_dot_claude(project: Path, layout: satchel.Layout) -> None:
    put(project / "AGENTS.md", "agents\n")
    put(project / ".claude" / "CLAUDE.md", "claude\n")
    files, diags = load_instructions(layout)
    assert shown(files) == [("project", "agents", "AGENTS.md")]
    assert only(diags).message == ".claude/CLAUDE.md was not read because AGENTS.md is there"


def test_empty_agents_md_still_stands_for_the_directory(
    project: Path, layout: satchel.Layout
) -> None:
    put(project / "AGENTS.md", " \n\n")
    put(project / "CLAUDE.md", "claude\n")
    files, diags = load_instructions(layout)
    assert files == ()
    assert only(diags).code == "instructions.replaced"


def test_unreadable_agents_md_falls_back_to_claude_md(
    project: Path, layout: satchel.Layout
) -> None:
    put(project / "AGENTS.md", b"\xff\n")
    put(project / "CLAUDE.md", "claude\n")
    files, diags = load_instructions(layout)
    assert shown(files) == [("project", "claude", "CLAUDE.md")]
    assert [d.code for d in diags] == ["instructions.read.error"]


# satchel: the client's file, the user level, the walk


def test_client_file_loads_last(project: Path, home: Path, layout: satchel.Layout) -> None:
    put(project / "SATCHEL.md", "mine\n")
    put(project / "AGENTS.md", "agents\n")
    put(home / ".config" / "satchel" / "SATCHEL.md", "user mine\n")
    put(home / ".config" / "satchel" / "AGENTS.md", "user agents\n")
    files, diags = load_instructions(layout)
    assert diags == ()
    assert shown(files) == [
        ("user", "agents", "~/.config/satchel/AGENTS.md"),
        ("project", "agents", "AGENTS.md"),
        ("user", "client", "~/.config/satchel/SATCHEL.md"),
        ("project", "client", "SATCHEL.md"),
    ]


def test_client_file_named_for_the_client(project: Path, home: Path) -> None:
    put(project / "MERMAID.md", "mermaid\n")
    put(project / "SATCHEL.md", "not for mermaid\n")
    put(home / ".config" / "mermaid" / "MERMAID.md", "user mermaid\n")
    put(project / "CLAUDE.md", "claude\n")
    layout = satchel.Layout.default(project, client="mermaid", home=home, env={})
    files, diags = load_instructions(layout)
    assert diags == ()
    assert shown(files) == [
        ("project", "claude", "CLAUDE.md"),
        ("user", "client", "~/.config/mermaid/MERMAID.md"),
        ("project", "client", "MERMAID.md"),
    ]


def test_user_level_agents_md_replaces_the_claude_home_file(
    home: Path, layout: satchel.Layout
) -> None:
    put(home / ".config" / "satchel" / "AGENTS.md", "user agents\n")
    put(home / ".claude" / "CLAUDE.md", "user claude\n")
    files, diags = load_instructions(layout)
    assert shown(files) == [("user", "agents", "~/.config/satchel/AGENTS.md")]
    assert files[0].directory == home / ".config" / "satchel"
    d = only(diags)
    assert (d.code, d.path) == ("instructions.replaced", home / ".claude" / "CLAUDE.md")
    assert d.message == (
        "~/.claude/CLAUDE.md was not read because ~/.config/satchel/AGENTS.md is there"
    )


def test_user_level_claude_files(home: Path, layout: satchel.Layout) -> None:
    put(home / ".claude" / "CLAUDE.md", "user claude\n")
    files, diags = load_instructions(layout)
    assert diags == ()
    assert shown(files) == [("user", "claude", "~/.claude/CLAUDE.md")]
    assert files[0].directory == home
    put(home / ".config" / "satchel" / "CLAUDE.md", "config claude\n")
    files, _ = load_instructions(layout)
    assert shown(files) == [("user", "claude", "~/.config/satchel/CLAUDE.md")]


def test_project_at_home_does_not_reread_user_files(home: Path) -> None:
    put(home / ".claude" / "CLAUDE.md", "user claude\n")
    put(home / "AGENTS.md", "home project\n")
    layout = satchel.Layout.default(home, home=home, project=home, env={})
    files, diags = load_instructions(layout)
    assert diags == ()
    assert shown(files) == [
        ("user", "claude", "~/.claude/CLAUDE.md"),
        ("project", "agents", "AGENTS.md"),
    ]


def test_ancestors_walk_root_down_to_cwd(project: Path, home: Path) -> None:
    put(project / "AGENTS.md", "root\n")
    put(project / "a" / "CLAUDE.md", "a\n")
    put(project / "a" / "b" / "AGENTS.md", "b\n")
    put(project / "a" / "b" / "SATCHEL.md", "b mine\n")
    put(project / "SATCHEL.md", "root mine\n")
    files, diags = load_instructions(walk_layout(project, home, "a", "b", ancestors=True))
    assert diags == ()
    assert shown(files) == [
        ("project", "agents", "AGENTS.md"),
        ("project", "claude", "a/CLAUDE.md"),
        ("project", "agents", "a/b/AGENTS.md"),
        ("project", "client", "SATCHEL.md"),
        ("project", "client", "a/b/SATCHEL.md"),
    ]
    files, _ = load_instructions(walk_layout(project, home, "a", "b"))
    assert shown(files) == [
        ("project", "agents", "AGENTS.md"),
        ("project", "client", "SATCHEL.md"),
    ]


def test_trust_project_false_keeps_user_files(
    project: Path, home: Path, layout: satchel.Layout
) -> None:
    put(project / "AGENTS.md", "project\n")
    put(project / "SATCHEL.md", "project mine\n")
    put(home / ".config" / "satchel" / "AGENTS.md", "user\n")
    put(home / ".codex" / "AGENTS.md", "codex user\n")
    files, diags = load_instructions(layout, trust_project=False)
    assert diags == ()
    assert shown(files) == [("user", "agents", "~/.config/satchel/AGENTS.md")]
    files, diags = load_instructions(layout, mode="codex", trust_project=False)
    assert diags == ()
    assert shown(files) == [("user", "agents", "~/.codex/AGENTS.md")]


# codex


def test_codex_global_override_wins(home: Path, layout: satchel.Layout) -> None:
    put(home / ".codex" / "AGENTS.md", "global\n")
    put(home / ".codex" / "AGENTS.override.md", "override\n")
    files, _ = load_instructions(layout, mode="codex")
    assert shown(files) == [("user", "override", "~/.codex/AGENTS.override.md")]
    assert files[0].text == "override\n"


def test_codex_global_empty_override_is_skipped(home: Path, layout: satchel.Layout) -> None:
    put(home / ".codex" / "AGENTS.md", "global\n")
    put(home / ".codex" / "AGENTS.override.md", "\n  \n")
    files, diags = load_instructions(layout, mode="codex")
    assert diags == ()
    assert shown(files) == [("user", "agents", "~/.codex/AGENTS.md")]


def test_codex_project_walk(project: Path, home: Path) -> None:
    put(project / "AGENTS.md", "root\n")
    put(project / "AGENTS.override.md", "root override\n")
    put(project / "CLAUDE.md", "never in codex mode\n")
    put(project / "SATCHEL.md", "never in codex mode\n")
    put(project / "a" / "AGENTS.md", "a\n")
    put(project / "a" / "b" / "AGENTS.override.md", "")  # empty: skipped, hides AGENTS.md
    put(project / "a" / "b" / "AGENTS.md", "b\n")
    put(project / "a" / "b" / "c" / "AGENTS.md", "c\n")
    put(project / "elsewhere" / "AGENTS.md", "not on the way to cwd\n")
    layout = walk_layout(project, home, "a", "b", "c")  # codex walks without ancestors=True
    files, diags = load_instructions(layout, mode="codex")
    assert diags == ()
    assert shown(files) == [
        ("project", "override", "AGENTS.override.md"),
        ("project", "agents", "a/AGENTS.md"),
        ("project", "agents", "a/b/c/AGENTS.md"),
    ]


def test_codex_cap_cuts_at_a_character_boundary(project: Path, home: Path) -> None:
    put(home / ".codex" / "AGENTS.md", "g" * 40_000)  # the global file is not counted
    put(project / "AGENTS.md", "a" * 20_000)
    put(project / "sub" / "AGENTS.md", "b" * 12_767 + "é" + "c" * 100)
    put(project / "sub" / "deeper" / "AGENTS.override.md", "never read\n")
    put(project / "sub" / "deeper" / "cwd" / "AGENTS.md", "never read\n")
    layout = walk_layout(project, home, "sub", "deeper", "cwd")
    files, diags = load_instructions(layout, mode="codex")
    assert shown(files) == [
        ("user", "agents", "~/.codex/AGENTS.md"),
        ("project", "agents", "AGENTS.md"),
        ("project", "agents", "sub/AGENTS.md"),
    ]
    assert files[2].text == "b" * 12_767
    assert [f.truncated for f in files] == [False, False, True]
    d = only(diags)
    assert (d.code, d.severity, d.path) == (
        "instructions.truncated",
        "warning",
        project / "sub" / "AGENTS.md",
    )
    assert d.message == (
        "instruction files passed the 32768-byte cap: sub/AGENTS.md was cut after "
        "12767 of 12869 bytes (102 left out); 2 later files not read: "
        "sub/deeper/AGENTS.override.md, sub/deeper/cwd/AGENTS.md"
    )


def test_codex_cap_reached_exactly(project: Path, home: Path) -> None:
    put(project / "AGENTS.md", "abc\n")
    put(project / "sub" / "AGENTS.md", "never read\n")
    files, diags = load_instructions(walk_layout(project, home, "sub"), mode="codex", max_total=4)
    assert shown(files) == [("project", "agents", "AGENTS.md")]
    assert [f.truncated for f in files] == [False]
    d = only(diags)
    assert d.path == project / "sub" / "AGENTS.md"
    assert d.message == (
        "instruction files reached the 4-byte cap: 1 later file not read: sub/AGENTS.md"
    )


def test_codex_cap_counts_the_raw_bytes_bom_and_cr_included(project: Path, home: Path) -> None:
    """As Codex does (tests/checkup/test_instructions.py runs it on such files)."""
    put(project / "AGENTS.md", b"\xef\xbb\xbfab\r\ncd\r\n")  # 11 bytes, 6 once BOM and CR go
    layout = walk_layout(project, home)
    files, diags = load_instructions(layout, mode="codex", max_total=11)
    assert (diags, files[0].text, files[0].size) == ((), "ab\ncd\n", 11)
    files, diags = load_instructions(layout, mode="codex", max_total=6)
    assert (files[0].text, files[0].size, files[0].truncated) == ("ab\r", 6, True)
    assert [d.message for d in diags] == [
        "instruction files passed the 6-byte cap: AGENTS.md was cut after 6 of 11 bytes "
        "(5 left out)"
    ]


# bad files: each reported, none blocks, the next candidate is tried


def test_fifo_is_refused_without_blocking(project: Path, layout: satchel.Layout) -> None:
    os.mkfifo(project / "AGENTS.md")
    put(project / "CLAUDE.md", "claude\n")
    files, diags = load_instructions(layout)
    assert shown(files) == [("project", "claude", "CLAUDE.md")]
    d = only(diags)
    assert (d.code, d.severity, d.path) == (
        "instructions.read.error",
        "error",
        project / "AGENTS.md",
    )
    assert d.message == "cannot read AGENTS.md: not a regular file"


def test_directory_named_agents_md(project: Path, layout: satchel.Layout) -> None:
    (project / "AGENTS.md").mkdir()
    put(project / "SATCHEL.md", "mine\n")
    files, diags = load_instructions(layout)
    assert shown(files) == [("project", "client", "SATCHEL.md")]
    assert only(diags).message == "cannot read AGENTS.md: not a regular file"


def test_codex_bad_override_falls_to_agents_md(project: Path, home: Path) -> None:
    (project / "AGENTS.override.md").mkdir()
    put(project / "AGENTS.md", "agents\n")
    files, diags = load_instructions(walk_layout(project, home), mode="codex")
    assert shown(files) == [("project", "agents", "AGENTS.md")]
    assert only(diags).message == "cannot read AGENTS.override.md: not a regular file"


def test_too_large(project: Path, home: Path, layout: satchel.Layout) -> None:
    put(project / "AGENTS.md", "x" * 11)
    put(home / ".claude" / "CLAUDE.md", "y" * 10)
    files, diags = load_instructions(layout, max_file=10)
    assert shown(files) == [("user", "claude", "~/.claude/CLAUDE.md")]
    d = only(diags)
    assert d.code == "instructions.read.error"
    assert d.message == "cannot read AGENTS.md: 11 bytes, more than the 10-byte cap"
    assert d.hint == "shorten it, or split it across directories"


def test_not_utf8(project: Path, layout: satchel.Layout) -> None:
    put(project / "AGENTS.md", b"\xef\xbb\xbfok\nbad \xff here\n")
    files, diags = load_instructions(layout)
    assert files == ()
    d = only(diags)
    assert d.code == "instructions.read.error"
    assert d.message == "cannot read AGENTS.md: not UTF-8: an invalid byte at byte offset 10"
    assert (d.line, d.hint) == (2, "save the file as UTF-8 text")


def test_nul_byte(project: Path, layout: satchel.Layout) -> None:
    put(project / "AGENTS.md", b"ok\x00")
    files, diags = load_instructions(layout)
    assert files == ()
    assert only(diags).message == "cannot read AGENTS.md: a NUL byte at byte offset 2"


def test_symlink_loop(project: Path, layout: satchel.Layout) -> None:
    (project / "AGENTS.md").symlink_to("AGENTS.md")
    put(project / ".claude" / "CLAUDE.md", "claude\n")
    files, diags = load_instructions(layout)
    assert shown(files) == [("project", "claude", ".claude/CLAUDE.md")]
    d = only(diags)
    assert (d.code, d.message) == (
        "instructions.read.error",
        "cannot read AGENTS.md: a symlink loop",
    )


def test_dangling_symlink(project: Path, layout: satchel.Layout) -> None:
    (project / "CLAUDE.md").symlink_to("gone.md")
    files, diags = load_instructions(layout)
    assert files == ()
    assert only(diags).message == "cannot read CLAUDE.md: a symlink to nothing"


def test_bom_stripped_and_crlf_normalised(project: Path, layout: satchel.Layout) -> None:
    put(project / "AGENTS.md", b"\xef\xbb\xbfone\r\ntwo\rthree\r\n")
    files, _ = load_instructions(layout)
    assert files[0].text == "one\ntwo\rthree\n"


# symlinks: followed, read once


def test_claude_md_symlinked_to_agents_md_is_read_once(
    project: Path, layout: satchel.Layout
) -> None:
    put(project / "AGENTS.md", "shared\n")
    (project / "CLAUDE.md").symlink_to("AGENTS.md")
    files, diags = load_instructions(layout)
    assert diags == ()  # the same file: nothing was left out
    assert shown(files) == [("project", "agents", "AGENTS.md")]


def test_symlink_into_parent_is_read_once(project: Path, home: Path) -> None:
    put(project / "AGENTS.md", "shared\n")
    put(project / "sub" / "CLAUDE.md", "")
    (project / "sub" / "CLAUDE.md").unlink()
    (project / "sub" / "CLAUDE.md").symlink_to("../AGENTS.md")
    put(project / "sub" / ".claude" / "CLAUDE.md", "not read: CLAUDE.md stands here\n")
    files, diags = load_instructions(walk_layout(project, home, "sub", ancestors=True))
    assert diags == ()
    assert shown(files) == [("project", "agents", "AGENTS.md")]


def test_symlinked_file_inside_the_project_is_followed(
    project: Path, layout: satchel.Layout
) -> None:
    put(project / "docs" / "rules.md", "shared rules\n")
    (project / "AGENTS.md").symlink_to(project / "docs" / "rules.md")
    files, diags = load_instructions(layout)
    assert diags == ()
    assert files[0].text == "shared rules\n"
    assert files[0].path == project / "AGENTS.md"


def test_a_project_symlink_out_of_the_project_is_refused(
    project: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    outside = put(tmp_path / "shared" / "rules.md", "outside\n")
    (project / "AGENTS.md").symlink_to(outside)
    files, diags = load_instructions(layout)
    assert files == ()
    assert [(d.code, d.message) for d in diags] == [
        (
            "instructions.read.error",
            f"cannot read AGENTS.md: a symlink to {outside}, outside the project",
        )
    ]


def test_a_user_file_may_link_into_a_dotfiles_checkout(
    home: Path, tmp_path: Path, layout: satchel.Layout
) -> None:
    rules = put(tmp_path / "dotfiles" / "CLAUDE.md", "mine\n")
    (home / ".claude").mkdir()
    (home / ".claude" / "CLAUDE.md").symlink_to(rules)
    files, diags = load_instructions(layout)
    assert diags == ()
    assert [f.text for f in files] == ["mine\n"]


# segments and JSON


def test_segments_exact(project: Path, home: Path, layout: satchel.Layout) -> None:
    put(home / ".claude" / "CLAUDE.md", "\n\nBe brief.\n\n")
    put(project / "AGENTS.md", "Run the tests.\n  - indented\n")
    put(project / "SATCHEL.md", "Satchel only.")
    files, _ = load_instructions(layout)
    assert instruction_segments(files) == (
        ContextSegment(
            "agent.instructions.user:~/.claude/CLAUDE.md",
            "instruction",
            "build",
            "Instructions from ~/.claude/CLAUDE.md:\nBe brief.",
        ),
        ContextSegment(
            "agent.instructions.project:AGENTS.md",
            "instruction",
            "build",
            "Instructions from AGENTS.md:\nRun the tests.\n  - indented",
        ),
        ContextSegment(
            "agent.instructions.project:SATCHEL.md",
            "instruction",
            "build",
            "Instructions from SATCHEL.md:\nSatchel only.",
        ),
    )
    assert instruction_segments(()) == ()


def test_to_json(project: Path, layout: satchel.Layout) -> None:
    put(project / ".claude" / "CLAUDE.md", "rules\n")
    files, _ = load_instructions(layout)
    assert files[0].to_json() == {
        "path": str(project / ".claude" / "CLAUDE.md"),
        "label": ".claude/CLAUDE.md",
        "scope": "project",
        "kind": "claude",
        "directory": str(project),
        "truncated": False,
        "text": "rules\n",
    }


def test_unknown_mode_is_a_caller_bug(layout: satchel.Layout) -> None:
    modes = "satchel, codex, claude-code, cursor, gemini, copilot"
    with pytest.raises(ValueError, match=f"mode must be one of {modes}, not 'vibe'"):
        load_instructions(layout, mode="vibe")  # type: ignore[arg-type]

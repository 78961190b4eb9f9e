"""P03 and P04 at discovery: symlinked SKILL.md files and skill directories, and loops."""

from __future__ import annotations

import os

import pytest

from satchel import WalkBounds

from .build import NESTED, SIBLING, about, only, write_sibling
from .cases import (
    p03_alias_of_skill_dir,
    p03_dangling_skill_dir,
    p03_dangling_skill_md,
    p03_escape_outside,
    p03_escape_through_dir_link,
    p03_escape_to_other_skill,
    p03_link_inside,
    p03_linked_skill_dir,
    p04_cycle_inside_skill,
    p04_root_loops,
    p04_skill_md_pair_loop,
    p04_skill_md_self_loop,
)


@pytest.fixture
def opened(monkeypatch) -> list[str]:
    """The real path of every file os.open actually opened while the test runs."""
    paths: list[str] = []
    real = os.open

    def open_(path, flags, *args, **kwargs):
        fd = real(path, flags, *args, **kwargs)
        paths.append(os.path.realpath(path))
        return fd

    monkeypatch.setattr(os, "open", open_)
    return paths


ESCAPES = {
    "outside-every-root": (p03_escape_outside, lambda t: t.outside / "secret.md"),
    "another-skill": (p03_escape_to_other_skill, lambda t: t.skills / "victim" / "SKILL.md"),
    "through-a-linked-dir": (p03_escape_through_dir_link, lambda t: t.outside / "secret.md"),
}


@pytest.mark.parametrize(("build", "target"), ESCAPES.values(), ids=ESCAPES.keys())
def test_skill_md_linking_out_of_its_directory_is_skipped_unread(tree, opened, build, target):
    """P03: the skill is skipped with skill.symlink.escape and its target never opened
    through the link."""
    link = build(tree)
    write_sibling(tree.skills)
    secret = os.path.realpath(target(tree))
    opened.clear()

    env = tree.load()

    d = only(env, "skill.symlink.escape")
    assert (d.path, d.severity) == (link, "error")
    assert d.message == (
        f"cannot read SKILL.md: a symlink to {secret}, outside the skill directory"
    )
    assert [x.code for x in about(env, link.parent)] == ["skill.symlink.escape"]
    assert all(s.path != link for s in env.skills.values())
    assert SIBLING in env.skills
    if not secret.startswith(os.path.realpath(tree.skills)):
        assert secret not in opened


def test_skill_md_linking_inside_its_directory_loads(tree):
    """P03 positive control: an in-tree link is allowed."""
    p03_link_inside(tree)

    env = tree.load()

    assert env.diagnostics == ()
    assert env.skills["inside"].path == tree.skills / "inside" / "SKILL.md"
    assert env.skills["inside"].description == "Linked within."


def test_dangling_skill_md_link_is_reported(tree):
    link = p03_dangling_skill_md(tree)
    write_sibling(tree.skills)

    env = tree.load()

    d = only(env, "skill.read.error")
    assert d.path == link
    assert d.message == "cannot read SKILL.md: SKILL.md is a symlink to nothing"
    assert list(env.skills) == [SIBLING]


def test_symlinked_skill_directory_is_followed(tree):
    """A skill directory linked in from elsewhere (a dotfiles checkout) loads."""
    path = p03_linked_skill_dir(tree)

    env = tree.load()

    assert env.diagnostics == ()
    assert env.skills["linked"].path == path


def test_symlinked_skill_directory_is_ignored_when_links_are_not_followed(tree):
    p03_linked_skill_dir(tree)
    write_sibling(tree.skills)

    env = tree.load(WalkBounds(follow_symlinks=False))

    assert list(env.skills) == [SIBLING]


@pytest.mark.parametrize("walk", [None, NESTED], ids=["flat", "nested"])
def test_a_link_to_a_skill_directory_of_the_same_root_is_visited_once(tree, walk):
    """`alias-first -> deploy`, `deploy-alias -> deploy`, `aaa-group/link -> ../deploy`:
    one real directory, read once under its real path, so no warning about a name that
    differs from an alias's directory name, whatever order the names sort in."""
    real = p03_alias_of_skill_dir(tree)

    env = tree.load(walk)

    assert env.diagnostics == ()
    assert [s.path for s in env.skills.values()] == [real]


def test_dangling_skill_directory_link_is_reported(tree):
    link = p03_dangling_skill_dir(tree)
    write_sibling(tree.skills)

    env = tree.load()

    d = only(env, "skill.read.error")
    assert (d.path, d.severity) == (link, "warning")
    assert d.message == "a symlink in a skills root points to nothing"
    assert list(env.skills) == [SIBLING]


@pytest.mark.parametrize("walk", [None, NESTED], ids=["flat", "nested"])
def test_symlink_loops_in_a_skills_root_are_reported(tree, walk):
    """P04: a -> b, b -> a and x -> x: one skill.symlink.loop each, in name order."""
    loops = p04_root_loops(tree)
    write_sibling(tree.skills)

    env = tree.load(walk)

    assert [(d.code, d.path, d.message) for d in env.diagnostics] == [
        ("skill.symlink.loop", path, "a symlink loop in a skills root") for path in loops
    ]
    assert list(env.skills) == [SIBLING]


@pytest.mark.parametrize(
    "build", [p04_skill_md_self_loop, p04_skill_md_pair_loop], ids=["self", "pair"]
)
def test_a_skill_md_symlink_loop_is_reported(tree, build):
    link = build(tree)
    write_sibling(tree.skills)

    env = tree.load()

    d = only(env, "skill.symlink.loop")
    assert (d.path, d.severity) == (link, "error")
    assert d.message == "cannot read SKILL.md: a symlink loop"
    assert list(env.skills) == [SIBLING]


def test_directory_cycles_end_and_every_skill_keeps_its_real_path(tree):
    """P04: `sub -> ..` inside a skill and `up -> ..`, `self -> .` in a group: the
    nested walk visits each real directory once, so it ends, and never reaches a
    skill through a cycle (the root itself counts as visited)."""
    path = p04_cycle_inside_skill(tree)
    write_sibling(tree.skills)

    env = tree.load(NESTED)

    assert env.diagnostics == ()
    assert {s.name: s.path for s in env.skills.values()} == {
        "cyclic": path,
        "inner": tree.skills / "group" / "inner" / "SKILL.md",
        SIBLING: tree.skills / SIBLING / "SKILL.md",
    }

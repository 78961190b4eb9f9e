"""The walk inside one root, and reading only the head of each SKILL.md."""

from __future__ import annotations

import os

import pytest

import satchel
from satchel import Layout, RootSpec, WalkBounds
from tests.support import codes, write_skill

ONE_ROOT = [RootSpec("project", ".agents", "{project}/.agents/skills")]


@pytest.fixture
def root(project):
    path = project / ".agents" / "skills"
    path.mkdir(parents=True)
    return path


def load(project, home, **kw):
    walk = kw.pop("walk", None)
    return satchel.load(layout=Layout.default(project, home=home, roots=ONE_ROOT, walk=walk), **kw)


def test_only_child_directories_with_a_skill_md_are_skills(project, home, root):
    write_skill(root, "alpha")
    (root / "empty-dir").mkdir()
    (root / "loose.md").write_text("---\nname: loose\ndescription: d\n---\n")
    (root / "SKILL.md").write_text("---\nname: top\ndescription: d\n---\n")
    write_skill(root / "group", "nested")
    env = load(project, home)
    assert list(env.skills) == ["alpha"]
    assert env.diagnostics == ()


@pytest.mark.parametrize("skipped", [".git", "node_modules"])
def test_git_and_node_modules_are_skipped(project, home, root, skipped):
    write_skill(root, skipped, name="hidden")
    assert dict(load(project, home).skills) == {}


def test_hidden_directories_inside_a_root_are_read(project, home, root):
    write_skill(root, ".system", name="system-skill")
    assert list(load(project, home).skills) == ["system-skill"]


def test_a_misnamed_skill_file_is_reported_not_loaded(project, home, root):
    (root / "pdf").mkdir()
    (root / "pdf" / "skill.md").write_text("---\nname: pdf\ndescription: d\n---\n")
    env = load(project, home)
    assert dict(env.skills) == {}
    assert [(d.code, d.path) for d in env.diagnostics] == [
        ("skill.file.misnamed", root / "pdf" / "skill.md")
    ]


def test_symlinked_skill_directories_are_followed(project, home, root, tmp_path):
    write_skill(tmp_path / "elsewhere", "linked")
    (root / "linked").symlink_to(tmp_path / "elsewhere" / "linked")
    env = load(project, home)
    assert env.skills["linked"].path == root / "linked" / "SKILL.md"
    assert env.skills["linked"].body() == "Body."


def test_following_symlinks_can_be_turned_off(project, home, root, tmp_path):
    write_skill(tmp_path / "elsewhere", "linked")
    (root / "linked").symlink_to(tmp_path / "elsewhere" / "linked")
    env = load(project, home, walk=WalkBounds(follow_symlinks=False))
    assert dict(env.skills) == {}


def test_a_symlinked_skill_md_inside_its_directory_is_read(project, home, root):
    path = write_skill(root, "alpha")
    os.rename(path, root / "alpha" / "real.md")
    path.symlink_to("real.md")
    assert list(load(project, home).skills) == ["alpha"]


def test_a_symlinked_skill_md_leaving_its_directory_is_refused(project, home, root, tmp_path):
    outside = write_skill(tmp_path / "outside", "secret")
    write_skill(root, "sibling")
    (root / "evil").mkdir()
    (root / "evil" / "SKILL.md").symlink_to(outside)
    env = load(project, home)
    assert list(env.skills) == ["sibling"]
    assert codes(env.diagnostics) == ["skill.symlink.escape"]
    assert env.diagnostics[0].path == root / "evil" / "SKILL.md"


def test_discovery_reads_only_the_head(project, home, root):
    head = b"---\nname: alpha\ndescription: d\n---\n"
    write_skill(root, "alpha", head + b"ok\n" + b"\xff\xfe broken body \x00" * 1000)
    env = load(project, home)
    assert list(env.skills) == ["alpha"] and env.diagnostics == ()
    with pytest.raises(satchel.SkillBodyError) as raised:
        env.skills["alpha"].body()
    assert raised.value.diagnostic.code == "encoding.nul"


def test_a_frontmatter_longer_than_the_first_read_is_found(project, home, root):
    long = "x" * 20_000
    write_skill(root, "alpha", f"---\nname: alpha\ndescription: {long}\n---\nbody\n")
    skill = load(project, home).skills["alpha"]
    assert len(skill.description) == 20_000
    assert skill.body() == "body"


def test_order_does_not_depend_on_the_listing_order(project, home, root, monkeypatch):
    for name in ("c-dir", "a-dir", "b-dir"):
        write_skill(root, name, name="same")
    forward = load(project, home)
    real = os.scandir

    class Reversed:
        def __init__(self, path):
            self.inner = real(path)

        def __enter__(self):
            return iter(sorted(self.inner, key=lambda e: e.name, reverse=True))

        def __exit__(self, *exc):
            self.inner.close()

    monkeypatch.setattr(os, "scandir", Reversed)
    backward = load(project, home)
    assert (
        forward.skills["same"].path == backward.skills["same"].path == root / "a-dir" / "SKILL.md"
    )
    assert forward.diagnostics == backward.diagnostics


def test_nested_mode_finds_skills_below_group_directories(project, home, root):
    write_skill(root / "team" / "tools", "deep")
    write_skill(root, "top")
    write_skill(root / "top" / "inner", "inside-a-skill")
    env = load(project, home, walk=WalkBounds(nested=True))
    assert sorted(env.skills) == ["deep", "top"]


def test_nested_mode_stops_at_its_depth_with_a_diagnostic(project, home, root):
    deep = root
    for i in range(8):
        deep = deep / f"d{i}"
    write_skill(deep, "too-deep")
    env = load(project, home, walk=WalkBounds(nested=True, max_depth=6))
    assert dict(env.skills) == {}
    assert codes(env.diagnostics) == ["discovery.limit"]
    assert "deeper than 6 levels" in env.diagnostics[0].message


def test_nested_mode_stops_at_its_directory_budget_the_root_counted(project, home, root):
    # Breadth-first in name order, as Codex walks: the root and 19 skills make 20.
    for i in range(30):
        write_skill(root, f"s{i:02}")
    write_skill(root / "a-group", "deeper")
    env = load(project, home, walk=WalkBounds(nested=True, max_dirs=20))
    assert sorted(env.skills) == [f"s{i:02}" for i in range(18)]
    assert codes(env.diagnostics) == ["discovery.limit"]
    assert env.diagnostics[0].message == "the walk stopped: more than 20 directories"


def test_nested_mode_survives_a_directory_cycle(project, home, root):
    write_skill(root / "group", "real")
    (root / "group" / "loop").symlink_to(root)
    env = load(project, home, walk=WalkBounds(nested=True))
    assert list(env.skills) == ["real"]


def test_a_symlink_loop_in_a_root_is_reported(project, home, root):
    (root / "a").symlink_to(root / "b")
    (root / "b").symlink_to(root / "a")
    write_skill(root, "fine")
    env = load(project, home)
    assert list(env.skills) == ["fine"]
    assert codes(env.diagnostics) == ["skill.symlink.loop", "skill.symlink.loop"]


def test_a_root_that_is_a_file_is_reported(project, home):
    (project / ".agents").mkdir()
    (project / ".agents" / "skills").write_text("not a directory")
    env = load(project, home)
    assert codes(env.diagnostics) == ["discovery.root.not-directory"]


def test_an_oversized_skill_md_is_refused_from_its_size(project, home, root):
    path = write_skill(root, "huge", b"---\nname: huge\ndescription: d\n---\n")
    with open(path, "ab") as f:
        f.truncate(2 * 1024 * 1024)  # sparse: never read whole
    env = load(project, home)
    assert dict(env.skills) == {}
    assert codes(env.diagnostics) == ["skill.size"]
    assert env.diagnostics[0].message == "SKILL.md is 2097152 bytes; the limit is 1048576 (1 MiB)"


def test_a_fifo_named_skill_md_does_not_block(project, home, root):
    (root / "pipe").mkdir()
    os.mkfifo(root / "pipe" / "SKILL.md")
    write_skill(root, "fine")
    env = load(project, home)
    assert list(env.skills) == ["fine"]
    assert codes(env.diagnostics) == ["skill.file.not-regular"]


def test_nested_mode_does_not_walk_through_a_symlink_out_of_the_root(project, home, root):
    write_skill(root, "zeta")
    (root / "rootlink").symlink_to("/")
    (root / "uplink").symlink_to(project)
    env = load(project, home, walk=WalkBounds(nested=True))
    assert list(env.skills) == ["zeta"]
    assert env.diagnostics == ()


def test_nested_mode_reads_a_symlinked_skill(project, home, root, tmp_path):
    write_skill(tmp_path / "elsewhere", "linked")
    (root / "group").mkdir()
    (root / "group" / "linked").symlink_to(tmp_path / "elsewhere" / "linked")
    env = load(project, home, walk=WalkBounds(nested=True))
    assert list(env.skills) == ["linked"]


def test_nested_mode_reports_the_depth_limit_once_per_root(project, home, root):
    for branch in ("a", "b", "c"):
        deep = root / branch
        for i in range(8):
            deep = deep / f"d{i}"
        write_skill(deep, f"deep-{branch}")
    env = load(project, home, walk=WalkBounds(nested=True, max_depth=3))
    assert codes(env.diagnostics) == ["discovery.limit"]
    assert env.diagnostics[0].message == "the walk stopped: 3 directories deeper than 3 levels"


def test_a_directory_name_that_is_not_utf8_is_reported_and_skipped(project, home, root):
    bad = os.fsencode(str(root)) + b"/caf\xe9"
    os.mkdir(bad)
    with open(bad + b"/SKILL.md", "wb") as f:
        f.write(b"---\nname: cafe\ndescription: d\n---\n")
    write_skill(root, "fine")
    env = load(project, home)
    assert list(env.skills) == ["fine"]
    assert codes(env.diagnostics) == ["encoding.not-utf8"]
    assert satchel.render_index(env.skills, format="xml").count("<skill>") == 1


@pytest.mark.parametrize("cache", [False, True])
def test_a_skill_path_is_the_path_slash_builds(project, home, root, cache):
    write_skill(root, "alpha")
    load(project, home, cache=cache)  # the second load of the pair reads a warm cache
    path = load(project, home, cache=cache).skills["alpha"].path
    want = root / "alpha" / "SKILL.md"
    assert (path, str(path), hash(path), path.parts) == (want, str(want), hash(want), want.parts)
    assert (path.parent, path.name, type(path)) == (want.parent, want.name, type(want))


# --- each rule of a host's walk (the hosts themselves: tests/hosts/test_*_walk.py) ---------


def test_hidden_dirs_false_skips_every_dot_directory(project, home, root):
    write_skill(root, ".hidden")
    write_skill(root / "group", ".inside")
    write_skill(root, "shown")
    walk = WalkBounds(nested=True, hidden_dirs=False)
    assert list(load(project, home, walk=walk).skills) == ["shown"]


def test_skip_dirs_empty_reads_node_modules(project, home, root):
    write_skill(root / "node_modules", "pkg")
    assert list(load(project, home, walk=WalkBounds(nested=True, skip_dirs=())).skills) == ["pkg"]
    assert list(load(project, home, walk=WalkBounds(nested=True)).skills) == []


def test_skills_in_skills_finds_a_skill_inside_a_skill(project, home, root):
    write_skill(root, "outer")
    write_skill(root / "outer", "inner")
    inside = WalkBounds(nested=True, skills_in_skills=True)
    assert sorted(load(project, home, walk=inside).skills) == ["inner", "outer"]
    assert list(load(project, home, walk=WalkBounds(nested=True)).skills) == ["outer"]


@pytest.mark.parametrize("nested", [False, True])
def test_root_skill_reads_a_skill_md_in_the_root_itself(project, home, root, nested):
    (root / "SKILL.md").write_text("---\nname: top\ndescription: d\n---\n")
    write_skill(root, "child")
    env = load(project, home, walk=WalkBounds(nested=nested, root_skill=True))
    assert sorted(env.skills) == ["child", "top"]
    assert env.skills["top"].path == root / "SKILL.md"


def test_linked_skill_files_false_leaves_out_a_symlinked_skill_md(project, home, root):
    (root / "linked").mkdir()
    (root / "linked" / "real.md").write_text("---\nname: linked\ndescription: d\n---\n")
    (root / "linked" / "SKILL.md").symlink_to("real.md")
    env = load(project, home, walk=WalkBounds(linked_skill_files=False))
    assert dict(env.skills) == {}
    assert [(d.code, d.severity, d.message, d.path) for d in env.diagnostics] == [
        (
            "skill.file.link-unread",
            "info",
            "SKILL.md is a symlink, which this host's walk does not read",
            root / "linked" / "SKILL.md",
        )
    ]
    assert list(load(project, home).skills) == ["linked"]


def test_follow_symlinked_dirs_walks_a_linked_group_each_real_directory_once(
    project, home, root, tmp_path
):
    group = tmp_path / "elsewhere" / "group"
    write_skill(group, "one")
    write_skill(group, "two")
    (root / "linked").symlink_to(group)
    (root / "loop").symlink_to(root)
    (root / "a-again").symlink_to(group)
    walk = WalkBounds(nested=True, follow_symlinked_dirs=True)
    env = load(project, home, walk=walk)
    assert {n: s.path for n, s in env.skills.items()} == {
        "one": root / "a-again" / "one" / "SKILL.md",
        "two": root / "a-again" / "two" / "SKILL.md",
    }
    assert dict(load(project, home, walk=WalkBounds(nested=True)).skills) == {}


def test_breadth_first_keeps_the_shallower_of_two_paths(project, home, root):
    write_skill(root, "z-skill")
    (root / "a").mkdir()
    (root / "a" / "link").symlink_to(root / "z-skill")
    walk = WalkBounds(nested=True, follow_symlinked_dirs=True)
    assert load(project, home, walk=walk).skills["z-skill"].path == root / "z-skill" / "SKILL.md"


def test_max_entries_stops_the_walk_files_counted(project, home, root):
    for i in range(5):
        (root / f"f{i}.txt").touch()
    write_skill(root, "x-first")
    write_skill(root, "y-second")
    env = load(project, home, walk=WalkBounds(nested=True, max_entries=8))
    assert list(env.skills) == ["x-first"]  # 7 root entries, then x-first/SKILL.md
    assert [(d.code, d.message) for d in env.diagnostics] == [
        ("discovery.limit", "the walk stopped: more than 8 entries")
    ]


def test_resolve_root_reads_a_symlinked_root_at_its_real_path(project, home, tmp_path):
    real = tmp_path / "real-skills"
    write_skill(real, "shared")
    (project / ".agents").mkdir(parents=True)
    (project / ".agents" / "skills").symlink_to(real)
    env = load(project, home, walk=WalkBounds(resolve_root=True))
    assert env.skills["shared"].path == real / "shared" / "SKILL.md"
    linked = load(project, home).skills["shared"].path
    assert linked == project / ".agents" / "skills" / "shared" / "SKILL.md"

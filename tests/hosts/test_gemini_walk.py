"""How Gemini CLI 0.61.0 walks a skills root and names its skills, and satchel's Gemini
view of the same tree.

One scratch tree holds every case, and the real `gemini skills list --all --debug` runs
on it once per test run (`once`). Each rule has a host half (`test_gemini_<rule>`),
which asserts what Gemini listed, and a satchel half (`test_satchel_matches_gemini_<rule>`),
which loads the same tree through the ``gemini`` profile (its `WalkBounds` and
`NameRule`) and compares. docs/hosts/gemini.md lists the rules.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.hostloop.hosts import Turn
from tests.hostloop.shared import once
from tests.hosts.trees import skill
from tests.support import put, skill_md
from tests.tools import GeminiView, gemini_list_output, parse_gemini_list

# folder -> (the name written, the name Gemini CLI lists)
NAMES = {
    "my-skill": ("My Skill", "My Skill"),
    "slash": ("a/b", "a-b"),
    "colon": ("ns:colon", "ns-colon"),
    "marks": ('x<y>z*q?w"e|r\\t', "x-y-z-q-w-e-r-t"),
    "upper": ("UpperCase", "UpperCase"),
    "dots": ("a.b_c", "a.b_c"),
}

Seen = tuple[Path, Path, GeminiView]


def build(base: Path) -> tuple[Path, Path]:
    """A repository whose `.agents/skills` holds every walk and name case and whose
    `.gemini/skills` is a symlinked root; skills outside it for links to point at; an
    empty HOME."""
    repo = base / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, capture_output=True)
    outside = base / "outside"
    skill(outside / "group", "linked-a")
    skill(outside, "lone")
    put(outside / "file.md", skill_md("via-file-link"))
    root = repo / ".agents/skills"
    put(root / "SKILL.md", skill_md("at-root"))
    skill(root, "plain")
    (root / "link-group").symlink_to(outside / "group")  # a folder that groups skills
    (root / "link-skill").symlink_to(outside / "lone")
    skill(root, "outer")
    skill(root, "outer/inner")  # a skill inside a skill
    skill(root, "group/two")
    skill(root, ".hidden")
    skill(root, "node_modules", name="modules-self")
    skill(root, ".git", name="git-self")
    put(root / "in-link/real.md", skill_md("inside-link"))
    (root / "in-link/SKILL.md").symlink_to("real.md")
    (root / "file-link").mkdir()
    (root / "file-link/SKILL.md").symlink_to(outside / "file.md")
    for folder, (name, _) in NAMES.items():
        skill(root, folder, name=f"'{name}'" if "\\" in name else name)
    skill(base / "linked", "via-linked-root")
    (repo / ".gemini").mkdir()
    (repo / ".gemini/skills").symlink_to(base / "linked")
    home = base / "home"
    home.mkdir()
    return repo, home


@pytest.fixture(scope="module")
def seen(gemini: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    def make(base: Path) -> dict[str, Turn]:
        repo, home = build(base)
        return {"list": Turn(0, *gemini_list_output(gemini, repo, home), ())}

    base, turns = once(tmp_path_factory, "gemini-walk", make)
    return (
        base / "repo",
        base / "home",
        parse_gemini_list(turns["list"].stdout, turns["list"].stderr),
    )


@pytest.fixture(scope="module")
def ours(seen: Seen) -> Any:
    from satchel import hosts, load

    repo, home, _ = seen
    return load(layout=hosts.get("gemini").layout(repo, home=home, env={}), host="gemini")


def listed(seen: Seen) -> dict[str, Path]:
    """name -> SKILL.md path, as Gemini lists it (through a link, not resolved)."""
    return {s.name: s.path for s in seen[2].own}


def test_gemini_lists_a_skill_md_in_the_root_and_one_folder_down(seen):
    root = seen[0] / ".agents/skills"
    got = listed(seen)
    assert got["at-root"] == root / "SKILL.md"
    assert got["plain"] == root / "plain/SKILL.md"
    assert got["outer"] == root / "outer/SKILL.md"
    assert not {"inner", "two", "linked-a"} & set(got)  # no deeper, through a link or not


def test_gemini_reads_a_symlinked_skill_folder_and_a_symlinked_skill_md(seen):
    root = seen[0] / ".agents/skills"
    got = listed(seen)
    assert got["lone"] == root / "link-skill/SKILL.md"
    assert got["inside-link"] == root / "in-link/SKILL.md"
    assert got["via-file-link"] == root / "file-link/SKILL.md"


def test_gemini_lists_a_symlinked_roots_skills_under_the_link(seen):
    repo = seen[0]
    assert listed(seen)["via-linked-root"] == repo / ".gemini/skills/via-linked-root/SKILL.md"


def test_gemini_skips_dot_folders_and_node_modules(seen):
    assert not {".hidden", "git-self", "modules-self"} & set(listed(seen))


def test_gemini_makes_each_of_nine_characters_of_a_name_a_hyphen(seen):
    root = seen[0] / ".agents/skills"
    got = listed(seen)
    for folder, (_, shown) in NAMES.items():
        assert got[shown] == root / folder / "SKILL.md"


def test_satchel_matches_gemini_walk_and_names_but_for_a_link_out_of_the_skill(seen, ours):
    # `link-containment`: satchel reads no SKILL.md that links out of its skill folder
    # (skill.symlink.escape); Gemini CLI reads it.
    root = seen[0] / ".agents/skills"
    ours_ = {n: s.path for n, s in ours.skills.items()}
    theirs = listed(seen)
    assert theirs.pop("via-file-link") == root / "file-link/SKILL.md"
    assert ours_ == theirs
    escape = [d.path for d in ours.diagnostics if d.code == "skill.symlink.escape"]
    assert escape == [root / "file-link/SKILL.md"]


def test_satchel_keeps_the_agent_skills_rule_and_says_what_gemini_names(seen):
    # Under satchel's own profile each name Gemini lists changed is refused, and the note
    # says what Gemini CLI names the skill: the Gemini half checked against Gemini here.
    from satchel import Layout, load

    repo, home, _ = seen
    env = load(layout=Layout.default(repo, home=home, env={}), trusted=True)
    got = listed(seen)
    notes = {d.path.parent.name: d.message for d in env.diagnostics if d.code == "skill.name.hosts"}
    for folder, (name, shown) in NAMES.items():
        assert name not in env.skills
        assert notes[folder].endswith(f"; Gemini CLI names it {shown!r}")
        assert got[shown].parent.name == folder
    invalid = [d for d in env.diagnostics if d.code == "skill.name.invalid"]
    assert (invalid[0].severity, invalid[0].message) == (
        "warning",
        "the name '.hidden' may only contain lowercase a-z, digits and hyphens",
    )

"""How Codex 0.171.0 walks a skills root and names its skills, and satchel's Codex view of
the same tree.

One scratch tree holds every case, and the real `codex debug prompt-input` runs on it
once per test run (`once`). Each rule has a host half (`test_codex_<rule>`), which
asserts what Codex listed, and a satchel half (`test_satchel_matches_codex_<rule>`),
which loads the same tree through the ``codex`` profile (its `WalkBounds` and
`NameRule`) and compares. docs/hosts/codex.md lists the rules.
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
from tests.tools import CodexPrompt, codex_prompt_text, codex_system, parse_codex_prompt

# Names Codex keeps as written (folder -> name); satchel's own rule refuses each.
NAMES = {
    "my-skill": "My Skill",
    "slash": "a/b",
    "colon": "ns:colon",
    "marks": 'x<y>z*q?w"e|r\\t',
    "upper": "UpperCase",
    "dots": "a.b_c",
}
FILLER = 1997  # empty folders beside two skills: with the root, 2,000 folders exactly
FILES = 19997  # files beside two skill folders: their SKILL.md files are entries 20,000 and 20,001


def build(base: Path) -> tuple[Path, Path]:
    """The tree: a repository whose `.agents/skills` holds every walk and name case, whose
    `.codex/skills` links to a root that fills Codex's folder budget exactly, whose
    `pkg/.agents/skills` (pkg is the working directory) overflows its entry budget by
    one, and a HOME whose `.agents/skills` overflows the folder budget by one; skills
    outside the repository for links to point at."""
    repo = base / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, capture_output=True)
    outside = base / "outside"
    skill(outside / "group", "linked-a")
    skill(outside / "group", "linked-b")
    skill(outside, "lone")
    put(outside / "file.md", skill_md("via-file-link"))
    root = repo / ".agents/skills"
    put(root / "SKILL.md", skill_md("at-root"))
    skill(root, "plain")
    (root / "link-group").symlink_to(outside / "group")  # a folder that groups skills
    (root / "link-skill").symlink_to(outside / "lone")
    skill(root, "outer")
    skill(root, "outer/inner")  # a skill inside a skill
    skill(root, "d1/d2/d3/d4/d5/d6", name="depth-six")
    skill(root, "e1/e2/e3/e4/e5/e6/e7", name="depth-seven")
    skill(root, ".hidden")
    skill(root, "group/.hidden-inside")
    skill(root, "outer/.hidden-in-skill")
    skill(root, "node_modules", name="modules-self")
    skill(root, "node_modules/pkg", name="modules-pkg")
    (root / "loop").mkdir()
    (root / "loop/back").symlink_to(root)  # a cycle back to the root
    skill(root, "m-real", name="aliased")
    (root / "a-alias").symlink_to(root / "m-real")  # met first, in name order
    skill(root, "z-shallow", name="shallow")
    (root / "b").mkdir()
    (root / "b/deeper").symlink_to(root / "z-shallow")  # one level deeper
    (root / "file-link").mkdir()
    (root / "file-link/SKILL.md").symlink_to(outside / "file.md")
    put(root / "in-link/real.md", skill_md("inside-link"))
    (root / "in-link/SKILL.md").symlink_to("real.md")
    for folder, name in NAMES.items():
        skill(root, folder, name=f"'{name}'" if "\\" in name else name)
    skill(root, "spaced", name='"  two   words  "')
    full = base / "full"  # the repository's .codex/skills, a symlinked root
    for i in range(FILLER):
        (full / f"e{i:04d}").mkdir(parents=True)
    skill(full, "zzzz-kept")
    skill(full, "aaaa/beyond")  # the 2,001st folder
    (repo / ".codex").mkdir()
    (repo / ".codex/skills").symlink_to(full)
    many = repo / "pkg/.agents/skills"  # the working directory's root
    many.mkdir(parents=True)
    for i in range(FILES):
        (many / f"f{i:05d}.txt").touch()
    skill(many, "aa-first")
    skill(many, "zz-last")
    home = base / "home"
    over = home / ".agents/skills"
    for i in range(FILLER + 2):
        (over / f"e{i:04d}").mkdir(parents=True)
    skill(over, "zzzz-dropped")  # the 2,001st folder
    return repo, home


@pytest.fixture(scope="module")
def seen(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, CodexPrompt]:
    def make(base: Path) -> dict[str, Turn]:
        repo, home = build(base)
        return {"prompt": Turn(0, codex_prompt_text(codex, repo / "pkg", home), "", ())}

    base, turns = once(tmp_path_factory, "codex-walk", make)
    repo, home = base / "repo", base / "home"
    return repo, home, parse_codex_prompt(turns["prompt"].stdout, codex_system(home))


@pytest.fixture(scope="module")
def ours(seen: tuple[Path, Path, CodexPrompt]) -> Any:
    from satchel import hosts, load

    repo, home, _ = seen
    layout = hosts.get("codex").layout(repo / "pkg", home=home, env={})
    return load(layout=layout, host="codex")


def listed(seen: tuple[Path, Path, CodexPrompt]) -> dict[str, Path]:
    """name -> SKILL.md path (as Codex shows it: through a link, not resolved)."""
    return {s.name: s.path for s in seen[2].own}


def loaded(env: Any, system: Path) -> dict[str, Path]:
    return {n: s.path for n, s in env.skills.items() if not s.path.is_relative_to(system)}


def test_codex_lists_every_name_of_this_tree_once(seen):
    # Each name is written once, so satchel's one skill a name compares one to one.
    names = [s.name for s in seen[2].own]
    assert len(names) == len(set(names))


def test_codex_lists_a_skill_md_in_the_root_itself(seen):
    repo = seen[0]
    assert listed(seen)["at-root"] == repo / ".agents/skills/SKILL.md"


def test_codex_walks_into_a_symlinked_folder_that_groups_skills(seen):
    root = seen[0] / ".agents/skills"
    got = listed(seen)
    assert got["linked-a"] == root / "link-group/linked-a/SKILL.md"
    assert got["linked-b"] == root / "link-group/linked-b/SKILL.md"
    assert got["lone"] == root / "link-skill/SKILL.md"


def test_codex_finds_a_skill_inside_a_skill_down_to_six_levels(seen):
    root = seen[0] / ".agents/skills"
    got = listed(seen)
    assert got["outer"] == root / "outer/SKILL.md"
    assert got["inner"] == root / "outer/inner/SKILL.md"
    assert got["depth-six"] == root / "d1/d2/d3/d4/d5/d6/SKILL.md"
    assert "depth-seven" not in got


def test_codex_skips_dot_folders_and_reads_node_modules(seen):
    root = seen[0] / ".agents/skills"
    got = listed(seen)
    assert not {".hidden", ".hidden-inside", ".hidden-in-skill"} & set(got)
    assert got["modules-self"] == root / "node_modules/SKILL.md"
    assert got["modules-pkg"] == root / "node_modules/pkg/SKILL.md"


def test_codex_reads_each_real_folder_once_at_its_shallowest_path(seen):
    # A link back to the root adds nothing; of two paths to one folder the walk keeps
    # the first it meets: breadth-first, each level in name order.
    root = seen[0] / ".agents/skills"
    got = listed(seen)
    assert got["aliased"] == root / "a-alias/SKILL.md"
    assert got["shallow"] == root / "z-shallow/SKILL.md"
    assert not any(path.is_relative_to(root / "loop") for path in got.values())


def test_codex_leaves_out_a_symlinked_skill_md(seen):
    assert not {"via-file-link", "inside-link"} & set(listed(seen))


def test_codex_stops_at_two_thousand_folders_the_root_counted(seen):
    got = listed(seen)
    assert got["zzzz-kept"].parent.name == "zzzz-kept"
    assert "beyond" not in got
    assert "zzzz-dropped" not in got


def test_codex_stops_at_twenty_thousand_entries_files_counted(seen):
    many = seen[0] / "pkg/.agents/skills"
    got = listed(seen)
    assert got["aa-first"] == many / "aa-first/SKILL.md"
    assert "zz-last" not in got


def test_codex_reads_a_symlinked_root_at_its_real_path(seen):
    repo = seen[0]
    assert listed(seen)["zzzz-kept"] == repo.parent / "full/zzzz-kept/SKILL.md"
    assert repo.parent / "full" in seen[2].roots


def test_codex_keeps_names_as_written_on_one_line(seen):
    root = seen[0] / ".agents/skills"
    got = listed(seen)
    for folder, name in NAMES.items():
        assert got[name] == root / folder / "SKILL.md"
    assert got["two words"] == root / "spaced/SKILL.md"


def test_satchel_matches_codex_walk_and_names(seen, ours):
    assert loaded(ours, seen[2].system) == listed(seen)


def test_satchel_says_why_it_leaves_out_a_symlinked_skill_md_under_codex(seen, ours):
    root = seen[0] / ".agents/skills"
    said = [(d.path, d.message) for d in ours.diagnostics if d.code == "skill.file.link-unread"]
    message = "SKILL.md is a symlink, which this host's walk does not read"
    assert sorted(said) == [
        (root / "file-link/SKILL.md", message),
        (root / "in-link/SKILL.md", message),
    ]


def test_satchel_reports_where_the_codex_walk_stopped(seen, ours):
    repo, home, _ = seen
    said = {(d.path, d.message) for d in ours.diagnostics if d.code == "discovery.limit"}
    assert said == {
        (home / ".agents/skills", "the walk stopped: more than 2000 directories"),
        (repo.parent / "full", "the walk stopped: more than 2000 directories"),
        (repo / "pkg/.agents/skills", "the walk stopped: more than 20000 entries"),
        (
            repo / ".agents/skills/e1/e2/e3/e4/e5/e6",
            "the walk stopped: 1 directory deeper than 6 levels",
        ),
    }


def test_satchel_keeps_the_agent_skills_rule_and_says_what_codex_names(seen):
    # Under satchel's own profile a name Codex keeps is refused, and the note says what
    # Codex (and Gemini CLI) name the skill: the Codex half checked against Codex here.
    from satchel import Layout, load

    repo, home, _ = seen
    env = load(layout=Layout.default(repo, home=home, env={}), trusted=True)
    got = listed(seen)
    notes = {d.path.parent.name: d.message for d in env.diagnostics if d.code == "skill.name.hosts"}
    for folder, name in NAMES.items():
        assert name not in env.skills
        assert notes[folder].startswith(f"Codex names it {name!r}; Gemini CLI names it ")
        assert got[name].parent.name == folder
    assert env.skills["slash"].path == repo / ".agents/skills/slash/SKILL.md"
    assert notes["slash"] == "Codex names it 'a/b'; Gemini CLI names it 'a-b'"
    assert env.skills["colon"].path == repo / ".agents/skills/colon/SKILL.md"

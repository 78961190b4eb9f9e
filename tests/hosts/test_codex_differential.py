"""Codex 0.171.0 run on purpose-built trees, and satchel's Codex view of the same trees.

Each rule has a host half, which runs the real `codex debug prompt-input` (pinned in
`.tools/` by scripts/tools, offline, a scratch HOME and CODEX_HOME) and asserts what Codex
put in the prompt, and a satchel half (`test_satchel_matches_codex_<rule>`), which loads
the same tree through `satchel.hosts.get("codex")` and compares it with what Codex showed.
docs/hosts-observed.md lists the rules and the commands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.hosts.trees import git_repo, skill
from tests.support import put, skill_md, write_skill
from tests.tools import CodexPrompt, codex_prompt

CUT = 1024  # characters of a description Codex shows, "..." included


def listed(prompt: CodexPrompt) -> list[tuple[str, Path]]:
    """(name, SKILL.md path) of every project and home skill Codex listed, in its order."""
    return [(s.name, s.path) for s in prompt.own]


def satchel_codex(cwd: Path, home: Path) -> Any:
    """satchel's Environment for `cwd` as Codex sees it."""
    from satchel import hosts, load  # type: ignore[attr-defined]

    layout = hosts.get("codex").layout(cwd, home=home, env={})
    return load(layout=layout, host="codex")


def same_skills(prompt: CodexPrompt, env: Any) -> None:
    """satchel loaded exactly the skills Codex listed (each name once), at the same
    paths, with the descriptions Codex showed (Codex cuts long ones; satchel keeps them).

    Rule `system skills`: Codex writes its bundled skills into the home's
    ``.codex/skills/.system`` and lists those its own policy allows; satchel reads that
    folder like any other, so both sides are compared without it."""
    ours = {s.name: s for s in env.skills.values() if not s.path.is_relative_to(prompt.system)}
    assert sorted((n, s.path.resolve()) for n, s in ours.items()) == sorted(
        (n, p.resolve()) for n, p in listed(prompt)
    )
    for theirs in prompt.own:
        assert shown(ours[theirs.name].description) == theirs.description


def shown(description: str) -> str:
    """A description as Codex shows it: cut to `CUT` characters with "...", else whole."""
    return description if len(description) <= CUT else description[: CUT - 3] + "..."


Seen = tuple[Path, Path, CodexPrompt]  # (cwd, HOME, what Codex put in the prompt there)


def seen(
    codex: Path, factory: pytest.TempPathFactory, tree: Callable[[Path], tuple[Path, Path]]
) -> Seen:
    """`tree` built once in a fresh folder and Codex run on it once: each module fixture
    below is shared by the host half and the satchel half of a rule (neither writes)."""
    cwd, home = tree(factory.mktemp(tree.__name__))
    return cwd, home, codex_prompt(codex, cwd, home)


# --- roots: the walk from the git root to cwd ----------------------------------------------


def walk_tree(tmp_path: Path) -> tuple[Path, Path]:
    """A repo inside an outer folder with skills above it, at its root, on the way down,
    at cwd and below cwd, in `.agents/skills` and `.codex/skills`; the cwd and HOME."""
    outer = tmp_path / "outer"
    skill(outer / ".agents/skills", "above-repo")
    repo = git_repo(outer / "repo")
    cwd = repo / "pkg/app"
    skill(repo / ".agents/skills", "at-root")
    skill(repo / "pkg/.agents/skills", "on-the-way")
    skill(cwd / ".agents/skills", "at-cwd")
    skill(cwd / "below/.agents/skills", "below-cwd")
    skill(repo / ".codex/skills", "codex-at-root")
    skill(repo / "pkg/.codex/skills", "codex-on-the-way")
    skill(cwd / ".codex/skills", "codex-at-cwd")
    home = tmp_path / "home"
    home.mkdir()
    return cwd, home


@pytest.fixture(scope="module")
def walk(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    return seen(codex, tmp_path_factory, walk_tree)


def test_codex_reads_agents_skills_from_git_root_to_cwd(walk: Seen):
    names = [name for name, _ in listed(walk[2])]
    assert {"at-root", "on-the-way", "at-cwd"} <= set(names)
    assert "above-repo" not in names and "below-cwd" not in names


def test_codex_reads_codex_skills_from_git_root_to_cwd_too(walk: Seen):
    # Not only at cwd: 0.171.0 reads `.codex/skills` in every folder of the walk.
    cwd, _, prompt = walk
    repo = cwd.parent.parent
    assert {"codex-at-root", "codex-on-the-way", "codex-at-cwd"} <= {n for n, _ in listed(prompt)}
    assert set(prompt.roots) >= {
        repo / ".codex/skills",
        repo / "pkg/.codex/skills",
        cwd / ".codex/skills",
        repo / ".agents/skills",
        repo / "pkg/.agents/skills",
        cwd / ".agents/skills",
    }


def test_satchel_matches_codex_walk_from_git_root_to_cwd(walk: Seen):
    cwd, home, prompt = walk
    same_skills(prompt, satchel_codex(cwd, home))


def outside_git_tree(tmp_path: Path) -> tuple[Path, Path]:
    top = tmp_path / "plain"
    cwd = top / "sub"
    skill(top / ".agents/skills", "parent-agents")
    skill(top / ".codex/skills", "parent-codex")
    skill(cwd / ".agents/skills", "here-agents")
    skill(cwd / ".codex/skills", "here-codex")
    home = tmp_path / "home"
    home.mkdir()
    return cwd, home


@pytest.fixture(scope="module")
def outside_git(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    return seen(codex, tmp_path_factory, outside_git_tree)


def test_codex_reads_only_cwd_outside_a_git_repository(outside_git: Seen):
    cwd, _, prompt = outside_git
    assert sorted(listed(prompt)) == [
        ("here-agents", cwd / ".agents/skills/here-agents/SKILL.md"),
        ("here-codex", cwd / ".codex/skills/here-codex/SKILL.md"),
    ]


def test_satchel_matches_codex_outside_a_git_repository(outside_git: Seen):
    cwd, home, prompt = outside_git
    same_skills(prompt, satchel_codex(cwd, home))


OTHER_HOSTS = (".claude/skills", ".gemini/skills", ".github/skills", ".opencode/skills", "skills")


def other_hosts_tree(tmp_path: Path) -> tuple[Path, Path]:
    repo = git_repo(tmp_path / "repo")
    for n, root in enumerate(OTHER_HOSTS):
        skill(repo / root, f"other-{n}")
    skill(repo / ".agents/skills", "ours")
    home = tmp_path / "home"
    for n, root in enumerate((".claude/skills", ".gemini/skills")):
        skill(home / root, f"home-other-{n}")
    return repo, home


@pytest.fixture(scope="module")
def other_hosts(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    return seen(codex, tmp_path_factory, other_hosts_tree)


def test_codex_does_not_read_other_hosts_folders(other_hosts: Seen):
    repo, _, prompt = other_hosts
    assert listed(prompt) == [("ours", repo / ".agents/skills/ours/SKILL.md")]


def test_satchel_matches_codex_not_reading_other_hosts_folders(other_hosts: Seen):
    repo, home, prompt = other_hosts
    same_skills(prompt, satchel_codex(repo, home))


def home_tree(tmp_path: Path) -> tuple[Path, Path]:
    repo = git_repo(tmp_path / "repo")
    home = tmp_path / "home"
    skill(home / ".agents/skills", "home-agents")
    skill(home / ".codex/skills", "home-codex")
    return repo, home


@pytest.fixture(scope="module")
def home_roots(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    return seen(codex, tmp_path_factory, home_tree)


def test_codex_reads_home_agents_and_codex_skills(home_roots: Seen):
    _, home, prompt = home_roots
    assert listed(prompt) == [
        ("home-agents", home / ".agents/skills/home-agents/SKILL.md"),
        ("home-codex", home / ".codex/skills/home-codex/SKILL.md"),
    ]
    # Codex writes its own bundled skills under CODEX_HOME and lists them too.
    assert prompt.system == home / ".codex/skills/.system"
    assert "skill-creator" in {s.name for s in prompt.skills if s.root == prompt.system}


def test_satchel_matches_codex_home_roots(home_roots: Seen):
    repo, home, prompt = home_roots
    same_skills(prompt, satchel_codex(repo, home))


# --- duplicates and order ------------------------------------------------------------------


def duplicates_tree(tmp_path: Path) -> tuple[Path, Path]:
    repo = git_repo(tmp_path / "repo")
    home = tmp_path / "home"
    skill(repo / ".agents/skills", "twice", description="From the project's .agents.")
    skill(repo / ".codex/skills", "twice", description="From the project's .codex.")
    skill(home / ".agents/skills", "twice", description="From home.")
    skill(repo / ".agents/skills", "zeta")
    skill(repo / ".agents/skills", "alpha")
    skill(home / ".agents/skills", "beta")
    return repo, home


@pytest.fixture(scope="module")
def duplicates(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    return seen(codex, tmp_path_factory, duplicates_tree)


def test_codex_lists_every_copy_of_a_duplicated_name_with_no_warning(duplicates: Seen):
    twice = [s for s in duplicates[2].own if s.name == "twice"]
    assert sorted(s.description for s in twice) == [
        "From home.",
        "From the project's .agents.",
        "From the project's .codex.",
    ]


def test_codex_lists_system_then_project_then_home_each_by_name(duplicates: Seen):
    prompt = duplicates[2]
    system = [s.name for s in prompt.skills if s.root == prompt.system]
    assert [s.name for s in prompt.skills[: len(system)]] == system
    assert [s.name for s in prompt.own] == ["alpha", "twice", "twice", "zeta", "beta", "twice"]


def test_satchel_keeps_one_copy_and_shadows_the_rest_where_codex_lists_every_copy(
    duplicates: Seen,
):
    # Codex lists all three `twice`; satchel keeps the first by the profile's order and
    # reports the other two as skill.shadowed.
    repo, home, prompt = duplicates
    env = satchel_codex(repo, home)
    copies = {s.path.resolve() for s in prompt.own if s.name == "twice"}
    kept = env.skills["twice"].path.resolve()
    assert kept in copies
    assert {s.loser.path.resolve() for s in env.shadowed if s.name == "twice"} == copies - {kept}
    ours = {s.name for s in env.skills.values() if not s.path.is_relative_to(prompt.system)}
    assert ours == {s.name for s in prompt.own}


# --- inside a root -------------------------------------------------------------------------


def depth_tree(tmp_path: Path) -> tuple[Path, Path]:
    repo = git_repo(tmp_path / "repo")
    root = repo / ".agents/skills"
    skill(root, "one")
    skill(root, "group/two")
    skill(root, "group/more/three")
    put(root / "lower/skill.md", skill_md("lower"))
    put(root / "other/README.md", skill_md("other"))
    home = tmp_path / "home"
    home.mkdir()
    return repo, home


@pytest.fixture(scope="module")
def depth(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    return seen(codex, tmp_path_factory, depth_tree)


def test_codex_reads_skills_at_any_depth_inside_a_root_named_skill_md(depth: Seen):
    repo, _, prompt = depth
    root = repo / ".agents/skills"
    assert sorted(listed(prompt)) == [
        ("one", root / "one/SKILL.md"),
        ("three", root / "group/more/three/SKILL.md"),
        ("two", root / "group/two/SKILL.md"),
    ]


def test_satchel_matches_codex_depth_inside_a_root(depth: Seen):
    repo, home, prompt = depth
    same_skills(prompt, satchel_codex(repo, home))


# --- leniency ------------------------------------------------------------------------------

LENIENCY = {
    "no-name": skill_md(None, "Has no name."),
    "mismatch": skill_md("other-name", "Its name differs from its folder."),
    "no-description": skill_md("no-description", None),
    "empty-description": skill_md("empty-description", '""'),
    "name-64": skill_md("b" * 64, "Sixty-four characters."),
    "name-65": skill_md("a" * 65, "Sixty-five characters."),
    "colon": skill_md("colon", "Use when: x"),
    "bracket": skill_md("bracket", "[unclosed"),
    "unterminated": skill_md("unterminated", '"never closed'),
    "bad-indent": skill_md("bad-indent", extra="  description: x\n bad: y\n"),
    "metadata-list": skill_md("metadata-list", metadata="[1, 2]"),
    "metadata-map": skill_md("metadata-map", metadata="{team: docs}"),
    "no-frontmatter": "Just a body, no frontmatter.\n",
    "words": skill_md("yes", "on"),  # YAML 1.1's booleans, text in YAML 1.2
    "words-no": skill_md("words-no", "No"),
}
# What Codex listed of LENIENCY: folder -> (name, description).
CODEX_KEPT = {
    "words": ("yes", "on"),
    "words-no": ("words-no", "No"),
    "no-name": ("no-name", "Has no name."),
    "mismatch": ("other-name", "Its name differs from its folder."),
    "name-64": ("b" * 64, "Sixty-four characters."),
    "colon": ("colon", "Use when: x"),
    "bracket": ("bracket", "[unclosed"),
    "metadata-map": ("metadata-map", "Does a thing."),
}


def leniency_tree(tmp_path: Path) -> tuple[Path, Path]:
    repo = git_repo(tmp_path / "repo")
    for folder, text in LENIENCY.items():
        write_skill(repo / ".agents/skills", folder, text)
    home = tmp_path / "home"
    home.mkdir()
    return repo, home


@pytest.fixture(scope="module")
def leniency(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    return seen(codex, tmp_path_factory, leniency_tree)


def test_codex_keeps_and_drops_frontmatter_as_listed(leniency: Seen):
    # Kept: a missing name (the folder's name), any name up to 64 characters, text YAML
    # would refuse (`Use when: x`, `[unclosed`). Dropped silently: no description or an
    # empty one, a 65-character name, real YAML errors, a metadata list, no frontmatter.
    repo, _, prompt = leniency
    root = repo / ".agents/skills"
    got = {s.path.parent.name: (s.name, s.description) for s in prompt.own}
    assert got == CODEX_KEPT
    assert all((root / folder / "SKILL.md").is_file() for folder in LENIENCY)


def test_satchel_matches_codex_leniency_but_for_two_named_rules(leniency: Seen):
    """satchel drops what Codex drops (no frontmatter, no or an empty description, a name
    over 64 characters: `skill.name.refused`, broken YAML) and keeps what it keeps, but
    for two rules on purpose. `yaml-flow`: satchel reads every host's frontmatter with
    one YAML reader and refuses `description: [unclosed` (frontmatter.yaml.syntax),
    where Codex takes it as text. `metadata-type`: satchel loads a skill whose
    `metadata` is a list without its metadata (frontmatter.field.type), where Codex
    drops the skill."""
    repo, home, prompt = leniency
    env = satchel_codex(repo, home)
    ours = {
        s.path.parent.name: (s.name, s.description)
        for s in env.skills.values()
        if not s.path.is_relative_to(prompt.system)
    }
    theirs = {s.path.parent.name: (s.name, s.description) for s in prompt.own}
    assert set(theirs) - set(ours) == {"bracket"}
    assert set(ours) - set(theirs) == {"metadata-list"}
    assert {k: ours[k] for k in theirs if k in ours} == {
        k: v for k, v in theirs.items() if k in ours
    }
    assert "skill.name.refused" in {d.code for d in env.diagnostics}


# --- the description cut -------------------------------------------------------------------

DESCRIPTIONS = {
    "exact": "e" * CUT,
    "long": "x" * 1100,
    "words": "abcd " * 300,
    "wide": "é" * 1100,
}


def cut_tree(tmp_path: Path) -> tuple[Path, Path]:
    repo = git_repo(tmp_path / "repo")
    for folder, text in DESCRIPTIONS.items():
        skill(repo / ".agents/skills", folder, description=text.strip())
    home = tmp_path / "home"
    home.mkdir()
    return repo, home


@pytest.fixture(scope="module")
def cut(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    return seen(codex, tmp_path_factory, cut_tree)


def test_codex_cuts_descriptions_to_1024_characters_with_dots(cut: Seen):
    got = {s.name: s.description for s in cut[2].own}
    assert got == {name: shown(text.strip()) for name, text in DESCRIPTIONS.items()}
    assert got["exact"] == "e" * CUT
    assert got["long"] == "x" * (CUT - 3) + "..."  # mid-word: no word boundary is kept
    assert len(got["wide"]) == CUT  # characters, not bytes


def test_satchel_keeps_the_whole_description_where_codex_cuts_it(cut: Seen):
    repo, home, prompt = cut
    env = satchel_codex(repo, home)
    same_skills(prompt, env)
    assert env.skills["long"].description == "x" * 1100


# --- instructions --------------------------------------------------------------------------


def instructions_tree(tmp_path: Path, *, home_override: bool = True) -> tuple[Path, Path]:
    repo = git_repo(tmp_path / "repo")
    cwd = repo / "pkg/app"
    put(repo / "AGENTS.md", "Root agents.\n")
    put(repo / "CLAUDE.md", "Root claude.\n")
    put(repo / "GEMINI.md", "Root gemini.\n")
    put(repo / "pkg/AGENTS.md", "Pkg agents.\n")
    put(cwd / "AGENTS.md", "App agents.\n")
    put(cwd / "AGENTS.override.md", "App override.\n")
    home = tmp_path / "home"
    put(home / ".codex/AGENTS.md", "Home agents.\n")
    if home_override:
        put(home / ".codex/AGENTS.override.md", "Home override.\n")
    return cwd, home


@pytest.fixture(scope="module")
def instructions(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> Seen:
    return seen(codex, tmp_path_factory, instructions_tree)


def test_codex_reads_agents_md_from_git_root_to_cwd_override_first(instructions: Seen):
    assert instructions[2].instructions == (
        "Home override.\n\n--- project-doc ---\n\n"
        "Root agents.\n\n\nPkg agents.\n\n\nApp override.\n"
    )


def test_codex_reads_home_agents_md_without_an_override(codex: Path, tmp_path: Path):
    cwd, home = instructions_tree(tmp_path, home_override=False)
    text = codex_prompt(codex, cwd, home).instructions
    assert text is not None and text.startswith("Home agents.\n\n--- project-doc ---\n\n")


def test_satchel_matches_codex_instructions(instructions: Seen):
    cwd, home, prompt = instructions
    text = prompt.instructions or ""
    env = satchel_codex(cwd, home)
    repo = cwd.parent.parent
    assert [f.path.resolve() for f in env.instructions] == [
        home / ".codex/AGENTS.override.md",
        repo / "AGENTS.md",
        repo / "pkg/AGENTS.md",
        cwd / "AGENTS.override.md",
    ]
    at = 0
    for f in env.instructions:  # each file's text, in Codex's order
        at = text.index(f.text.strip(), at)

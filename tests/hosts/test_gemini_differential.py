"""Gemini CLI 0.61.0 run on purpose-built trees, and satchel's Gemini view of the same trees.

Each rule has a host half, which runs the real `gemini skills list --all --debug` (pinned
in `.tools/` by scripts/tools, offline, a scratch HOME whose trustedFolders.json trusts the
project unless the test says otherwise) and asserts what Gemini listed, reported and read,
and a satchel half (`test_satchel_matches_gemini_<rule>`), which loads the same tree
through `satchel.hosts.get("gemini")` and compares it with what Gemini showed. The satchel
halves skip until the host profiles are merged. docs/hosts-observed.md lists the rules."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.hosts.trees import git_repo, skill
from tests.support import put, skill_md, write_skill
from tests.tools import GeminiView, gemini_view


def listed(view: GeminiView) -> list[tuple[str, Path]]:
    """(name, SKILL.md path) of every project and home skill Gemini listed, sorted."""
    return sorted((s.name, s.path) for s in view.own)


def satchel_gemini(cwd: Path, home: Path) -> Any:
    """satchel's Environment for `cwd` as Gemini CLI sees it (the same HOME, so the same
    trustedFolders.json)."""
    from satchel import hosts, load  # type: ignore[attr-defined]

    layout = hosts.get("gemini").layout(cwd, home=home, env={})
    return load(layout=layout, host="gemini")


def same_skills(view: GeminiView, env: Any) -> None:
    """satchel loaded exactly the skills Gemini listed, at the same paths, with the same
    descriptions."""
    ours = {(n, s.path.resolve(), s.description) for n, s in env.skills.items()}
    assert ours == {(s.name, s.path.resolve(), s.description) for s in view.own}


Seen = tuple[Path, Path, GeminiView]  # (cwd, HOME, what Gemini showed there)


def seen(gemini: Path, factory: pytest.TempPathFactory, tree: Any, **options: Any) -> Seen:
    """`tree` built once in a fresh folder and Gemini run on it once: each module fixture
    below is shared by the host half and the satchel half of a rule."""
    cwd, home = tree(factory.mktemp(tree.__name__))
    return cwd, home, gemini_view(gemini, cwd, home, **options)


@pytest.fixture(scope="module")
def views(gemini: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Seen]:
    """Every tree below (each a folder and a HOME of its own) and Gemini's run on it,
    two runs at a time, by the tree's name."""
    trees: list[tuple[Any, dict[str, Any]]] = [
        (roots_tree, {}),
        (untrusted_tree, {"trusted": False}),
        (duplicates_tree, {}),
        (depth_tree, {}),
        (leniency_tree, {}),
        (instructions_tree, {}),
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {t.__name__: pool.submit(seen, gemini, tmp_path_factory, t, **o) for t, o in trees}
        return {name: run.result() for name, run in runs.items()}


# --- roots ---------------------------------------------------------------------------------


def roots_tree(tmp_path: Path) -> tuple[Path, Path]:
    """A repo with skills at its root and at cwd (a folder below it) in every host's
    folders, and skills in HOME's `.agents`, `.gemini` and one extension."""
    repo = git_repo(tmp_path / "repo")
    cwd = repo / "pkg"
    skill(repo / ".agents/skills", "root-agents")
    skill(repo / ".gemini/skills", "root-gemini")
    skill(cwd / ".agents/skills", "cwd-agents")
    skill(cwd / ".gemini/skills", "cwd-gemini")
    for root in (".claude/skills", ".codex/skills", ".github/skills", "skills"):
        skill(cwd / root, "cwd-" + root.split("/")[0].strip(".") + "-other")
    put(cwd / ".gemini/extensions/pext/gemini-extension.json", '{"name": "pext", "version": "1"}')
    skill(cwd / ".gemini/extensions/pext/skills", "project-extension")
    home = tmp_path / "home"
    skill(home / ".agents/skills", "home-agents")
    skill(home / ".gemini/skills", "home-gemini")
    put(home / ".gemini/extensions/ext/gemini-extension.json", '{"name": "ext", "version": "1"}')
    skill(home / ".gemini/extensions/ext/skills", "home-extension")
    return cwd, home


@pytest.fixture(scope="module")
def roots(views: dict[str, Seen]) -> Seen:
    return views["roots_tree"]


def test_gemini_reads_agents_and_gemini_skills_at_cwd_only_and_in_home(roots: Seen):
    # Not at the git root, not .claude/.codex/.github or a bare skills/, not a project's
    # extensions; HOME's two roots and its extensions' skills.
    cwd, home, view = roots
    assert listed(view) == [
        ("cwd-agents", cwd / ".agents/skills/cwd-agents/SKILL.md"),
        ("cwd-gemini", cwd / ".gemini/skills/cwd-gemini/SKILL.md"),
        ("home-agents", home / ".agents/skills/home-agents/SKILL.md"),
        ("home-extension", home / ".gemini/extensions/ext/skills/home-extension/SKILL.md"),
        ("home-gemini", home / ".gemini/skills/home-gemini/SKILL.md"),
    ]


def test_gemini_lists_its_own_built_in_skills(roots: Seen):
    builtin = [s for s in roots[2].skills if s.builtin]
    assert "skill-creator" in {s.name for s in builtin}
    assert all(s.path.parent.parent.name == "builtin" for s in builtin)


def test_satchel_matches_gemini_roots(roots: Seen):
    cwd, home, view = roots
    same_skills(view, satchel_gemini(cwd, home))


# --- trust ---------------------------------------------------------------------------------


def untrusted_tree(tmp_path: Path) -> tuple[Path, Path]:
    """The roots tree with a project and a home GEMINI.md."""
    cwd, home = roots_tree(tmp_path)
    put(cwd / "GEMINI.md", "Project context.\n")
    put(home / ".gemini/GEMINI.md", "Home context.\n")
    return cwd, home


@pytest.fixture(scope="module")
def untrusted(views: dict[str, Seen]) -> Seen:
    return views["untrusted_tree"]


def test_gemini_reads_no_project_skills_or_gemini_md_in_an_untrusted_folder(untrusted: Seen):
    _, home, view = untrusted
    assert [name for name, _ in listed(view)] == ["home-agents", "home-extension", "home-gemini"]
    assert view.memory == (home / ".gemini/GEMINI.md",)


def test_satchel_matches_gemini_untrusted_folder(untrusted: Seen):
    cwd, home, view = untrusted
    env = satchel_gemini(cwd, home)
    same_skills(view, env)
    assert [f.path.resolve() for f in env.instructions] == list(view.memory)


# --- duplicates ----------------------------------------------------------------------------

# From the weakest to the strongest, as Gemini's conflict lines show.
DUPLICATE_ROOTS = (
    "home/.gemini/extensions/ext/skills",
    "home/.gemini/skills",
    "home/.agents/skills",
    "repo/.gemini/skills",
    "repo/.agents/skills",
)


# One name per pair of roots as well, so no chain hides an order: the stronger always wins.
PAIRS = tuple(itertools.combinations(range(len(DUPLICATE_ROOTS)), 2))


def duplicates_tree(tmp_path: Path) -> tuple[Path, Path]:
    """``twice`` in every root, and ``pair-W-S`` in the two roots W and S of each pair."""
    repo = git_repo(tmp_path / "repo")
    home = tmp_path / "home"
    home.mkdir()
    put(home / ".gemini/extensions/ext/gemini-extension.json", '{"name": "ext", "version": "1"}')
    for root in DUPLICATE_ROOTS:
        skill(tmp_path / root, "twice", description=f"From {root}.")
    for weak, strong in PAIRS:
        for at in (weak, strong):
            skill(
                tmp_path / DUPLICATE_ROOTS[at], f"pair-{weak}-{strong}", description=f"Root {at}."
            )
    return repo, home


@pytest.fixture(scope="module")
def duplicates(views: dict[str, Seen]) -> Seen:
    return views["duplicates_tree"]


def test_gemini_keeps_one_copy_and_names_each_override(duplicates: Seen):
    repo, _, view = duplicates
    paths = [repo.parent / root / "twice/SKILL.md" for root in DUPLICATE_ROOTS]
    assert [(s.name, s.path, s.description) for s in view.own if s.name == "twice"] == [
        ("twice", paths[-1], f"From {DUPLICATE_ROOTS[-1]}.")
    ]
    # Each stronger root overrides the one before it: a chain from the weakest.
    assert [(c.name, c.loser, c.winner) for c in view.conflicts if c.name == "twice"] == [
        ("twice", weaker, stronger) for weaker, stronger in itertools.pairwise(paths)
    ]


def test_gemini_ranks_each_pair_of_roots_the_same_way(duplicates: Seen):
    got = {s.name: s.description for s in duplicates[2].own if s.name != "twice"}
    assert got == {f"pair-{weak}-{strong}": f"Root {strong}." for weak, strong in PAIRS}


def test_satchel_matches_gemini_winner_of_a_duplicated_name(duplicates: Seen):
    repo, home, view = duplicates
    env = satchel_gemini(repo, home)
    same_skills(view, env)
    assert {s.loser.path.resolve() for s in env.shadowed} == {c.loser for c in view.conflicts}


# --- inside a root -------------------------------------------------------------------------


def depth_tree(tmp_path: Path) -> tuple[Path, Path]:
    repo = git_repo(tmp_path / "repo")
    root = repo / ".agents/skills"
    skill(root, "one")
    skill(root, "group/two")
    skill(root, "group/more/three")
    put(root / "lower/skill.md", skill_md("lower"))
    home = tmp_path / "home"
    home.mkdir()
    return repo, home


@pytest.fixture(scope="module")
def depth(views: dict[str, Seen]) -> Seen:
    return views["depth_tree"]


def test_gemini_reads_only_a_skill_md_one_folder_down(depth: Seen):
    repo, _, view = depth
    assert listed(view) == [("one", repo / ".agents/skills/one/SKILL.md")]


def test_satchel_matches_gemini_depth_inside_a_root(depth: Seen):
    repo, home, view = depth
    same_skills(view, satchel_gemini(repo, home))


# --- leniency ------------------------------------------------------------------------------

LENIENCY = {
    "no-name": skill_md(None, "Has no name."),
    "mismatch": skill_md("other-name", "Its name differs from its folder."),
    "no-description": skill_md("no-description", None),
    "empty-description": skill_md("empty-description", '""'),
    "name-65": skill_md("a" * 65, "Sixty-five characters."),
    "colon": skill_md("colon", "Use when: x"),
    "unterminated": skill_md("unterminated", '"never closed'),
    "list-name": skill_md("[a, b]", "A YAML list as the name."),
    "folded": skill_md("folded", ">\n  line one\n  line two"),
    "long": skill_md("long", "x" * 1100),
    "no-frontmatter": "Just a body, no frontmatter.\n",
    "words": skill_md("yes", "on"),  # YAML 1.1's booleans, text in YAML 1.2
    "words-no": skill_md("words-no", "No"),
}
# What Gemini listed of LENIENCY: folder -> (name, description).
GEMINI_KEPT = {
    "words": ("yes", "on"),
    "words-no": ("words-no", "No"),
    "mismatch": ("other-name", "Its name differs from its folder."),
    "empty-description": ("empty-description", ""),
    "name-65": ("a" * 65, "Sixty-five characters."),
    "colon": ("colon", "Use when: x"),
    "unterminated": ("unterminated", '"never closed'),
    "list-name": ("[a, b]", "A YAML list as the name."),
    "folded": ("folded", "line one line two"),
    "long": ("long", "x" * 1100),
}


def leniency_tree(tmp_path: Path) -> tuple[Path, Path]:
    repo = git_repo(tmp_path / "repo")
    for folder, text in LENIENCY.items():
        write_skill(repo / ".agents/skills", folder, text)
    home = tmp_path / "home"
    home.mkdir()
    return repo, home


@pytest.fixture(scope="module")
def leniency(views: dict[str, Seen]) -> Seen:
    return views["leniency_tree"]


def test_gemini_keeps_and_drops_frontmatter_as_listed(leniency: Seen):
    # Kept: when YAML fails, a line-by-line `key: value` reading (the quote stays in the
    # text); an empty description; no length limit on a name or a description. Dropped
    # silently: no `name` key (no folder-name default), no `description` key, no
    # frontmatter.
    view = leniency[2]
    assert {s.path.parent.name: (s.name, s.description) for s in view.own} == GEMINI_KEPT


# Where satchel's one frontmatter reader, shared by every host, differs from Gemini's own
# on purpose: folder -> (what Gemini lists, what satchel loads; None: not loaded).
READER_RULES = {
    # `folder-name`: satchel names a skill without `name` after its folder (the Agent
    # Skills rule); Gemini drops it
    "no-name": (None, ("no-name", "Has no name.")),
    # `description-required`: satchel does not load a skill with an empty description
    # (skill.description.missing); Gemini lists it
    "empty-description": (("empty-description", ""), None),
    # `yaml-reader`: satchel refuses what YAML refuses (frontmatter.yaml.syntax) and
    # reads a flow list as a list; Gemini falls back to `key: value` lines
    "unterminated": (("unterminated", '"never closed'), None),
    "list-name": (
        ("[a, b]", "A YAML list as the name."),
        ("list-name", "A YAML list as the name."),
    ),
    # `folded-newline`: satchel keeps the newline a YAML folded scalar ends with
    "folded": (("folded", "line one line two"), ("folded", "line one line two\n")),
}


def test_satchel_matches_gemini_leniency_but_for_its_reader_rules(leniency: Seen):
    repo, home, view = leniency
    env = satchel_gemini(repo, home)
    theirs = {s.path.parent.name: (s.name, s.description) for s in view.own}
    ours = {s.path.parent.name: (s.name, s.description) for s in env.skills.values()}
    assert {k: v for k, v in theirs.items() if k not in READER_RULES} == {
        k: v for k, v in ours.items() if k not in READER_RULES
    }
    for folder, (gemini_lists, satchel_loads) in READER_RULES.items():
        assert (theirs.get(folder), ours.get(folder)) == (gemini_lists, satchel_loads), folder


# --- instructions --------------------------------------------------------------------------


def instructions_tree(tmp_path: Path) -> tuple[Path, Path]:
    outer = tmp_path / "outer"
    put(outer / "GEMINI.md", "Above the repo.\n")
    repo = git_repo(outer / "repo")
    cwd = repo / "pkg/app"
    put(repo / "GEMINI.md", "Root context.\n")
    put(repo / "AGENTS.md", "Root agents.\n")
    put(repo / "CLAUDE.md", "Root claude.\n")
    put(repo / "pkg/GEMINI.md", "Pkg context.\n")
    put(cwd / "GEMINI.md", "App context.\n")
    put(cwd / "below/GEMINI.md", "Below cwd.\n")
    put(cwd / "AGENTS.md", "App agents.\n")
    home = tmp_path / "home"
    put(home / ".gemini/GEMINI.md", "Home context.\n")
    return cwd, home


@pytest.fixture(scope="module")
def instructions(views: dict[str, Seen]) -> Seen:
    return views["instructions_tree"]


def test_gemini_reads_gemini_md_from_cwd_up_to_the_git_root_and_home(instructions: Seen):
    cwd, home, view = instructions
    repo = cwd.parent.parent
    assert set(view.memory) == {
        home / ".gemini/GEMINI.md",
        repo / "GEMINI.md",
        repo / "pkg/GEMINI.md",
        cwd / "GEMINI.md",
    }


def test_satchel_matches_gemini_instructions(instructions: Seen):
    cwd, home, view = instructions
    env = satchel_gemini(cwd, home)
    assert {f.path.resolve() for f in env.instructions} == set(view.memory)

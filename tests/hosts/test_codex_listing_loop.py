"""Codex 0.171.0's skills listing, byte for byte: the real Codex and satchel's renderer
on the same generated projects.

Each scenario is built once; Codex prints its prompt (``codex debug prompt-input``) for
every scenario and runs one real turn (``codex exec`` against the scripted model) for
the default model's over-budget scenario, and satchel loads the same tree under the
``codex`` profile and renders the listing with `render_codex_listing`. Codex's bundled
skills are in both: Codex writes them into ``$CODEX_HOME/skills/.system`` and satchel
reads that folder as one of the user's."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.hostloop.hosts import run_codex
from tests.hostloop.model import Text
from tests.hosts.trees import git_repo
from tests.support import put, skill_md, write_skill

OPEN = "<skills_instructions>"


@dataclass(frozen=True, slots=True)
class Scenario:
    """A generated project: its tree, the ``config.toml`` keys Codex runs with, the
    model's context window satchel is given, and whether Codex adds its usage rules."""

    name: str
    build: Callable[[Path, Path], Path]  # (tmp, home) -> cwd
    config: str = ""
    window: int = 500_000
    usage: bool = False


def few(tmp: Path, home: Path) -> Path:
    """Few skills: project and user roots of both families, a nested folder, the walk
    from the repository root to a sub-folder, a name in two roots, whitespace, markup
    characters, non-ASCII text, literal and padded descriptions and a description over
    1,024 characters."""
    repo = git_repo(tmp / "repo")
    cwd = repo / "pkg"
    write_skill(repo / ".agents/skills", "alpha", skill_md("alpha", "Alpha helps with alpha."))
    write_skill(repo / ".agents/skills", "group/inner/nested", skill_md("nested", "Nested."))
    write_skill(repo / ".codex/skills", "beta", skill_md("beta", "Beta  with\n  spaces."))
    write_skill(cwd / ".codex/skills", "gamma", skill_md("gamma", "Gamma, at the cwd."))
    write_skill(cwd / ".agents/skills", "twice", skill_md("twice", "Project copy."))
    write_skill(home / ".agents/skills", "twice", skill_md("twice", "User copy."))
    write_skill(home / ".codex/skills", "marks", skill_md("marks", "Tags <b> & “quotes” é ✓"))
    write_skill(repo / ".agents/skills", "long", skill_md("long", "x" * 1500))
    literal = "---\nname: literal\ndescription: |\n  line one\n  line two\n---\nBody.\n"
    put(repo / ".agents/skills/literal/SKILL.md", literal)
    put(repo / ".agents/skills/padded/SKILL.md", '---\nname: padded\ndescription: "  pad  "\n---\n')
    return cwd


def many(tmp: Path, home: Path) -> Path:
    """Sixty skills whose descriptions, long and short, do not all fit; two roots (the
    project's and Codex's bundled one), so the roots table costs nothing."""
    repo = git_repo(tmp / "repo")
    for i in range(60):
        text = f"wörd{i} " * (20 + 7 * i)
        write_skill(repo / ".agents/skills", f"s{i:02d}", skill_md(f"s{i:02d}", text.strip()))
    write_skill(repo / ".agents/skills", "short", skill_md("short", "Short."))
    return repo


def many_and_home(tmp: Path, home: Path) -> Path:
    """`many` and a skill of the user's: a third root, and the table takes its share."""
    write_skill(home / ".agents/skills", "user-short", skill_md("user-short", "Short."))
    return many(tmp, home)


def crowded(tmp: Path, home: Path) -> Path:
    """More bare lines than fit: the user's skills, listed last, are left out."""
    repo = git_repo(tmp / "repo")
    for i in range(30):
        write_skill(repo / ".agents/skills", f"p{i:02d}", skill_md(f"p{i:02d}", f"Skill {i}."))
    write_skill(home / ".codex/skills", "left-out", skill_md("left-out", "Past the budget."))
    return repo


SCENARIOS = (
    Scenario("few", few),
    Scenario("many", many),
    Scenario("many-and-home", many_and_home),
    Scenario("many-gpt-5.5", many, 'model = "gpt-5.5"', 272_000, True),
    Scenario("narrow-window", many, "model_context_window = 30000", 30_000),
    Scenario("unknown-model", many, 'model = "my-own-model"', 272_000),
    Scenario("crowded", crowded, "model_context_window = 10000", 10_000),
)


def prompt_listing(binary: Path, cwd: Path, home: Path, config: str) -> str:
    """The listing ``codex debug prompt-input`` prints for `cwd`."""
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(config + "\n", encoding="utf-8")
    env = {"HOME": str(home), "CODEX_HOME": str(codex_home), "PATH": os.environ["PATH"]}
    done = subprocess.run(
        [str(binary), "debug", "prompt-input", "hi"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return listing_of(json.loads(done.stdout))


def listing_of(items: list[dict[str, object]]) -> str:
    """The one ``<skills_instructions>`` text among prompt items."""
    found = [
        part["text"]
        for item in items
        for part in item.get("content") or ()  # type: ignore[attr-defined]
        if isinstance(part, dict) and str(part.get("text", "")).startswith(OPEN)
    ]
    assert len(found) == 1
    return str(found[0])


def satchel_listing(cwd: Path, home: Path, window: int, usage: bool) -> str:
    """satchel's listing for `cwd` under the ``codex`` profile: every copy of a name."""
    from satchel import hosts, load  # type: ignore[attr-defined]
    from satchel.assembly.listings._listing_codex import render_codex_listing

    env = load(layout=hosts.get("codex").layout(cwd, home=home, env={}), host="codex")
    skills = [*env.skills.values(), *(s.loser for s in env.shadowed)]
    return render_codex_listing(skills, window, codex_home=home / ".codex", usage=usage)


def styled_listing(cwd: Path, home: Path, model: str | None) -> str:
    """The index satchel builds under the ``codex`` profile for `model` (its listing
    style, as ``satchel index --host codex`` and a session under Codex build it)."""
    from satchel import hosts, load  # type: ignore[attr-defined]
    from satchel.assembly.listings._listing import host_listing

    codex = hosts.get("codex")
    env = load(layout=codex.layout(cwd, home=home, env={}), host="codex", model=model)
    found = host_listing(
        codex,
        env.skills.values(),
        budget=codex.budget(model)[0],
        known=env.skills,
        model=model,
        shadowed=[s.loser for s in env.shadowed],
    )
    assert found is not None
    return found.text


@dataclass(frozen=True, slots=True)
class Seen:
    codex: str
    satchel: str
    styled: str | None  # through the profile's listing style, for a model it names


@pytest.fixture(scope="module")
def seen(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Seen]:
    """Every scenario through Codex's prompt and satchel's renderer."""
    out = {}
    for scenario in SCENARIOS:
        tmp = tmp_path_factory.mktemp(scenario.name)
        home = tmp / "home"
        home.mkdir()
        cwd = scenario.build(tmp, home)
        theirs = prompt_listing(codex, cwd, home, scenario.config)
        ours = satchel_listing(cwd, home, scenario.window, scenario.usage)
        model = scenario.config.split('"')[1] if scenario.config.startswith("model =") else None
        named = "model_context_window" not in scenario.config
        styled = styled_listing(cwd, home, model) if named else None
        out[scenario.name] = Seen(theirs, ours, styled)
    return out


@pytest.fixture(scope="module")
def turn_listing(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The listing a real ``codex exec`` turn sent the model, and the one satchel renders,
    for the over-budget project under the default model."""
    tmp = tmp_path_factory.mktemp("turn")
    home = tmp / "home"
    home.mkdir()
    cwd = many(tmp, home)
    turn = run_codex(codex, cwd, home, "go", [Text("done")])
    assert turn.returncode == 0, turn.stderr
    assert turn.turns[0].body["model"] == "gpt-6.2-sol"
    return listing_of(turn.turns[0].body["input"]), satchel_listing(cwd, home, 500_000, False)


@pytest.mark.parametrize("name", [s.name for s in SCENARIOS])
def test_satchel_renders_the_listing_codex_shows_byte_for_byte(
    seen: dict[str, Seen], name: str
) -> None:
    assert seen[name].satchel == seen[name].codex


@pytest.mark.parametrize("name", ["few", "many", "many-and-home", "many-gpt-5.5", "unknown-model"])
def test_the_codex_profiles_index_is_the_listing_codex_shows(
    seen: dict[str, Seen], name: str
) -> None:
    assert seen[name].styled == seen[name].codex


def test_a_real_codex_turn_sends_the_listing_satchel_renders(turn_listing: tuple[str, str]):
    theirs, ours = turn_listing
    assert ours == theirs


def lines(listing: str) -> list[str]:
    """The skill lines of a listing (after ``### Available skills``)."""
    body = listing.split("### Available skills\n", 1)[1]
    return [line for line in body.splitlines() if line.startswith("- ") and "(file: r" in line]


def tokens(listing: str) -> int:
    """What the skill lines cost in Codex's reckoning: each line and its newline, its
    UTF-8 bytes over four, rounded up."""
    return sum((len((line + "\n").encode()) + 3) // 4 for line in lines(listing))


def table(listing: str) -> int:
    """What the roots table's lines cost in Codex's reckoning, at most: its share of the
    budget grows with the length of the paths it names (the temp dir's, here)."""
    rows = [line for line in listing.splitlines() if line.startswith("- `r")]
    return sum((len((line + "\n").encode()) + 3) // 4 for line in rows)


def test_codex_budget_is_two_percent_of_the_models_window(seen: dict[str, Seen]):
    # gpt-6.2-sol: 500,000 tokens, 2% = 10,000; gpt-5.5: 272,000, 2% = 5,440. The
    # shortened lines fill it but for the roots table's share and a few tokens of rounding.
    many, small = seen["many"].codex, seen["many-gpt-5.5"].codex
    assert 10_000 - table(many) - 20 < tokens(many) <= 10_000
    assert 5_440 - table(small) - 20 < tokens(small) <= 5_440
    # a third root: the table takes more than with two
    assert tokens(seen["many-and-home"].codex) < tokens(seen["many"].codex)


def test_a_model_codex_does_not_know_gets_a_272000_token_window(seen: dict[str, Seen]):
    from satchel.assembly.listings._listing_codex import codex_model

    assert codex_model("my-own-model") == (272_000, False)
    unknown = seen["unknown-model"].codex
    assert 5_440 - table(unknown) - 20 < tokens(unknown) <= 5_440
    assert codex_model() == (500_000, False)  # gpt-6.2-sol, the default


def test_codex_shortens_every_description_evenly_before_leaving_a_skill_out(
    seen: dict[str, Seen],
):
    listed = lines(seen["many"].codex)
    assert len(listed) == 60 + 1 + 4  # and Codex's four bundled ones
    assert "- short: Short. (file: " in seen["many"].codex
    assert "wörd59 wörd59" in seen["many"].codex and "..." not in seen["many"].codex


def test_codex_leaves_out_bare_lines_past_the_budget_with_no_marker(seen: dict[str, Seen]):
    listing = seen["crowded"].codex
    assert "left-out" not in listing.split("### Available skills", 1)[1]
    assert all(": (file: r" in line for line in lines(listing))
    assert listing.endswith(lines(listing)[-1] + "\n</skills_instructions>")


def test_codex_adds_its_usage_rules_only_for_a_model_that_asks(seen: dict[str, Seen]):
    assert "### How to use skills" in seen["many-gpt-5.5"].codex
    assert "### How to use skills" not in seen["many"].codex

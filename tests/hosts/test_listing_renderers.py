"""The Codex and Gemini CLI listing renderers on fixed skills, against golden files: the
rules the host-in-the-loop tests established (test_codex_listing_loop.py,
test_gemini_listing_loop.py), kept without starting a host."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from satchel import Skill
from satchel.assembly.listings._listing_codex import codex_budget, codex_model, render_codex_listing
from satchel.assembly.listings._listing_gemini import (
    gemini_groups,
    gemini_modern,
    render_gemini_listing,
)
from satchel.foundations.origin import Origin
from tests.support import golden
from tests.support.checkout import padded


@pytest.fixture(scope="module")
def where(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the fictional home and repository: a path of one length in
    every run, however deep the temp dir (Codex's listing names it, and its budget
    counts it)."""
    return padded(tmp_path_factory.mktemp("r"), 160)


def check_listing(where: Path, name: str, text: str) -> None:
    """`text` against the golden file, `where` written as ``<tmp>``."""
    golden.check_golden(name, text, clean=partial(_placeholder, where))


def _placeholder(where: Path, text: str) -> str:
    return text.replace(str(where), "<tmp>")


def skill(root: Path, scope: str, rel: str, name: str, description: str) -> Skill:
    family = root.parent.name
    origin = Origin(scope, family, path=root)
    return Skill(name=name, description=description, path=root / rel / "SKILL.md", origin=origin)


def codex_skills(where: Path) -> list[Skill]:
    home, repo = where / "home", where / "repo"
    system = home / ".codex/skills"
    return [
        skill(repo / ".agents/skills", "project", "zeta", "zeta", "Zeta  spaced\nout."),
        skill(repo / ".agents/skills", "project", "group/alpha", "alpha", "Alpha " * 40),
        skill(repo / "pkg/.codex/skills", "project", "beta", "beta", "Beta <b> & é."),
        skill(home / ".agents/skills", "user", "alpha", "alpha", "The user's alpha."),
        skill(system, "user", ".system/tool", "tool", "Codex's own tool."),
        skill(repo / ".agents/skills", "project", "long", "long", "x" * 1100),
    ]


def test_codex_budget_is_two_percent_of_the_window_in_tokens():
    assert codex_budget(500_000) == (10_000, "tokens")
    assert codex_budget(99) == (1, "tokens")
    assert codex_budget(None) == (8_000, "chars")
    assert codex_model("gpt-5.5") == (272_000, True)


def test_codex_listing_in_full(where: Path) -> None:
    check_listing(
        where, "listing/codex-full.txt", render_codex_listing(codex_skills(where), 500_000)
    )


def test_codex_listing_shortened_evenly(where: Path) -> None:
    check_listing(
        where, "listing/codex-shortened.txt", render_codex_listing(codex_skills(where), 16_000)
    )


def test_codex_listing_bare_lines_cut_off(where: Path) -> None:
    text = render_codex_listing(codex_skills(where), 10_000)
    check_listing(where, "listing/codex-bare.txt", text)


def test_codex_listing_with_usage_rules(where: Path) -> None:
    text = render_codex_listing(codex_skills(where)[:1], 272_000, usage=True)
    check_listing(where, "listing/codex-usage.txt", text)


def test_codex_listing_of_nothing_is_empty():
    assert render_codex_listing([], 500_000) == ""


def gemini_skills(where: Path) -> tuple[list[Skill], list[Skill]]:
    home, repo = where / "home", where / "repo"
    winners = [
        skill(repo / ".gemini/skills", "project", "beta", "beta", "Project beta & <b>."),
        skill(repo / ".gemini/skills", "project", "alpha", "alpha", "Alpha."),
        skill(repo / ".gemini/skills", "project", "alpha-2", "alpha-2", "Alpha two."),
        skill(repo / ".agents/skills", "project", "gamma", "gamma", "Gamma."),
        skill(home / ".agents/skills", "user", "user-one", "user-one", "User."),
    ]
    shadowed = [skill(home / ".gemini/skills", "user", "beta", "beta", "User beta.")]
    return winners, shadowed


def test_gemini_listing(where: Path) -> None:
    winners, shadowed = gemini_skills(where)
    check_listing(where, "listing/gemini.txt", render_gemini_listing(winners, shadowed=shadowed))
    legacy = render_gemini_listing(winners, shadowed=shadowed, modern=False)
    check_listing(where, "listing/gemini-legacy.txt", legacy)


def test_gemini_groups_are_the_roots_of_first_copies(where: Path) -> None:
    winners, shadowed = gemini_skills(where)
    assert gemini_groups([*winners, *shadowed]) == [
        ["beta"],
        ["user-one"],
        ["alpha-2", "alpha"],
        ["gamma"],
    ]


def test_gemini_wording_follows_the_model_as_gemini_cli_resolves_it():
    assert gemini_modern() and gemini_modern("auto") and gemini_modern("gemini-3.5-flash")
    assert gemini_modern("gemma-4-31b-it")  # not a gemini- name: a custom model
    assert not gemini_modern("gemini-2.5-pro") and not gemini_modern("auto-gemini-2.5")

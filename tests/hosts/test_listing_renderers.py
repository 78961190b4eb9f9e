"""The Codex and Gemini CLI listing renderers on fixed skills, against golden files: the
rules the host-in-the-loop tests established (test_codex_listing_loop.py,
test_gemini_listing_loop.py), kept without starting a host."""

from __future__ import annotations

from pathlib import Path

from satchel import Skill
from satchel.hosts._listing_codex import codex_budget, codex_model, render_codex_listing
from satchel.hosts._listing_gemini import gemini_groups, gemini_modern, render_gemini_listing
from satchel.origin import Origin
from tests.support.golden import check_golden

HOME = Path("/home/u")
REPO = Path("/work/repo")


def skill(root: Path, scope: str, rel: str, name: str, description: str) -> Skill:
    family = root.parent.name
    origin = Origin(scope, family, path=root)
    return Skill(name=name, description=description, path=root / rel / "SKILL.md", origin=origin)


def codex_skills() -> list[Skill]:
    system = HOME / ".codex/skills"
    return [
        skill(REPO / ".agents/skills", "project", "zeta", "zeta", "Zeta  spaced\nout."),
        skill(REPO / ".agents/skills", "project", "group/alpha", "alpha", "Alpha " * 40),
        skill(REPO / "pkg/.codex/skills", "project", "beta", "beta", "Beta <b> & é."),
        skill(HOME / ".agents/skills", "user", "alpha", "alpha", "The user's alpha."),
        skill(system, "user", ".system/tool", "tool", "Codex's own tool."),
        skill(REPO / ".agents/skills", "project", "long", "long", "x" * 1100),
    ]


def test_codex_budget_is_two_percent_of_the_window_in_tokens():
    assert codex_budget(500_000) == (10_000, "tokens")
    assert codex_budget(99) == (1, "tokens")
    assert codex_budget(None) == (8_000, "chars")
    assert codex_model("gpt-5.5") == (272_000, True)


def test_codex_listing_in_full():
    check_golden("listing/codex-full.txt", render_codex_listing(codex_skills(), 500_000))


def test_codex_listing_shortened_evenly():
    check_golden("listing/codex-shortened.txt", render_codex_listing(codex_skills(), 12_000))


def test_codex_listing_bare_lines_cut_off():
    check_golden("listing/codex-bare.txt", render_codex_listing(codex_skills(), 2_000))


def test_codex_listing_with_usage_rules():
    text = render_codex_listing(codex_skills()[:1], 272_000, usage=True)
    check_golden("listing/codex-usage.txt", text)


def test_codex_listing_of_nothing_is_empty():
    assert render_codex_listing([], 500_000) == ""


def gemini_skills() -> tuple[list[Skill], list[Skill]]:
    winners = [
        skill(REPO / ".gemini/skills", "project", "beta", "beta", "Project beta & <b>."),
        skill(REPO / ".gemini/skills", "project", "alpha", "alpha", "Alpha."),
        skill(REPO / ".gemini/skills", "project", "alpha-2", "alpha-2", "Alpha two."),
        skill(REPO / ".agents/skills", "project", "gamma", "gamma", "Gamma."),
        skill(HOME / ".agents/skills", "user", "user-one", "user-one", "User."),
    ]
    shadowed = [skill(HOME / ".gemini/skills", "user", "beta", "beta", "User beta.")]
    return winners, shadowed


def test_gemini_listing():
    winners, shadowed = gemini_skills()
    check_golden("listing/gemini.txt", render_gemini_listing(winners, shadowed=shadowed))
    legacy = render_gemini_listing(winners, shadowed=shadowed, modern=False)
    check_golden("listing/gemini-legacy.txt", legacy)


def test_gemini_groups_are_the_roots_of_first_copies():
    winners, shadowed = gemini_skills()
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

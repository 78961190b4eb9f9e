"""Each profile's index budget (`hosts.Host.budget`), from the hosts' own numbers."""

from __future__ import annotations

from pathlib import Path

from satchel import Skill, hosts
from satchel.index._budget import Budget
from satchel.index._listing import ListingSettings
from satchel.index._render import DEFAULT_BUDGET, build_index


def test_claude_code_gets_one_percent_of_its_default_models_window_at_three_chars_a_token():
    # 2.1.332/2.1.337: floor((window ?? 200000) * Hw(model) * (skillListingBudgetFraction ?? 0.01));
    # claude-opus-5-5: context.window 1e6, Hw() 3 (not one of the older models)
    claude = hosts.get("claude-code")
    assert claude.models.default == "claude-opus-5-5"
    assert claude.budget() == (Budget(chars=30_000, description=1536), ())


def test_claude_code_counts_four_chars_a_token_for_the_older_models():
    budget, problems = hosts.get("claude-code").budget("claude-opus-4-6")
    assert (budget.chars, problems) == (8_000, ())
    assert hosts.get("claude-code").budget("claude-sonnet-5")[0].chars == 30_000


def test_claude_codes_aliases_snapshots_and_long_context_as_it_reads_them():
    # observed with 2.1.337 offline (--model, the request's model and the listing's size)
    claude = hosts.get("claude-code")
    assert claude.budget("opus")[0].chars == 30_000  # claude-opus-5-5
    assert claude.budget("claude-opus-4-6-20250101") == (claude.budget("claude-opus-4-6")[0], ())
    assert claude.budget("claude-opus-4-6[1m]")[0].chars == 40_000  # 1,000,000 at 4
    assert claude.budget("claude-3-5-sonnet")[0].chars == 8_000


def test_claude_code_reads_the_long_context_suffix_of_an_alias_in_any_case():
    # 2.1.337: TU() lower-cases the id and drops /\[1m\]$/i before it looks up the alias
    claude = hosts.get("claude-code")
    for model in ("sonnet[1m]", "opus[1M]", "Haiku[1m]"):
        resolved = claude.model(model)
        assert (resolved.known, resolved.window.tokens) == (True, 1_000_000), model
        assert claude.budget(model) == (claude.budget(model[: -len("[1m]")].lower())[0], ())
    assert claude.model("claude-opus-4-6[1M]").window.tokens == 1_000_000


def test_claude_codes_settings_replace_the_fraction_and_the_description_cap():
    settings = ListingSettings(fraction=0.05, description=200)
    budget, _ = hosts.get("claude-code").budget(None, settings)
    assert budget == Budget(chars=150_000, description=200)


def test_an_unknown_model_gets_the_hosts_fallback_window_and_a_warning():
    budget, problems = hosts.get("claude-code").budget("claude-nonesuch-9")
    assert budget.chars == 30_000
    assert [(p.code, p.severity, p.message) for p in problems] == [
        (
            "host.model-unknown",
            "warning",
            "model 'claude-nonesuch-9' is not one claude-code knows: its listing budget "
            "assumes a 1,000,000-token context window at 3 characters a token",
        )
    ]


def test_the_arithmetic_of_a_share_of_a_window():
    index = hosts.get("claude-code").index
    assert index.budget(200_000).chars == 8_000  # Claude Code's fallback without a model
    assert index.budget(1_000_000, chars_per_token=3).chars == 30_000


def test_codex_gets_two_percent_of_its_default_models_window_with_no_8000_character_cap():
    # 0.171.0: 2% of the model's window in tokens of 4 bytes (gpt-6.2-sol: 500,000, so
    # 10,000 tokens); 8,000 characters only without a window, which the CLI never has
    codex = hosts.get("codex")
    assert codex.models.default == "gpt-6.2-sol"
    assert codex.budget() == (Budget(chars=40_000, description=1024), ())
    assert codex.budget("gpt-5.5")[0].chars == 21_760


def test_codex_gives_a_model_it_does_not_know_272000_tokens():
    budget, problems = hosts.get("codex").budget("my-own-model")
    assert budget.chars == 21_760
    assert [p.code for p in problems] == ["host.model-unknown"]


def test_gemini_cli_has_no_listing_budget_whatever_the_model():
    gemini = hosts.get("gemini")
    assert gemini.models.default == "auto"
    assert gemini.budget() == (DEFAULT_BUDGET, ())  # satchel's own caps, as before


def test_satchels_own_caps_stay_64_skills_and_8_kib_whatever_the_model():
    for name in ("satchel", "mermaid", "caveman"):
        budget = hosts.get(name).index.budget()
        assert budget == Budget(chars=8192, bytes=8192, skills=64)
        assert hosts.get(name).budget("claude-opus-5-5")[0] == budget
        # the bytes bound implies the characters one: the same text as the default caps
        many = [Skill(name=f"s{i}", description="é" * 90, path=Path("/s")) for i in range(300)]
        assert build_index(many, budget=budget) == build_index(many, budget=DEFAULT_BUDGET)

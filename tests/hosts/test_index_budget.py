"""Each profile's index budget (`hosts.Index.budget`), from the hosts' own numbers."""

from __future__ import annotations

from pathlib import Path

from satchel import Skill, hosts
from satchel._budget import Budget
from satchel._render import DEFAULT_BUDGET, build_index


def test_claude_code_gets_one_percent_of_a_200k_window_and_1536_per_description():
    # 2.1.332 binary: (contextTokens ?? 200000) * 4 * (skillListingBudgetFraction ?? 0.01),
    # skillListingMaxDescChars default 1536
    assert hosts.get("claude-code").index.budget() == Budget(chars=8000, description=1536)
    assert hosts.get("claude-code").index.budget(1_000_000).chars == 40_000


def test_codex_gets_two_percent_of_the_window_with_no_8000_character_cap():
    # 0.171.0: 2% of the model's window in tokens; 8,000 characters only without a window
    assert hosts.get("codex").index.budget(500_000) == Budget(chars=40_000, description=1024)


def test_satchels_own_caps_stay_64_skills_and_8_kib():
    for name in ("satchel", "mermaid", "caveman"):
        budget = hosts.get(name).index.budget()
        assert budget == Budget(chars=8192, bytes=8192, skills=64)
        # the bytes bound implies the characters one: the same text as the default caps
        many = [Skill(name=f"s{i}", description="é" * 90, path=Path("/s")) for i in range(300)]
        assert build_index(many, budget=budget) == build_index(many, budget=DEFAULT_BUDGET)

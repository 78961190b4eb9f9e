"""`satchel.foundations.precedence`: one winner per name, every loser reported, names folded
one way."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.precedence import (
    UNSEEN,
    Clash,
    Ladder,
    Loss,
    Settled,
    Shadowed,
    Source,
    Verdict,
    fold_name,
    settle,
)
from tests.properties.support import PROPS


@dataclass(frozen=True, slots=True)
class Item:
    name: str
    n: int = 0


def _name(item: Item) -> str:
    return item.name


def _said(clash: Clash[Item]) -> Loss:
    where = "same source" if clash.same_source else "higher source"
    message = f"{clash.loser.name}#{clash.loser.n} lost to #{clash.winner.n} ({where})"
    return Loss(diagnostic("skill.shadowed", message, None))


def _note(message: str) -> Diagnostic:
    return diagnostic("discovery.limit", message, Path("root"))


def _settle(*sources: Sequence[Item], **hooks: Any) -> Settled[Item]:
    return settle([Source(items) for items in sources], name=_name, lost=_said, **hooks)


def test_fold_name_is_nfc_then_casefold():
    assert fold_name("Deploy-Tools") == "deploy-tools"
    assert fold_name("Stra\u00dfe") == "strasse"
    assert fold_name("Cafe\u0301") == fold_name("caf\u00e9") == "caf\u00e9"
    assert fold_name("\u03a3\u0391\u03a3") == "\u03c3\u03b1\u03c3"


def test_shadowed_records_name_the_loser_and_pairs_give_winner_then_loser():
    found = _settle([Item("Deploy", 1)], [Item("deploy", 2)])
    assert found.shadowed == (Shadowed("deploy", Item("Deploy", 1), Item("deploy", 2)),)
    assert found.pairs() == ((Item("Deploy", 1), Item("deploy", 2)),)


def test_the_first_of_a_folded_name_wins_and_each_later_one_is_shadowed():
    found = _settle([Item("Deploy", 1), Item("lint", 2)], [Item("deploy", 3)], [Item("DEPLOY", 4)])
    assert found.winners == (Item("Deploy", 1), Item("lint", 2))
    assert [(s.name, s.winner.n, s.loser.n) for s in found.shadowed] == [
        ("deploy", 1, 3),
        ("DEPLOY", 1, 4),
    ]
    assert [d.message for d in found.diagnostics] == [
        "deploy#3 lost to #1 (higher source)",
        "DEPLOY#4 lost to #1 (higher source)",
    ]


def test_a_clash_inside_one_source_is_told_apart_from_one_across_sources():
    found = _settle([Item("a", 1), Item("A", 2)], [Item("a", 3)])
    assert [d.message for d in found.diagnostics] == [
        "A#2 lost to #1 (same source)",
        "a#3 lost to #1 (higher source)",
    ]


def test_each_sources_own_diagnostics_come_before_its_losses():
    sources = [
        Source([Item("a", 1)], [_note("first")]),
        Source([Item("a", 2)], [_note("second")]),
        Source(diagnostics=[_note("third")]),
    ]
    found = settle(sources, name=_name, lost=_said)
    assert [d.message for d in found.diagnostics] == [
        "first",
        "second",
        "a#2 lost to #1 (higher source)",
        "third",
    ]


def test_a_loss_can_be_silent_or_unlisted():
    def lost(clash: Clash[Item]) -> Loss:
        if clash.loser.n == 2:
            return UNSEEN
        if clash.loser.n == 3:
            return Loss()
        return Loss(diagnostic("plugin.name.collision", "listed nowhere", None), shadowed=False)

    found = settle(
        [Source([Item("a", 1), Item("a", 2), Item("a", 3), Item("a", 4)])], name=_name, lost=lost
    )
    assert found.winners == (Item("a", 1),)
    assert [s.loser.n for s in found.shadowed] == [3]
    assert [d.message for d in found.diagnostics] == ["listed nowhere"]


def test_admit_drops_or_changes_a_candidate_before_its_name_is_looked_at():
    def admit(item: Item) -> Verdict[Item]:
        if item.name == "general":
            return None, _note("general is built in")
        return Item(item.name, item.n * 10), None

    found = settle(
        [Source([Item("a", 1), Item("general", 2), Item("a", 3)], admit=admit)],
        name=_name,
        lost=_said,
    )
    assert found.winners == (Item("a", 10),)
    assert [d.message for d in found.diagnostics] == [
        "general is built in",
        "a#30 lost to #10 (same source)",
    ]


def test_keep_runs_only_for_a_free_name_and_may_still_drop_it():
    def keep(item: Item) -> Verdict[Item]:
        if item.n == 2:
            return None, _note(f"#{item.n} is dropped after all")
        return item, None

    found = _settle([Item("a", 1), Item("a", 9)], [Item("b", 2), Item("b", 3)], keep=keep)
    assert found.winners == (Item("a", 1), Item("b", 3))
    assert [d.message for d in found.diagnostics] == [
        "a#9 lost to #1 (same source)",
        "#2 is dropped after all",
    ]


def test_a_kind_may_compare_names_exactly():
    found = _settle([Item("GitHub", 1), Item("github", 2), Item("GitHub", 3)], key=_name)
    assert found.winners == (Item("GitHub", 1), Item("github", 2))
    assert [s.loser.n for s in found.shadowed] == [3]


def test_within_orders_the_winners_of_each_source_and_sources_keep_their_order():
    found = _settle([Item("b"), Item("a")], [Item("d"), Item("c")], within=_name)
    assert [w.name for w in found.winners] == ["a", "b", "c", "d"]
    found = _settle([Item("b"), Item("a")], [Item("d"), Item("c")])
    assert [w.name for w in found.winners] == ["b", "a", "d", "c"]


def test_a_ladder_claims_an_alias_only_while_the_name_is_free():
    ladder: Ladder[Item] = Ladder(name=_name)
    ladder.next_source()
    assert ladder.offer(Item("deploy", 1)) is None
    assert ladder.claim("Tools:Deploy", Item("deploy", 1))
    assert not ladder.claim("DEPLOY", Item("other", 2))
    assert not ladder.free("tools:deploy")
    assert ladder.current() == [Item("deploy", 1)]
    ladder.next_source()
    clash = ladder.offer(Item("tools:deploy", 3))
    assert clash == Clash(Item("deploy", 1), Item("tools:deploy", 3), False, "Tools:Deploy")
    assert ladder.current() == []
    assert dict(ladder.aliases()) == {"Tools:Deploy": Item("deploy", 1)}


def test_a_ladder_holds_a_renamed_loser_in_its_own_source():
    ladder: Ladder[Item] = Ladder(name=_name)
    ladder.next_source()
    ladder.offer(Item("x", 1))
    clash = ladder.offer(Item("x", 2))
    assert clash is not None and clash.same_source
    ladder.lose(clash, Loss(_note("collision"), shadowed=False))
    ladder.hold(Item("b:x", 2))
    found = ladder.settled(within=_name)
    assert found == Settled((Item("b:x", 2), Item("x", 1)), (), (_note("collision"),))


_NAMES = st.sampled_from(["a", "A", "b", "B", "c", "\u00e9", "e\u0301", "\u00c9"])
_SOURCES = st.lists(st.lists(_NAMES, max_size=6), max_size=5)


def _numbered(sources: list[list[str]]) -> list[list[Item]]:
    count = iter(range(1000))
    return [[Item(name, next(count)) for name in names] for names in sources]


@PROPS
@given(_SOURCES)
def test_property_first_per_key_wins_and_every_other_loses_to_it_in_order(names):
    sources = _numbered(names)
    found = _settle(*sources)
    flat = [item for items in sources for item in items]
    first: dict[str, Item] = {}
    for item in flat:
        first.setdefault(fold_name(item.name), item)
    assert found.winners == tuple(first.values())
    losers = [item for item in flat if first[fold_name(item.name)] is not item]
    assert [s.loser for s in found.shadowed] == losers
    assert all(s.winner is first[fold_name(s.loser.name)] for s in found.shadowed)
    assert all(s.name == s.loser.name for s in found.shadowed)
    assert len(found.winners) + len(found.shadowed) == len(flat)


@PROPS
@given(_SOURCES)
def test_property_a_clash_is_same_source_exactly_when_both_came_from_one(names):
    sources = _numbered(names)
    home = {item.n: i for i, items in enumerate(sources) for item in items}
    clashes: list[Clash[Item]] = []

    def lost(clash: Clash[Item]) -> Loss:
        clashes.append(clash)
        return Loss()

    settle([Source(items) for items in sources], name=_name, lost=lost)
    assert all(c.same_source == (home[c.winner.n] == home[c.loser.n]) for c in clashes)
    assert all(home[c.winner.n] <= home[c.loser.n] for c in clashes)


@PROPS
@given(_SOURCES)
def test_property_winners_come_by_source_then_by_within(names):
    sources = _numbered(names)
    home = {item.n: i for i, items in enumerate(sources) for item in items}
    found = _settle(*sources, within=_name)
    order = [(home[w.n], w.name) for w in found.winners]
    assert order == sorted(order)
    assert set(found.winners) == set(_settle(*sources).winners)

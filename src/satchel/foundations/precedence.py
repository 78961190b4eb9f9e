"""Which name wins, and who lost: one rule for skills, commands, agents, plugins and
MCP servers.

Candidates come in sources, highest precedence first (the host's catalog, a skills
root, one plugin ...), and within a source in the order they were read. The first
candidate of each key wins; each later one loses to the holder as a `Clash`, which
the kind turns into a `Loss`: its own diagnostic (code and message) and whether the
loser is listed as `Shadowed`. Names compare by `fold_name` (NFC, then casefolded)
unless a kind passes its own key.

`settle()` runs a whole precedence order in one call. `Ladder` is the same rule one
offer at a time, for a kind that does more between offers (commands claim their
aliases after each source).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeAlias, TypeVar

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic

__all__ = [
    "Clash",
    "Ladder",
    "Loss",
    "Settled",
    "Shadowed",
    "Source",
    "UNSEEN",
    "Verdict",
    "by_name",
    "fold_name",
    "settle",
]

T = TypeVar("T")


def fold_name(name: str) -> str:
    """How names are compared (skills, commands, agents, plugins): NFC, then casefolded."""
    if name.isascii():
        return name.lower()
    return unicodedata.normalize("NFC", name).casefold()


def by_name(item: Any) -> str:
    """A candidate's `name`: how every kind names what it settles, unless it says otherwise."""
    return str(item.name)


def _folded_name(item: Any) -> str:
    """``fold_name(by_name(item))``."""
    name = str(item.name)
    return name.lower() if name.isascii() else fold_name(name)


@model
class Shadowed(Generic[T]):
    """A candidate hidden by a same-named one of higher precedence. `name` is the
    loser's."""

    name: str
    winner: T
    loser: T


# What a gate makes of a candidate: the candidate to go on with (changed, or None to
# drop it) and the diagnostic that says why, if any.
Verdict: TypeAlias = tuple[T | None, Diagnostic | None]


@model
class Source(Generic[T]):
    """One rung of precedence: its candidates in order, what reading them found
    (reported before any loss among them), and the gate each candidate passes before
    its name is looked at (None: every one goes on as it is)."""

    items: Sequence[T] = ()
    diagnostics: Sequence[Diagnostic] = ()
    admit: Callable[[T], Verdict[T]] | None = None


@model
class Clash(Generic[T]):
    """A candidate whose key is held by `winner`: from the same source or a higher one.
    `alias` is the name the winner holds that key under when it is not its own
    (`Ladder.claim`)."""

    winner: T
    loser: T
    same_source: bool
    alias: str | None = None


@model
class Loss:
    """What a clash comes to: the diagnostic reported (None: nothing is said) and
    whether the loser is listed as shadowed."""

    diagnostic: Diagnostic | None = None
    shadowed: bool = True


UNSEEN = Loss(None, shadowed=False)  # the winner itself again (one file reached twice)


@model
class Settled(Generic[T]):
    """The winners in precedence order, every listed loss, and every diagnostic in the
    order it arose (each source's own first, then its losses)."""

    winners: tuple[T, ...] = ()
    shadowed: tuple[Shadowed[T], ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    def pairs(self) -> tuple[tuple[T, T], ...]:
        """(winner, loser) of each shadowed one: the shape `CommandSet`, `PluginSet`
        and `McpServerSet` list (their callers compare and unpack the pairs)."""
        return tuple((s.winner, s.loser) for s in self.shadowed)


@model
class _Hold(Generic[T]):
    rank: int
    owner: T
    alias: str | None = None


class Ladder(Generic[T]):
    """Keys held so far, each by the first candidate offered with it.

    `name` gives a candidate's name, `fold` how names compare; `key` replaces
    ``fold(name(item))`` for a kind whose candidates are keyed otherwise."""

    def __init__(
        self,
        *,
        name: Callable[[T], str] = by_name,
        fold: Callable[[str], Hashable] = fold_name,
        key: Callable[[T], Hashable] | None = None,
    ) -> None:
        self._name = name
        self._fold = fold
        if key is None and name is by_name and fold is fold_name:
            key = _folded_name  # the same, in one call: it runs for every candidate
        self._key = key or (lambda item: fold(name(item)))
        self._held: dict[Hashable, _Hold[T]] = {}
        self._winners: list[tuple[int, T]] = []
        self._shadowed: list[Shadowed[T]] = []
        self._diagnostics: list[Diagnostic] = []
        self._rank = 0

    def next_source(self, diagnostics: Iterable[Diagnostic] = ()) -> None:
        """Start the next source down, with what reading it found."""
        self._rank += 1
        self._diagnostics.extend(diagnostics)

    def note(self, found: Diagnostic) -> None:
        """Report `found` here, in order with the losses."""
        self._diagnostics.append(found)

    def clash(self, item: T) -> Clash[T] | None:
        """What holds `item`'s key, if anything does."""
        held = self._held.get(self._key(item))
        if held is None:
            return None
        return Clash(held.owner, item, held.rank == self._rank, held.alias)

    def hold(self, item: T) -> None:
        """Make `item` the winner of its key (which must be free)."""
        self._hold_at(self._key(item), item)

    def _hold_at(self, key: Hashable, item: T) -> None:
        self._held[key] = _Hold(self._rank, item)
        self._winners.append((self._rank, item))

    def offer(self, item: T) -> Clash[T] | None:
        """Hold `item` if its key is free (None), else the clash, not yet reported."""
        found = self.clash(item)
        if found is None:
            self.hold(item)
        return found

    def lose(self, clash: Clash[T], loss: Loss) -> None:
        """Report a clash as `loss` says."""
        if loss.shadowed:
            self._shadowed.append(Shadowed(self._name(clash.loser), clash.winner, clash.loser))
        if loss.diagnostic is not None:
            self._diagnostics.append(loss.diagnostic)

    def free(self, name: str) -> bool:
        """Whether no winner and no alias holds `name`."""
        return self._fold(name) not in self._held

    def claim(self, alias: str, owner: T) -> bool:
        """Let `owner` also answer to `alias` if that name is free; whether it now does."""
        if not self.free(alias):
            return False
        self._held[self._fold(alias)] = _Hold(self._rank, owner, alias)
        return True

    def current(self) -> list[T]:
        """The winners of the source being offered, in the order they won."""
        return [item for rank, item in self._winners if rank == self._rank]

    def aliases(self) -> Mapping[str, T]:
        """Each alias claimed, in claim order, with its owner."""
        return {h.alias: h.owner for h in self._held.values() if h.alias is not None}

    def settled(self, within: Callable[[T], Any] | None = None) -> Settled[T]:
        """The result so far: winners by source, and within a source by `within`
        (None: in the order they won)."""
        winners = self._winners
        if within is not None:
            winners = sorted(winners, key=lambda pair: (pair[0], within(pair[1])))
        return Settled(
            tuple(item for _, item in winners), tuple(self._shadowed), tuple(self._diagnostics)
        )


def settle(
    sources: Iterable[Source[T]],
    *,
    name: Callable[[T], str] = by_name,
    lost: Callable[[Clash[T]], Loss],
    key: Callable[[T], Hashable] | None = None,
    keep: Callable[[T], Verdict[T]] | None = None,
    within: Callable[[T], Any] | None = None,
) -> Settled[T]:
    """One winner per key over `sources` (highest first), every loss reported by `lost`.

    A candidate passes its source's `admit` gate, then its key is looked up (by `key`,
    else ``fold_name(name(item))``): held, it loses (`lost`); free, `keep` may still
    change it or drop it before it is held. Winners come by source, and within one by
    `within` (None: in the order given)."""
    ladder: Ladder[T] = Ladder(name=name, key=key)
    for source in sources:
        ladder.next_source(source.diagnostics)
        admit = source.admit
        for item in source.items:
            _offer(ladder, item, admit, lost, keep)
    return ladder.settled(within)


def _offer(
    ladder: Ladder[T],
    item: T,
    admit: Callable[[T], Verdict[T]] | None,
    lost: Callable[[Clash[T]], Loss],
    keep: Callable[[T], Verdict[T]] | None,
) -> None:
    candidate: T | None = item if admit is None else _through(ladder, admit, item)
    if candidate is None:
        return
    at = ladder._key(candidate)  # looked up once: this runs for every candidate
    held = ladder._held.get(at)
    if held is not None:
        clash = Clash(held.owner, candidate, held.rank == ladder._rank, held.alias)
        ladder.lose(clash, lost(clash))
        return
    if keep is None:
        ladder._hold_at(at, candidate)
        return
    candidate = _through(ladder, keep, candidate)
    if candidate is not None:
        ladder.hold(candidate)


def _through(ladder: Ladder[T], gate: Callable[[T], Verdict[T]] | None, item: T) -> T | None:
    """`item` past `gate` (what it says noted), or None when the gate drops it."""
    if gate is None:
        return item
    passed, found = gate(item)
    if found is not None:
        ladder.note(found)
    return passed

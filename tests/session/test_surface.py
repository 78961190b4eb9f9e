"""`Session`'s public surface is what a host loop calls: at most 20 members, each one a
row of the table in docs/runtime.md ("What a host loop calls"), and no other."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from satchel.session import Session

RUNTIME_MD = Path(__file__).resolve().parents[2] / "docs" / "runtime.md"
MOST = 20


def documented_members() -> list[str]:
    """The first column of the table under "What a host loop calls", as member names."""
    text = RUNTIME_MD.read_text(encoding="utf-8")
    section = text.split("\n## What a host loop calls\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [re.match(r"\| `([a-z_]+)", row).group(1) for row in rows]  # type: ignore[union-attr]


def test_the_session_has_at_most_twenty_public_members(make_session: Callable[..., Session]):
    public = [n for n in dir(make_session()) if not n.startswith("_")]

    assert len(public) <= MOST, sorted(public)


def test_the_documented_table_names_every_public_member_once_and_nothing_else(
    make_session: Callable[..., Session],
):
    public = {n for n in dir(make_session()) if not n.startswith("_")}
    documented = documented_members()

    assert len(documented) == len(set(documented)), documented
    assert set(documented) == public

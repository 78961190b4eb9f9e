"""Codes an author chose not to see, as ruff's ``--ignore`` and ``ignore = [...]`` do.

A selector is a diagnostic code (``agent.model.alias``) or a prefix of codes that ends
at a dot (``agent.model`` selects ``agent.model.alias``; ``agent`` selects every
``agent.*`` code; ``agent.mod`` selects nothing). A selector that selects no code in
the registry is unknown: the command line refuses it, a config file reports it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from satchel.core.diagnostics import CODES, Diagnostic

__all__ = ["ignored", "kept", "split_selectors", "unknown_selectors"]


def ignored(code: str, selectors: Iterable[str]) -> bool:
    """Whether `code` is selected by one of `selectors`."""
    return any(code == s or code.startswith(f"{s}.") for s in selectors)


def kept(diagnostics: Iterable[Diagnostic], selectors: Sequence[str]) -> tuple[Diagnostic, ...]:
    """`diagnostics` without the ignored ones, in order."""
    if not selectors:
        return tuple(diagnostics)
    return tuple(d for d in diagnostics if not ignored(d.code, selectors))


def unknown_selectors(selectors: Iterable[str]) -> list[str]:
    """The selectors that select no registered code, in order."""
    return [s for s in selectors if not any(ignored(code, (s,)) for code in CODES)]


def split_selectors(values: Iterable[str]) -> list[str]:
    """Selectors as given on a command line: each value may hold several, split at
    commas (``--ignore a.b,c.d``), blanks dropped."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]

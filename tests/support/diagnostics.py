"""Diagnostics as the tests compare them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def codes(diagnostics: Iterable[Any]) -> list[str]:
    """The code of each diagnostic, in order."""
    return [d.code for d in diagnostics]

"""Audit CLI fixtures: the CLI tests' own (`main()` in-process, a clean terminal)."""

from ..cli.conftest import plain_terminal, satchel

__all__ = ["plain_terminal", "satchel"]

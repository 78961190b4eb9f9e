"""What the host definitions share: root-table rows and the Agent Skills fields."""

from __future__ import annotations

from satchel.core.layout import RootSpec

__all__ = ["SPEC_FIELDS", "rows"]


def rows(scope: str, *pairs: tuple[str, str]) -> tuple[RootSpec, ...]:
    """Root-table rows in `scope`, one per ``(family, template)`` pair."""
    return tuple(RootSpec(scope, family, template) for family, template in pairs)


SPEC_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")

"""The installer's one exception (`satchel.core.errors.InstallError`, a refusal that
carries its diagnostic) and how a refusal is made."""

from __future__ import annotations

from pathlib import Path

from satchel.core.diagnostics import diagnostic
from satchel.core.errors import InstallError

__all__ = ["InstallError", "refuse"]


def refuse(
    code: str, message: str, path: Path | None = None, *, hint: str | None = None
) -> InstallError:
    """An `InstallError` for a registered code."""
    return InstallError(diagnostic(code, message, path, hint=hint))

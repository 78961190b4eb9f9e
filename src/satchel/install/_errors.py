"""The one exception of the installer: a refusal that carries its diagnostic."""

from __future__ import annotations

from pathlib import Path

from satchel.diagnostics import diagnostic
from satchel.errors import Refused

__all__ = ["InstallError", "refuse"]


class InstallError(Refused):
    """An install, update, removal or fetch that satchel refuses or cannot carry out.

    `code` is a stable ``install.*`` diagnostic code; nothing was written to the
    scope when it is raised (the staging directory is removed)."""


def refuse(
    code: str, message: str, path: Path | None = None, *, hint: str | None = None
) -> InstallError:
    """An `InstallError` for a registered code."""
    return InstallError(diagnostic(code, message, path, hint=hint))

"""A review of each new version before it replaces an installed tree.

The installer does not judge what it installs; its caller may. `install_from_spec`
and `update` take a `Review`: a callable given each `Reviewed` (the installed tree and
the new version staged beside it, both whole on disk) before anything is placed. When
it answers False for any of them, the install is refused (``install.review.refused``)
and nothing is installed or replaced. satchel's command line passes one that audits
both trees (`satchel.audit`) and answers from ``--fail-on-new``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from satchel.core._model import model
from satchel.install._errors import refuse

__all__ = ["Review", "Reviewed", "review_all"]


@model
class Reviewed:
    """One tree about to be replaced: its `name` and `kind` (``skill`` or
    ``plugin``), the installed tree (`old`, which may be missing) and the new version
    (`new`, in the private workspace, gone once the install returns)."""

    name: str
    kind: str
    old: Path
    new: Path


Review = Callable[[Reviewed], bool]


def review_all(items: Iterable[Reviewed], review: Review | None) -> None:
    """Ask `review` about every item (each one, so that the caller sees them all);
    refuse when it answered False for any."""
    if review is None:
        return
    refused = [item for item in list(items) if not review(item)]
    if refused:
        names = ", ".join(f"{i.kind} {i.name!r}" for i in refused)
        message = f"the review refused the new version of {names}: nothing was installed"
        raise refuse("install.review.refused", message, refused[0].old)

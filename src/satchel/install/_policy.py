"""What the organisation's policy lets the installer fetch (docs/policy.md).

Every install, update and frozen install asks before it fetches anything:

- `allow_source`: ``[sources] allow`` / ``deny`` (`Policy.check_source`) and
  ``require_pins`` (`Policy.check_pinned`): with it, only a source pinned to a commit
  (a git ref of 40 or 64 hex digits), an OCI ``sha256:`` digest or an archive's
  ``sha256=`` may be installed; a frozen install is pinned by its lock entry's commit,
  digest or integrity;
- `allow_listing`: ``[sources] allow`` / ``deny`` for ``satchel browse``, which fetches
  a source to list it;
- `allow_marketplace`: ``[marketplaces] allow`` / ``deny`` (`Policy.check_marketplace`),
  for adding, updating and reading a catalogue.

A policy that cannot be read refuses every one of them (fail closed). The refusal is
an `InstallError` carrying the ``policy.denied`` diagnostic, which names the key and
the file. The policy is read as `load()` reads it: the system's file (from the
process's environment), the user's and the project's of the layout.
"""

from __future__ import annotations

import re

from satchel.core.errors import InstallError
from satchel.core.layout import Layout
from satchel.foundations.policy._model import Policy
from satchel.foundations.policy._read import read_policy
from satchel.install._sources import Source

__all__ = ["allow_listing", "allow_marketplace", "allow_source", "is_pinned", "policy_for"]

_COMMIT = re.compile(r"(?:[0-9a-f]{40}|[0-9a-f]{64})\Z")
_DIGEST = re.compile(r"sha256[:=][0-9a-f]{64}\Z")


def policy_for(layout: Layout) -> Policy:
    """The policy in force for `layout` (its files' problems are `load()`'s to report)."""
    policy, _ = read_policy(
        config_home=layout.config_home, project=layout.project, client=layout.client
    )
    return policy


def is_pinned(src: Source, pin: str | None = None, integrity: str | None = None) -> bool:
    """Whether `src` (fetched at `pin`, checked against `integrity`) names one tree
    only: a commit, a digest or an integrity."""
    if integrity:
        return True
    ref = pin or src.ref or ""
    if src.kind in ("git", "github"):
        return _COMMIT.match(ref) is not None
    if src.kind == "wellknown":
        return pin is not None
    if src.kind in ("oci", "archive"):
        return _DIGEST.match(ref) is not None
    return False


def allow_source(
    src: Source, layout: Layout, *, pin: str | None = None, integrity: str | None = None
) -> None:
    """Raise the policy's refusal of installing from `src`, if it has one."""
    policy = policy_for(layout)
    spec = src.spec()
    why = policy.check_source(spec) or policy.check_pinned(
        spec, pinned=is_pinned(src, pin, integrity)
    )
    if why is not None:
        raise InstallError(why)


def allow_listing(src: Source, layout: Layout) -> None:
    """Raise the policy's refusal of fetching `src` to list it (``satchel browse``):
    ``[sources] allow`` / ``deny`` (a pin is asked of installs only)."""
    why = policy_for(layout).check_source(src.spec())
    if why is not None:
        raise InstallError(why)


def allow_marketplace(spec: str, layout: Layout) -> None:
    """Raise the policy's refusal of adding or reading the catalogue at `spec`."""
    why = policy_for(layout).check_marketplace(spec)
    if why is not None:
        raise InstallError(why)

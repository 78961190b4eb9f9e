"""What the organisation's policy lets the installer fetch (docs/policy.md).

Every install, update and frozen install asks before it fetches anything:

- `allow_source`: ``[sources] allow`` / ``deny`` (`Policy.check_source`),
  ``require_pins`` (`Policy.check_pinned`): with it, only a source pinned to a commit
  (a git ref of 40 or 64 hex digits), an OCI ``sha256:`` digest or an archive's
  ``sha256=`` may be installed; a frozen install is pinned by its lock entry's commit,
  digest or integrity; and ``require_digest`` (`Policy.check_digest`): a source it
  names must publish a digest that what is fetched is checked against
  (`publishes_digest`);
- `allow_listing`: ``[sources] allow`` / ``deny`` for ``satchel browse``, which fetches
  a source to list it;
- `allow_marketplace`: ``[marketplaces] allow`` / ``deny`` (`Policy.check_marketplace`),
  for adding, updating and reading a catalogue.

A policy that cannot be read refuses every one of them (fail closed). The refusal is
an `InstallError` carrying the ``policy.denied`` diagnostic, which names the key and
the file. The policy is read as `load()` reads it: the system's file (from the
process's environment), the user's and the project's of the layout.

`signers_for` gives who may sign what is installed from a source
(``require_signed``), and `installed_refusals` what is already installed that
``require_signed`` or ``require_digest`` would refuse (``satchel policy check``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import InstallError
from satchel.core.layout import Layout
from satchel.foundations.policy._model import AllowedSigners, Policy
from satchel.foundations.policy._read import read_policy
from satchel.install._lock import LockEntry, read_lock
from satchel.install._scope import SCOPES, scope_for
from satchel.install._signatures import Signers
from satchel.install._sources import Source, parse_source

__all__ = [
    "allow_listing",
    "allow_marketplace",
    "allow_named_signers",
    "allow_signed",
    "allow_source",
    "signers_to_verify",
    "installed_refusals",
    "is_pinned",
    "policy_for",
    "publishes_digest",
    "recorded_digest",
    "signers_for",
]

_COMMIT = re.compile(r"(?:[0-9a-f]{40}|[0-9a-f]{64})\Z")
_DIGEST = re.compile(r"sha256[:=][0-9a-f]{64}\Z")
_OCI_DIGEST = re.compile(r"sha256:[0-9a-f]{64}\Z")
_ARCHIVE_DIGEST = re.compile(r"sha256=[0-9a-f]{64}\Z")
# the sources whose every artifact is checked against a digest they publish
_PUBLISHING = ("oci", "wellknown", "npm")


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


def publishes_digest(src: Source) -> bool:
    """Whether what is fetched from `src` is checked, before anything of it is
    unpacked, against a digest its source publishes, and pinned by it in the lock: an
    OCI manifest's digest, a skills index entry's digest, the npm registry's
    integrity, an archive's ``#sha256=`` (from the user or the catalogue). A git
    commit is not one (it is what ``require_pins`` asks for: a GitHub tarball is not
    checked against it), nor a local folder, nor an MCP server's listing."""
    if src.kind in _PUBLISHING:
        return True
    return src.kind == "archive" and _ARCHIVE_DIGEST.match(src.ref or "") is not None


def recorded_digest(entry: LockEntry, src: Source) -> str | None:
    """The published digest the lock `entry` (installed from `src`) is pinned by, or
    None when it records none (`publishes_digest`)."""
    if src.kind in ("oci", "wellknown"):
        found = entry.resolved or ""
        return found if _OCI_DIGEST.match(found) else None
    if src.kind == "npm":
        return entry.integrity if (entry.integrity or "").startswith("sha512-") else None
    if src.kind == "archive" and _ARCHIVE_DIGEST.match(src.ref or ""):
        return src.ref
    return None


def allow_source(
    src: Source, layout: Layout, *, pin: str | None = None, integrity: str | None = None
) -> None:
    """Raise the policy's refusal of installing from `src`, if it has one."""
    policy = policy_for(layout)
    spec = src.spec()
    why = (
        policy.check_source(spec)
        or policy.check_pinned(spec, pinned=is_pinned(src, pin, integrity))
        or policy.check_digest(spec, published=publishes_digest(src))
    )
    if why is not None:
        raise InstallError(why)


def signers_for(src: Source, layout: Layout) -> AllowedSigners | None:
    """Who may sign what is installed from `src` (``require_signed``), or None when
    the policy asks for no signature of it."""
    return policy_for(layout).signers(src.spec())


def signers_to_verify(src: Source, layout: Layout, given: Signers | None) -> Signers | None:
    """Whom a signature of what is installed from `src` must name: the signers the
    user gave (`given`, ``--signer``), each of which a ``require_signed`` rule naming
    `src` must allow (`allow_named_signers`); without them, the identities and issuers
    of those rules. `allow_signed` then holds what was verified to every rule."""
    allowed = policy_for(layout).signers(src.spec())
    if allowed is None:
        return given
    if given is not None:
        allow_named_signers(src, layout, given.identities)
        return given
    return Signers(allowed.identities, allowed.issuers)


def allow_named_signers(src: Source, layout: Layout, identities: Iterable[str]) -> None:
    """Raise the policy's refusal of a signer the user named for installing from
    `src` (``--signer``) that a ``require_signed`` rule naming `src` does not allow:
    the policy's rules narrow whom the user may name (`Policy.check_named_signer`)."""
    policy = policy_for(layout)
    for identity in identities:
        why = policy.check_named_signer(src.spec(), identity)
        if why is not None:
            raise InstallError(why)


def allow_signed(entries: Iterable[LockEntry], layout: Layout) -> None:
    """Raise the policy's refusal of the first of `entries` (about to be installed,
    each with the signature that was verified, or none) whose signer a
    ``require_signed`` rule naming its source does not allow, or that is unsigned."""
    policy = policy_for(layout)
    for entry in entries:
        signed = entry.signature
        what = f"installing {entry.kind} {entry.name!r} from {entry.source!r}"
        identity, issuer = (signed.identity, signed.issuer) if signed else (None, None)
        why = policy.check_signed(entry.source, identity, issuer, what=what)
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


def installed_refusals(layout: Layout, policy: Policy | None = None) -> tuple[Diagnostic, ...]:
    """Each entry of each scope's lock that ``require_signed`` (``policy.installed.unsigned``,
    ``policy.installed.signer``) or ``require_digest`` (``policy.installed.digest``)
    would refuse, project scope first; a lock that cannot be read gives its own
    diagnostic. A closed policy gives nothing here (it refuses every install)."""
    policy = policy_for(layout) if policy is None else policy
    if policy.closed is not None or not (policy.require_signed or policy.require_digest):
        return ()
    found: list[Diagnostic] = []
    for name in SCOPES:
        where = scope_for(layout, name)
        try:
            lock = read_lock(where.lock_path)
        except InstallError as e:
            found.append(e.diagnostic)
            continue
        for entry in lock.entries:
            found += _entry_refusals(policy, entry, layout, name, where.lock_path)
    return tuple(found)


def _entry_refusals(
    policy: Policy, entry: LockEntry, layout: Layout, scope: str, lock: Path
) -> list[Diagnostic]:
    """What ``require_signed`` and ``require_digest`` say of one installed `entry`."""
    what = f"{entry.kind} {entry.name!r} installed in the {scope} scope from {entry.source!r}"
    out: list[Diagnostic] = []
    signers = policy.signers(entry.source)
    signed = entry.signature
    if signers is not None:
        rule = signers.failing(*((signed.identity, signed.issuer) if signed else (None, None)))
        if rule is not None and signed is None:
            message = (
                f"{what} is not signed, which policy key `require_signed` in {rule.path} requires"
            )
            out.append(diagnostic("policy.installed.unsigned", message, lock))
        elif rule is not None and signed is not None:
            message = (
                f"{what} was signed by {signed.identity!r} (issuer {signed.issuer!r}), whom "
                f"policy key `require_signed` in {rule.path} does not allow"
            )
            out.append(diagnostic("policy.installed.signer", message, lock))
    path = policy.digest_rule(entry.source)
    if path is not None and not _pinned_by_digest(entry, layout):
        message = (
            f"{what} is not pinned by a published digest, which policy key `require_digest` "
            f"in {path} requires"
        )
        out.append(diagnostic("policy.installed.digest", message, lock))
    return out


def _pinned_by_digest(entry: LockEntry, layout: Layout) -> bool:
    try:
        src = parse_source(entry.source, cwd=layout.cwd, home=layout.home)
    except InstallError:
        return False
    return recorded_digest(entry, src) is not None

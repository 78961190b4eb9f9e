"""`Fetched`: what any fetcher hands back, and the unpacking steps they share."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.install._extract import extract_archive
from satchel.install._git import fetch_git
from satchel.install._lock import Signature
from satchel.install._settings import Limits, Settings

__all__ = ["Fetched", "fetched_git", "unpack", "unpack_download"]


@model
class Fetched:
    """A source's files on disk, in a private staging directory.

    `resolved` is the commit SHA (git, GitHub) or the exact version (npm) the ref
    named; `integrity` is the download's digest (``sha512-...`` for npm,
    ``sha256-...`` for a GitHub tarball); both are None for a local directory.
    `pins` is a `resolved` per item folder, when each item has its own (an MCP
    server's skills: each one's manifest digest). `source` is the spec the lock
    records when the fetch found a more exact one than it was given (the index URL a
    site's skills index was read from). `signature` is who signed what was fetched,
    verified before any of it was written, when signers were named."""

    tree: Path
    resolved: str | None = None
    integrity: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    pins: Mapping[str, str] = field(default_factory=dict)
    source: str | None = None
    signature: Signature | None = None


def unpack(archive: Path, into: Path, limits: Limits, *, strip: bool) -> Path:
    """Extract `archive` into the new directory `into`; with `strip`, return the
    single top directory the archive holds (GitHub's ``owner-repo-sha/``, npm's
    ``package/``) when it holds exactly one."""
    into.mkdir()
    extract_archive(archive, into, limits)
    if strip:
        tops = os.listdir(into)
        if len(tops) == 1 and (into / tops[0]).is_dir() and not (into / tops[0]).is_symlink():
            return into / tops[0]
    return into


def unpack_download(tarball: Path, work: Path, limits: Limits) -> Path:
    """Unpack the downloaded `tarball` into ``work/tree`` (its single top directory
    stripped), delete it, and return the tree."""
    tree = unpack(tarball, work / "tree", limits, strip=True)
    tarball.unlink()
    return tree


def fetched_git(
    url: str,
    ref: str | None,
    work: Path,
    settings: Settings,
    environ: Mapping[str, str] | None,
) -> Fetched:
    """The git repository at `url`, fetched at `ref` (a branch, tag or SHA) into `work`
    by `fetch_git`: its tree, commit and notes."""
    checkout = fetch_git(url, ref, work, settings, environ)
    return Fetched(checkout.tree, checkout.commit, None, checkout.diagnostics)

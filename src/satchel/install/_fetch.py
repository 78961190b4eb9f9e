"""One entry point for every kind of source: fetch it into a workspace."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from satchel.install._errors import refuse
from satchel.install._extract import sniff
from satchel.install._fetched import Fetched, fetched_git, unpack, unpack_download
from satchel.install._github import fetch_github
from satchel.install._http import Progress, download
from satchel.install._npm import fetch_npm
from satchel.install._oci_pull import fetch_oci
from satchel.install._settings import Settings
from satchel.install._signatures import Signers
from satchel.install._sources import Source
from satchel.install._tree import copy_tree
from satchel.install._wellknown import fetch_wellknown

__all__ = ["fetch"]


def fetch(
    source: Source,
    work: Path,
    settings: Settings,
    *,
    pin: str | None = None,
    integrity: str | None = None,
    progress: Progress | None = None,
    environ: Mapping[str, str] | None = None,
    signers: Signers | None = None,
) -> Fetched:
    """Fetch `source` into the empty directory `work`. `pin` is a locked commit SHA
    (git, GitHub), version (npm), manifest digest (OCI) or index entry's digest (a
    site's skills index); `integrity` a locked npm integrity. `signers` (or
    `Settings.signer_keys`): an OCI artifact must carry a signature by one of them,
    checked before its layers are read."""
    if source.kind == "local":
        return _local(Path(source.location), work, settings)
    if source.kind == "git":
        return fetched_git(source.location, pin or source.ref, work, settings, environ)
    if source.kind == "github":
        return fetch_github(source, work, settings, pin=pin, progress=progress, environ=environ)
    if source.kind == "archive":
        return _archive(source, work, settings, integrity or source.ref, progress)
    if source.kind == "oci":
        return fetch_oci(source, work, settings, pin=pin, environ=environ, signers=signers)
    if source.kind == "wellknown":
        return fetch_wellknown(source, work, settings, pin=pin, progress=progress)
    if source.kind == "mcp":
        from satchel.install._mcp import fetch_mcp

        return fetch_mcp(source, work)
    return fetch_npm(source, work, settings, pin=pin, integrity=integrity, progress=progress)


def _archive(
    source: Source, work: Path, settings: Settings, pin: str | None, progress: Progress | None
) -> Fetched:
    """An archive downloaded, checked against its sha256 pin (when given), unpacked by
    satchel's own extractor; `integrity` is ``sha256=<hex>`` of what was downloaded."""
    got = download(source.location, work / "archive", settings, progress=progress)
    found = f"sha256={got.sha256}"
    if pin is not None and pin != found:
        message = f"{source.location} has {found}, not the pinned {pin}"
        raise refuse("install.integrity", message)
    if sniff(got.path) is None:
        raise refuse("install.archive.invalid", f"{source.location} is not a tar or zip archive")
    return Fetched(unpack_download(got.path, work, settings.limits), None, found)


def _local(path: Path, work: Path, settings: Settings) -> Fetched:
    """A directory is copied (symlinks must stay inside it); a file must be an archive."""
    if os.path.isdir(path):
        tree = work / "tree"
        copy_tree(path, tree, settings.limits)
        return Fetched(tree)
    if not os.path.isfile(path):
        raise refuse("install.fetch.failed", f"no such file or directory: {path}")
    if sniff(path) is None:
        raise refuse("install.archive.invalid", "not a directory, nor a tar or zip archive", path)
    return Fetched(unpack(path, work / "tree", settings.limits, strip=True))

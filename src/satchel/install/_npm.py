"""npm sources: the registry's tarball, checked against its integrity, never run.

``GET {registry}/{package}`` gives the versions and dist-tags; the version asked
for (an exact version or a dist-tag, default ``latest``) names a tarball and its
``integrity`` (``sha512-...``). satchel downloads that tarball, checks the digest and
unpacks it with its own extractor. No npm runs, so no lifecycle script
(``preinstall``, ``install``, ``postinstall``, ``prepare``...) and no ``bin`` link
ever happens (case I06); the scripts a package declares are listed in an
``install.npm.scripts`` warning.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from satchel.core._json import loads
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._net import LOOPBACK_NAMES
from satchel.install._errors import refuse
from satchel.install._fetched import Fetched, unpack_download
from satchel.install._http import Progress, download, get_json
from satchel.install._settings import Settings
from satchel.install._sources import Source

__all__ = ["LIFECYCLE", "fetch_npm"]

LIFECYCLE = (
    "preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
    "postprepare", "prepack", "postpack", "dependencies",
)  # fmt: skip


def fetch_npm(
    source: Source,
    work: Path,
    settings: Settings,
    *,
    pin: str | None = None,
    integrity: str | None = None,
    progress: Progress | None = None,
) -> Fetched:
    """Fetch `source` (kind ``npm``) at version `pin` or its ref into `work`; when
    `integrity` is given (a frozen install) the registry must still name it."""
    name = source.location
    packument = get_json(f"{settings.npm_registry_url}/{quote(name, safe='@')}", settings)
    version = _version(packument, name, pin or source.ref or "latest")
    meta = packument["versions"][version]
    dist = meta.get("dist") if isinstance(meta, dict) else None
    if not isinstance(dist, dict):
        raise refuse("install.fetch.failed", f"{name}@{version} has no dist record")
    url = dist.get("tarball")
    if not isinstance(url, str) or not _fetchable(url):
        raise refuse("install.fetch.failed", f"{name}@{version} has no https tarball URL")
    expected = dist.get("integrity")
    if integrity is not None and expected != integrity:
        message = (
            f"{name}@{version}: the registry's integrity {expected} is not the locked {integrity}"
        )
        raise refuse("install.integrity", message)
    tarball = work / "package.tgz"
    got = download(url, tarball, settings, progress=progress, label=f"{name}@{version}")
    actual = _check_digest(name, version, tarball, got.sha512, expected, dist)
    tree = unpack_download(tarball, work, settings.limits)
    return Fetched(tree, version, actual, _scripts(tree, name, version))


def _version(packument: Any, name: str, wanted: str) -> str:
    if not isinstance(packument, dict) or not isinstance(packument.get("versions"), dict):
        raise refuse("install.fetch.failed", f"the registry's answer for {name} has no versions")
    tags = packument.get("dist-tags")
    if isinstance(tags, dict) and isinstance(tags.get(wanted), str):
        wanted = tags[wanted]
    if wanted not in packument["versions"]:
        raise refuse("install.fetch.failed", f"{name} has no version or dist-tag {wanted!r}")
    return wanted


def _fetchable(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == "https" or (
        parts.scheme == "http" and (parts.hostname or "") in LOOPBACK_NAMES
    )


def _check_digest(
    name: str, version: str, tarball: Path, sha512: bytes, expected: object, dist: dict[str, Any]
) -> str:
    """The tarball's ``sha512-`` integrity, after checking it against the registry's."""
    actual = "sha512-" + base64.b64encode(sha512).decode("ascii")
    if isinstance(expected, str) and expected.startswith("sha512-"):
        ok = expected == actual
    elif isinstance(dist.get("shasum"), str):
        ok = hashlib.sha1(tarball.read_bytes(), usedforsecurity=False).hexdigest() == dist["shasum"]
    else:
        ok = False
    if not ok:
        message = f"{name}@{version}: the tarball does not match the registry's integrity"
        raise refuse("install.integrity", message)
    return actual


def _scripts(tree: Path, name: str, version: str) -> tuple[Diagnostic, ...]:
    try:
        manifest = loads((tree / "package.json").read_bytes()[: 1024 * 1024])
    except (OSError, ValueError):
        return ()
    scripts = manifest.get("scripts") if isinstance(manifest, dict) else None
    found = [s for s in LIFECYCLE if isinstance(scripts, dict) and s in scripts]
    if not found:
        return ()
    message = f"{name}@{version} declares lifecycle scripts that were not run: {', '.join(found)}"
    return (diagnostic("install.npm.scripts", message),)

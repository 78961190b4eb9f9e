"""GitHub sources: the commit from the API, the files from its tarball endpoint.

``GET {api}/repos/{owner}/{repo}/commits/{ref}`` resolves the ref to a SHA, then
``GET {api}/repos/{owner}/{repo}/tarball/{sha}`` downloads exactly that commit, with
``GH_TOKEN``/``GITHUB_TOKEN`` when set (5,000 calls an hour instead of 60), or the
API host's ``[install.auth]`` credential (`satchel.install._auth.headers_for`). When the
API refuses (403 or 429: the rate limit), the repository is fetched with git from
``{github}/{owner}/{repo}.git`` instead (zidane: "When GitHub refuses, zidane
downloads the source"). No git runs on the tarball path.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

from satchel.core.errors import HttpRefused
from satchel.install._errors import refuse
from satchel.install._fetched import Fetched, fetched_git, unpack_download
from satchel.install._git import is_sha
from satchel.install._http import Progress, download, get_json
from satchel.install._settings import Settings
from satchel.install._sources import Source

__all__ = ["fetch_github"]

_REFUSALS = (403, 429)


def fetch_github(
    source: Source,
    work: Path,
    settings: Settings,
    *,
    pin: str | None = None,
    progress: Progress | None = None,
    environ: Mapping[str, str] | None = None,
) -> Fetched:
    """Fetch `source` (kind ``github``) at `pin` (a SHA) or its ref into `work`."""
    repo = f"{settings.github_api_url}/repos/{source.location}"
    try:
        sha = pin or (source.ref if is_sha(source.ref) else _resolve(repo, source, settings))
        tarball = work / "source.tar.gz"
        got = download(
            f"{repo}/tarball/{sha}",
            tarball,
            settings,
            progress=progress,
            label=source.location,
        )
    except HttpRefused as e:
        if e.status not in _REFUSALS:
            raise
        url = f"{settings.github_url}/{source.location}.git"
        return fetched_git(url, pin or source.ref, work, settings, environ)
    tree = unpack_download(tarball, work, settings.limits)
    return Fetched(tree, sha, f"sha256-{got.sha256}")


def _resolve(repo: str, source: Source, settings: Settings) -> str:
    ref = quote(source.ref or "HEAD", safe="")
    answer = get_json(f"{repo}/commits/{ref}", settings)
    sha = answer.get("sha") if isinstance(answer, dict) else None
    if not isinstance(sha, str) or not is_sha(sha):
        raise refuse("install.fetch.failed", f"GitHub gave no commit for {source.spec()}")
    return sha

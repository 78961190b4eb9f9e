"""HTTPS for the installer: JSON documents and bounded downloads, through httpx.

Each request carries the credential `satchel.install._auth.headers_for` gives its
URL (none unless its host has one, and only over https); a redirect to another
origin is sent without it (`_auth.guard`: GitHub's tarball endpoint redirects to
another host). A download is streamed to a file, hashed on the way, and stopped once
it passes the byte limit.

Every client is `satchel.foundations._net.http_client`: each wait bounded by `Settings.timeout`,
the whole request (redirects and a trickled answer included) by `Settings.deadline`;
either ends it with ``install.fetch.timeout`` (`failure`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from satchel.core._json import loads
from satchel.core._model import model
from satchel.core.errors import HttpRefused
from satchel.foundations._net import DeadlinePassed, http_client
from satchel.install._auth import guard, headers_for
from satchel.install._errors import InstallError, refuse
from satchel.install._settings import Settings

if TYPE_CHECKING:
    import httpx

__all__ = [
    "Downloaded",
    "HttpRefused",
    "Progress",
    "download",
    "failure",
    "get_bytes",
    "get_json",
]

Progress = Callable[[str, int, "int | None"], None]  # (what, bytes so far, total or None)
_JSON_CAP = 32 * 1024 * 1024
_AGENT = "satchel-installer"


@model
class Downloaded:
    """A downloaded file, its size and its sha256 and sha512 digests."""

    path: Path
    size: int
    sha256: str
    sha512: bytes


def _client(
    settings: Settings, url: str, sent: dict[str, str], *, stay: bool = False
) -> httpx.Client:
    hooks = [guard(url, sent), *([_stay(url)] if stay else [])]
    return http_client(
        timeout=settings.timeout,
        deadline=settings.deadline,
        headers={"User-Agent": _AGENT},
        request_hooks=hooks,
    )


def _stay(url: str) -> Callable[[httpx.Request], None]:
    """A request hook refusing a redirect to another origin (scheme, host, port) than
    `url`'s (``install.redirect.refused``), before that request is sent."""
    origin = _origin_of(url)

    def hook(request: httpx.Request) -> None:
        there = urlsplit(str(request.url))
        if _origin_of(str(request.url)) != origin:
            message = f"GET {url} was redirected to {there.scheme}://{there.netloc}, another origin"
            raise refuse("install.redirect.refused", message)

    return hook


def failure(method: str, url: str, error: Exception, settings: Settings) -> InstallError:
    """The refusal for a request that failed with `error` (an httpx error, or the
    deadline passing): ``install.fetch.timeout`` when it ran out of time."""
    import httpx

    if isinstance(error, DeadlinePassed):
        message = f"{method} {url}: {error}, so it was stopped"
        hint = f"SATCHEL_FETCH_DEADLINE allows more than {settings.deadline:g} s"
        return refuse("install.fetch.timeout", message, hint=hint)
    if isinstance(error, httpx.TimeoutException):
        message = (
            f"{method} {url}: the server sent nothing for {settings.timeout:g} s "
            f"(or what was left of the deadline of {settings.deadline:g} s), so it was stopped"
        )
        hint = "SATCHEL_FETCH_TIMEOUT and SATCHEL_FETCH_DEADLINE allow more"
        return refuse("install.fetch.timeout", message, hint=hint)
    return refuse("install.fetch.failed", f"{method} {url} failed: {error}")


def _origin_of(url: str) -> tuple[str, str | None, int | None]:
    """A URL's scheme, host and port (its scheme's default port when it names none)."""
    parts = urlsplit(url)
    default = {"https": 443, "http": 80}.get(parts.scheme)
    return parts.scheme, parts.hostname, parts.port or default


def get_json(url: str, settings: Settings, *, auth: bool = True) -> Any:
    """GET `url` and parse its JSON body (at most 32 MiB); with `auth`, carrying the
    credential of its host (`headers_for`)."""
    body = get_bytes(url, settings, cap=_JSON_CAP, auth=auth)
    try:
        return loads(body)
    except ValueError:
        raise refuse("install.fetch.failed", f"GET {url}: the answer is not JSON") from None


def get_bytes(
    url: str,
    settings: Settings,
    *,
    cap: int,
    auth: bool = True,
    stay: bool = False,
    too_large: str = "install.fetch.failed",
) -> bytes:
    """GET `url`'s body, refused (`too_large`) once past `cap` bytes; with `stay`,
    a redirect to another origin is refused (``install.redirect.refused``)."""
    import httpx

    sent = headers_for(url, settings) if auth else {}
    try:
        with (
            _client(settings, url, sent, stay=stay) as client,
            client.stream("GET", url, headers={**sent, "Accept": "application/json"}) as response,
        ):
            _check(url, response)
            body = bytearray()
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > cap:
                    message = f"GET {url}: the answer passes {cap:,} bytes"
                    raise refuse(too_large, message)
    except (httpx.HTTPError, DeadlinePassed) as e:
        raise failure("GET", url, e, settings) from None
    return bytes(body)


def download(
    url: str,
    dest: Path,
    settings: Settings,
    *,
    auth: bool = True,
    progress: Progress | None = None,
    label: str = "",
    cap: int | None = None,
    stay: bool = False,
) -> Downloaded:
    """Stream `url` into the new file `dest`, at most `cap` bytes (default
    `settings.limits.max_bytes`); with `auth`, carrying the credential of its host
    (`headers_for`); with `stay`, refusing a redirect to another origin."""
    import httpx

    sent = headers_for(url, settings) if auth else {}
    cap = settings.limits.max_bytes if cap is None else cap
    sha256, sha512, size = hashlib.sha256(), hashlib.sha512(), 0
    try:
        with (
            _client(settings, url, sent, stay=stay) as client,
            client.stream("GET", url, headers=sent) as response,
            open(dest, "xb") as out,
        ):
            _check(url, response)
            total = _length(response)
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > cap:
                    message = f"GET {url}: the download passes {cap:,} bytes"
                    raise refuse("install.archive.too-large", message)
                sha256.update(chunk)
                sha512.update(chunk)
                out.write(chunk)
                if progress is not None:
                    progress(label or url, size, total)
    except (httpx.HTTPError, DeadlinePassed) as e:
        raise failure("GET", url, e, settings) from None
    return Downloaded(dest, size, sha256.hexdigest(), sha512.digest())


def _length(response: httpx.Response) -> int | None:
    value = response.headers.get("content-length", "")
    return int(value) if value.isdigit() else None


def _check(url: str, response: httpx.Response) -> None:
    if response.status_code >= 400:
        raise HttpRefused(url, response.status_code, response.reason_phrase)

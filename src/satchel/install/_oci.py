"""A small OCI distribution client on httpx: manifests and blobs, pulled and pushed.

It speaks the OCI distribution spec v1.1 (github.com/opencontainers/distribution-spec,
``spec.md``): ``GET /v2/<name>/manifests/<reference>`` with an ``Accept`` naming the
OCI image manifest and index and Docker's v2 manifest and manifest list,
``GET /v2/<name>/blobs/<digest>``, and for a push ``HEAD`` then ``POST
/v2/<name>/blobs/uploads/`` and one monolithic ``PUT <location>?digest=<digest>``,
then ``PUT /v2/<name>/manifests/<tag>``. On a 401 it answers the challenge once:
``WWW-Authenticate: Bearer realm=...,service=...,scope=...`` trades the credential
(Basic, or an identity token as an OAuth2 refresh token) for a token at the realm
(the Docker token protocol, distribution/distribution ``docs/spec/auth/token.md``);
``Basic`` sends the credential itself. Credentials come from Docker's config
(`satchel.install._registry_auth`) and are sent only to the registry's own origin
and to the realm it names; httpx drops ``Authorization`` on a redirect to another
origin (a blob store's signed URL).

Plain http is used only for a loopback registry (``127.0.0.1``, ``localhost``,
``[::1]``), as the source parser allows http URLs only there; any other registry is
https. Every wait is bounded by `Settings.timeout` and the whole pull by
`Settings.deadline` (`satchel.foundations._net.http_client`), so a registry that trickles its
manifest is stopped (``install.fetch.timeout``). Every body is bounded: a manifest at
4 MiB (what containerd accepts), a blob at `Limits.max_bytes` and at its descriptor's
size; every digest is checked.

Why not the oras SDK: oras-py pulls in requests and jsonschema beside the httpx
satchel already has, keeps its own auth and retry logic, and extracts archives its
own way; satchel needs one HTTP stack with one set of limits and errors and its own
safe extractor, and the few calls above are short to write on httpx.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode, urljoin, urlsplit

from satchel.core._json import loads
from satchel.core._model import model
from satchel.foundations._net import DeadlinePassed, http_client, is_loopback
from satchel.install._errors import refuse
from satchel.install._http import failure
from satchel.install._registry_auth import Credential, credential_for
from satchel.install._settings import Settings

if TYPE_CHECKING:
    import httpx

__all__ = [
    "DIGEST",
    "DOCKER_LIST",
    "DOCKER_MANIFEST",
    "OCI_INDEX",
    "OCI_MANIFEST",
    "Manifest",
    "Registry",
    "digest_of",
]

OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_INDEX = "application/vnd.oci.image.index.v1+json"
DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
ACCEPT = ", ".join((OCI_MANIFEST, OCI_INDEX, DOCKER_MANIFEST, DOCKER_LIST))
DIGEST = re.compile(r"sha256:[a-f0-9]{64}\Z")
MANIFEST_CAP = 4 * 1024 * 1024
_TOKEN_CAP = 1024 * 1024
_AGENT = "satchel-installer"
_CHALLENGE = re.compile(r'([A-Za-z_]+)="([^"]*)"')


def digest_of(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


@model
class Manifest:
    """A manifest or index as fetched: its media type, bytes, parsed document and
    the sha256 digest of its bytes."""

    media_type: str
    body: bytes
    doc: dict[str, Any]
    digest: str


class Registry:
    """One registry host, one repository, with the credential Docker's config gives."""

    def __init__(
        self,
        host: str,
        repository: str,
        settings: Settings,
        environ: Mapping[str, str],
        *,
        push: bool = False,
    ) -> None:
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        plain = is_loopback(name.strip("[]"))
        self.host = host
        self.repository = repository
        self.settings = settings
        self.environ = environ
        self.base = f"{'http' if plain else 'https'}://{host}/v2/{repository}/"
        self.scope = f"repository:{repository}:{'pull,push' if push else 'pull'}"
        self._auth: str | None = None
        self._credential: Credential | None = None
        self._looked = False
        self._client: httpx.Client | None = None

    def __enter__(self) -> Registry:
        self._client = http_client(
            timeout=self.settings.timeout,
            deadline=self.settings.deadline,
            headers={"User-Agent": _AGENT},
        )
        return self

    def __exit__(self, *exc: object) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    # --- pulling -----------------------------------------------------------------

    def manifest(self, reference: str) -> Manifest:
        """The manifest or index `reference` (a tag or a digest) names, its digest
        checked against the digest asked for and the one the registry says."""
        url = self.base + f"manifests/{reference}"
        with self._send("GET", url, {"Accept": ACCEPT}) as response:
            self._ok(url, response, 200)
            body = _bounded(url, response, MANIFEST_CAP)
            said = response.headers.get("docker-content-digest", "")
            media = response.headers.get("content-type", "").split(";", 1)[0].strip()
        digest = digest_of(body)
        if DIGEST.match(reference) and digest != reference:
            raise refuse("install.integrity", f"{self._where(reference)}: the manifest is {digest}")
        if said.startswith("sha256:") and said != digest:
            message = (
                f"{self._where(reference)}: the manifest is {digest}, the registry says {said}"
            )
            raise refuse("install.integrity", message)
        try:
            doc = loads(body)
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            raise refuse(
                "install.oci.invalid", f"{self._where(reference)}: the manifest is not JSON"
            )
        kind = doc.get("mediaType")
        return Manifest(kind if isinstance(kind, str) else media, body, doc, digest)

    def find(self, reference: str) -> Manifest | None:
        """The manifest or index at `reference`, or None when the registry has none."""
        with self._send("HEAD", self.base + f"manifests/{reference}", {"Accept": ACCEPT}) as r:
            if r.status_code == 404:
                return None
        return self.manifest(reference)

    def referrers(self, digest: str, artifact_type: str) -> Manifest | None:
        """The referrers API's index of what names `digest` as its subject, filtered
        to `artifact_type`; None when the registry has no referrers API (a 404, as
        distribution-spec ``spec.md`` "Listing Referrers" says)."""
        url = self.base + f"referrers/{digest}?" + urlencode({"artifactType": artifact_type})
        with self._send("GET", url, {"Accept": OCI_INDEX}) as response:
            if response.status_code in (404, 405):
                return None
            self._ok(url, response, 200)
            body = _bounded(url, response, MANIFEST_CAP)
        try:
            doc = loads(body)
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            raise refuse("install.oci.invalid", f"GET {url}: the referrers index is not JSON")
        return Manifest(OCI_INDEX, body, doc, digest_of(body))

    def small_blob(self, digest: str, size: int, cap: int) -> bytes:
        """The blob `digest` in memory, refused past `cap` bytes or its `size`, or
        when it does not hash to `digest`."""
        url = self.base + f"blobs/{digest}"
        with self._send("GET", url, {}) as response:
            self._ok(url, response, 200)
            body = _bounded(url, response, min(cap, size))
        if digest_of(body) != digest:
            message = f"{self._where(digest)}: the blob hashes to {digest_of(body)}"
            raise refuse("install.integrity", message)
        return body

    def blob(self, digest: str, size: int, dest: Path) -> None:
        """Stream the blob `digest` into the new file `dest`; refuse it when it passes
        `size` or the byte limit, or does not hash to `digest`."""
        cap = min(size, self.settings.limits.max_bytes)
        url = self.base + f"blobs/{digest}"
        sha, got = hashlib.sha256(), 0
        with self._send("GET", url, {}) as response, open(dest, "xb") as out:
            self._ok(url, response, 200)
            for chunk in response.iter_bytes():
                got += len(chunk)
                if got > cap:
                    message = f"{self._where(digest)}: the blob passes its {cap:,} bytes"
                    raise refuse("install.archive.too-large", message)
                sha.update(chunk)
                out.write(chunk)
        if "sha256:" + sha.hexdigest() != digest or got != size:
            message = (
                f"{self._where(digest)}: the blob's {got:,} bytes hash to "
                f"sha256:{sha.hexdigest()}, not its digest"
            )
            raise refuse("install.integrity", message)

    # --- pushing -----------------------------------------------------------------

    def push_blob(self, data: bytes) -> str:
        """Upload `data` (unless the registry has it) and return its digest."""
        digest = digest_of(data)
        url = self.base + f"blobs/{digest}"
        with self._send("HEAD", url, {}) as response:
            if response.status_code == 200:
                return digest
        start = self.base + "blobs/uploads/"
        with self._send("POST", start, {"Content-Length": "0"}) as response:
            self._ok(start, response, 202, push=True)
            location = response.headers.get("location", "")
        if not location:
            raise refuse("install.oci.push", f"POST {start}: the registry gave no upload location")
        target = urljoin(start, location)
        if urlsplit(target).netloc != urlsplit(start).netloc:
            raise refuse("install.oci.push", f"POST {start}: the upload location leaves the host")
        target += ("&" if "?" in target else "?") + urlencode({"digest": digest})
        headers = {"Content-Type": "application/octet-stream"}
        with self._send("PUT", target, headers, data) as response:
            self._ok(target.split("?", 1)[0], response, 201, push=True)
        return digest

    def push_manifest(self, tag: str, media_type: str, body: bytes) -> str:
        """PUT the manifest `body` at `tag` (or at its own digest); return its digest."""
        return self.put_manifest(tag, media_type, body)[0]

    def put_manifest(self, tag: str, media_type: str, body: bytes) -> tuple[str, bool]:
        """PUT the manifest `body` at `tag`; its digest, and whether the registry said
        it indexed the manifest's subject (an ``OCI-Subject`` header: it has the
        referrers API, so no referrers tag needs writing)."""
        url = self.base + f"manifests/{tag}"
        with self._send("PUT", url, {"Content-Type": media_type}, body) as response:
            self._ok(url, response, 201, push=True)
            said = response.headers.get("docker-content-digest", "")
            subject = "oci-subject" in response.headers
        digest = digest_of(body)
        if said.startswith("sha256:") and said != digest:
            raise refuse("install.oci.push", f"PUT {url}: the registry stored {said}, not {digest}")
        return digest, subject

    # --- HTTP and auth -----------------------------------------------------------

    @contextmanager
    def _send(
        self, method: str, url: str, headers: dict[str, str], body: bytes | None = None
    ) -> Iterator[httpx.Response]:
        import httpx

        assert self._client is not None, "use Registry as a context manager"
        try:
            response = self._once(method, url, headers, body)
            if response.status_code == 401 and self._answer(response):
                response.close()
                response = self._once(method, url, headers, body)
            try:
                yield response
            finally:
                response.close()
        except (httpx.HTTPError, DeadlinePassed) as e:
            raise failure(method, url, e, self.settings) from None

    def _once(
        self, method: str, url: str, headers: dict[str, str], body: bytes | None
    ) -> httpx.Response:
        assert self._client is not None
        sent = {**headers, **({"Authorization": self._auth} if self._auth else {})}
        request = self._client.build_request(method, url, headers=sent, content=body)
        return self._client.send(request, stream=True)

    def _answer(self, response: httpx.Response) -> bool:
        """Set the Authorization the 401's challenge asks for; False when there is
        nothing new to try (the caller then reports the 401)."""
        if self._auth is not None:
            return False
        challenge = response.headers.get("www-authenticate", "")
        scheme = challenge.split(" ", 1)[0].lower()
        credential = self._cred()
        if scheme == "basic":
            if credential is None or credential.identity_token:
                return False
            self._auth = _basic(credential)
            return True
        if scheme == "bearer":
            params = dict(_CHALLENGE.findall(challenge))
            self._auth = "Bearer " + self._token(params, credential)
            return True
        return False

    def _cred(self) -> Credential | None:
        if not self._looked:
            self._looked = True
            self._credential = credential_for(self.host, self.environ, self.settings.timeout)
        return self._credential

    def _token(self, params: dict[str, str], credential: Credential | None) -> str:
        realm = params.get("realm", "")
        parts = urlsplit(realm)
        if parts.scheme != "https" and not (
            parts.scheme == "http" and is_loopback(parts.hostname or "")
        ):
            raise refuse("install.oci.auth", f"the registry's token realm {realm!r} is not https")
        query = {k: params[k] for k in ("service",) if k in params}
        query["scope"] = self.scope
        assert self._client is not None
        if credential is not None and credential.identity_token:
            form = {**query, "grant_type": "refresh_token", "client_id": "satchel",
                    "refresh_token": credential.secret}  # fmt: skip
            request = self._client.build_request("POST", realm, data=form)
        else:
            headers = {"Authorization": _basic(credential)} if credential is not None else {}
            request = self._client.build_request("GET", realm, params=query, headers=headers)
        response = self._client.send(request, stream=True)
        try:
            status = response.status_code
            body = _bounded(realm, response, _TOKEN_CAP) if status < 400 else b""
        finally:
            response.close()
        if status >= 400:
            who = "the credential" if credential is not None else "anonymous access"
            message = f"{self.host}'s token service refused {who} ({status})"
            raise refuse("install.oci.auth", message, hint=_HINT)
        try:
            doc = loads(body)
            token = doc.get("token") or doc.get("access_token")
        except (ValueError, AttributeError):
            token = None
        if not isinstance(token, str) or not token:
            raise refuse("install.oci.auth", f"{self.host}'s token service gave no token")
        return token

    def _ok(self, url: str, response: httpx.Response, want: int, *, push: bool = False) -> None:
        status = response.status_code
        if status == want or (want == 201 and status in (200, 201, 202, 204)):
            return
        what = f"{response.request.method} {url}: {status} {response.reason_phrase}"
        if status in (401, 403):
            have = self._credential is not None
            why = "refused the credentials" if have else "asks for credentials; none were found"
            raise refuse("install.oci.auth", f"{what}: the registry {why}", hint=_HINT)
        if status == 404 and not push:
            raise refuse("install.fetch.failed", f"{what}: not in the registry")
        raise refuse("install.oci.push" if push else "install.fetch.failed", what)

    def _where(self, reference: str) -> str:
        at = "@" if reference.startswith("sha256:") else ":"
        return f"oci://{self.host}/{self.repository}{at}{reference}"


_HINT = "satchel reads credentials from Docker's config.json (docker login writes it)"


def _basic(credential: Credential) -> str:
    import base64

    pair = f"{credential.username}:{credential.secret}".encode()
    return "Basic " + base64.b64encode(pair).decode("ascii")


def _bounded(url: str, response: httpx.Response, cap: int) -> bytes:
    body = bytearray()
    for chunk in response.iter_bytes():
        body += chunk
        if len(body) > cap:
            raise refuse("install.oci.invalid", f"GET {url}: the answer passes {cap:,} bytes")
    return bytes(body)

"""`satchel publish --sign`: a Sigstore bundle over the pushed manifest's digest.

The bundle holds cosign's statement for the digest (`satchel.install._cosign`) in a
DSSE envelope, as ``cosign sign`` writes it, so cosign and satchel verify it alike:

- **keyless**, when an identity token is given (``--identity-token``, else
  ``SIGSTORE_ID_TOKEN`` as sigstore and cosign read it): the ``sigstore`` library's
  `Signer` (the ``sign`` extra) makes a key, asks the certificate authority
  (Fulcio's ``/api/v2/signingCert``) for a certificate binding it to the token's
  identity, checks the certificate's SCT against the trust root, signs, and records
  the envelope in the transparency log (Rekor's ``/api/v1/log/entries``); the
  bundle holds the certificate and the log entry with its inclusion proof. The URLs
  are settings (`Signing.fulcio_url`, `Signing.rekor_url`: the public Sigstore
  instance by default), the trust root a ``trusted_root.json`` (default: the public
  instance's that the ``sigstore`` package ships, read offline: never refreshed
  through TUF). The whole exchange has a deadline (`Signing.deadline`): the
  ``sigstore`` clients wait on the network without a timeout of their own, so they
  run in a worker that is abandoned when the deadline passes;
- **with a key** (``--key FILE``, an unencrypted PEM ECDSA P-256 private key): the
  envelope signed with it, the bundle naming the key by its hint; nothing is sent to
  a log. It verifies with the public key (``satchel install --key cosign.pub``).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.install._cosign import key_bundle, key_name, load_private_key, statement
from satchel.install._errors import refuse
from satchel.install._signatures import default_trust_root

__all__ = ["FULCIO_URL", "REKOR_URL", "Signing", "sign_digest"]

FULCIO_URL = "https://fulcio.sigstore.dev"
REKOR_URL = "https://rekor.sigstore.dev"
_SIGNING_CONFIG = "application/vnd.dev.sigstore.signingconfig.v0.2+json"
_CLIENT_CONFIG = "application/vnd.dev.sigstore.clienttrustconfig.v0.1+json"
_SINCE = "2000-01-01T00:00:00Z"


@model
class Signing:
    """How to sign: with the PEM private `key`, else keyless with `identity_token`
    through `fulcio_url` and `rekor_url`, trusting `trust_root` (None: the public
    instance's, as the ``sigstore`` package ships it), within `deadline` seconds."""

    key: bytes | None = None
    key_path: str = "--key"
    identity_token: str | None = None
    fulcio_url: str = FULCIO_URL
    rekor_url: str = REKOR_URL
    trust_root: Path | None = None
    deadline: float = 600.0


@model
class Signed:
    """A bundle, and who it says signed (an identity, or ``key:sha256:<hex>``)."""

    bundle: bytes
    signer: str
    issuer: str = ""
    log_index: int | None = None


def sign_digest(signing: Signing, digest: str, name: str) -> Signed:
    """Sign the manifest `digest` of the repository `name` (``host/repository``)."""
    payload = statement(digest, name)
    if signing.key is not None:
        key = load_private_key(signing.key, signing.key_path)
        return Signed(key_bundle(key, payload), key_name(key.public_key()))
    if not signing.identity_token:
        message = "--sign needs an identity token (--identity-token, SIGSTORE_ID_TOKEN) or --key"
        raise refuse("install.oci.sign", message)
    return _keyless(signing, payload)


def _keyless(signing: Signing, payload: bytes) -> Signed:
    try:
        from sigstore.dsse import Statement
        from sigstore.errors import Error as SigstoreError
        from sigstore.oidc import IdentityToken
        from sigstore.sign import SigningContext
    except ImportError:
        message = "keyless signing needs the sign extra: pip install 'satchel[sign]'"
        raise refuse("install.oci.sign", message) from None
    try:
        token = IdentityToken(signing.identity_token or "")
    except SigstoreError as e:
        raise refuse("install.oci.sign", f"the identity token is not usable: {e}") from None
    context = SigningContext.from_trust_config(_config(signing))

    def sign() -> Any:
        with context.signer(token, cache=True) as signer:
            return signer.sign_dsse(Statement(payload))

    bundle = _within(signing, sign)
    index = int(bundle.log_entry._inner.log_index)
    return Signed(bundle.to_json().encode(), token.identity, token.issuer, index)


def _within(signing: Signing, work: Any) -> Any:
    """What `work()` returns, run in a worker thread given `signing.deadline` seconds;
    a refusal when it fails or is still waiting then (the worker, blocked on the
    network, is left to end with the process)."""
    done: list[Any] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except Exception as e:  # noqa: BLE001  # the client's HTTP and protocol errors vary
            failed.append(e)

    worker = threading.Thread(target=run, name="satchel-sign", daemon=True)
    worker.start()
    worker.join(signing.deadline)
    where = f"{signing.fulcio_url} and {signing.rekor_url}"
    if worker.is_alive():
        message = f"signing through {where} did not finish within {signing.deadline:g} s"
        raise refuse("install.oci.sign", message, hint="SATCHEL_FETCH_DEADLINE sets the deadline")
    if failed:
        raise refuse("install.oci.sign", f"signing through {where} failed: {failed[0]}")
    return done[0]


def _config(signing: Signing) -> Any:
    """The sigstore client trust config: the trust root and the two services."""
    from sigstore.models import ClientTrustConfig

    path = signing.trust_root or default_trust_root()
    try:
        root = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        message = f"the trust root {path} cannot be read: {e}"
        raise refuse("install.oci.sign", message) from None

    def service(url: str) -> dict[str, Any]:
        return {"url": url, "majorApiVersion": 1, "validFor": {"start": _SINCE},
                "operator": url}  # fmt: skip

    config = {
        "mediaType": _CLIENT_CONFIG,
        "trustedRoot": root,
        "signingConfig": {
            "mediaType": _SIGNING_CONFIG,
            "caUrls": [service(signing.fulcio_url)],
            "oidcUrls": [],
            "rekorTlogUrls": [service(signing.rekor_url)],
            "tsaUrls": [],
            "rekorTlogConfig": {"selector": "ANY"},
            "tsaConfig": {"selector": "ANY"},
        },
    }
    try:
        return ClientTrustConfig.from_json(json.dumps(config))
    except Exception as e:  # noqa: BLE001  # pydantic and sigstore errors
        raise refuse("install.oci.sign", f"the signing configuration is not valid: {e}") from None

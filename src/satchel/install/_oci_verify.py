"""Check the signatures attached to an OCI artifact against the signers named.

A Sigstore bundle found as a referrer is verified with the ``sigstore`` library
(the ``sign`` extra) against a trust root kept on disk: the certificate chains to
the trust root's certificate authority at the time the transparency log recorded
the entry, its SCT is the CT log's, the log's inclusion proof, signed checkpoint and
signed entry timestamp hold, and the signature is the certificate key's. What it
signs must be the artifact's manifest digest: a DSSE envelope holding cosign's
statement whose subject is that digest, or a message signature whose message digest
is it. Then the certificate's subject (its SAN: an e-mail address or a URI) must be
one of the identities named and its OIDC issuer one of the issuers named.

A bundle signed with a key (its verification material is a key hint) and a layer of
cosign's ``.sig`` tag signed with a key are verified with the keys named
(``--key``); the signer is ``key:sha256:<hex>``. A ``.sig`` layer signed keyless
holds a signed entry timestamp but no inclusion proof, which the ``sigstore``
library does not accept: it is refused (``install.oci.signature``), the message
says so.

The first signature that verifies and is by a signer named is the one recorded
(``kind`` ``cosign``). When none is, the refusal is the nearest miss: a signer not
named (``install.oci.signer``), else a signature over another digest
(``install.oci.signed-digest``), else one that does not verify
(``install.oci.signature``); no signature at all is ``install.oci.unsigned``.
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path
from typing import Any

from satchel._json import loads
from satchel.install._cosign import (
    key_name,
    load_public_key,
    signed_digests,
    simple_signing_digest,
    verify_key_bundle,
    verify_key_payload,
)
from satchel.install._errors import refuse
from satchel.install._lock import Signature
from satchel.install._oci_signatures import CERTIFICATE, SIGNATURE, Attached
from satchel.install._signers import Signers

__all__ = ["verify_attached"]

_ISSUER_V1 = "1.3.6.1.4.1.57264.1.1"
_ISSUER_V2 = "1.3.6.1.4.1.57264.1.8"
_RANK = {"install.oci.signature": 0, "install.oci.signed-digest": 1, "install.oci.signer": 2}


class _Miss(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def verify_attached(found: list[Attached], digest: str, where: str, signers: Signers) -> Signature:
    """The signature among `found` that signs `digest` and is by one of `signers`."""
    if not found:
        message = (
            f"{where}: no signature is attached to {digest} (referrers API, referrers tag "
            "and cosign's .sig tag were looked at)"
        )
        raise refuse("install.oci.unsigned", message, hint="publish it with --sign")
    misses: list[_Miss] = []
    for one in found:
        try:
            return _one(one, digest, signers)
        except _Miss as miss:
            misses.append(miss)
    worst = max(misses, key=lambda m: _RANK[m.code])
    raise refuse(worst.code, f"{where}: {worst.message}")


def _one(one: Attached, digest: str, signers: Signers) -> Signature:
    if one.bundle is not None:
        return _bundle(one.bundle, digest, signers)
    assert one.payload is not None
    return _legacy(one.payload, dict(one.notes), digest, signers)


def _allowed(identity: str, issuer: str, signers: Signers) -> None:
    if identity in signers.identities and (not signers.issuers or issuer in signers.issuers):
        return
    message = f"signed by {identity} (issuer {issuer}), not by {signers.names()}"
    if identity in signers.identities:
        message = f"signed by {identity} through issuer {issuer}, not {', '.join(signers.issuers)}"
    raise _Miss("install.oci.signer", message)


def _must_sign(digest: str, signed: set[str]) -> None:
    if digest not in signed:
        other = ", ".join(sorted(signed)) or "no manifest digest"
        raise _Miss("install.oci.signed-digest", f"the signature signs {other}, not {digest}")


# --- keys --------------------------------------------------------------------------


def _keys(signers: Signers) -> list[Any]:
    return [load_public_key(pem, "--key") for pem in signers.keys]


def _by_key(check: Any, signers: Signers) -> Any:
    """The first key named with which `check(key)` passes; a miss naming why not."""
    keys = _keys(signers)
    if not keys:
        raise _Miss("install.oci.signer", "signed with a key; no --key names it")
    why = ""
    for key in keys:
        try:
            check(key)
            return key
        except ValueError as e:
            why = str(e)
    raise _Miss("install.oci.signer", f"signed with another key than those named ({why})")


def _legacy(payload: bytes, notes: dict[str, str], digest: str, signers: Signers) -> Signature:
    try:
        signature = base64.b64decode(notes.get(SIGNATURE, ""), validate=True)
    except binascii.Error:
        signature = b""
    if not signature:
        raise _Miss("install.oci.signature", "a .sig layer has no signature annotation")
    if CERTIFICATE in notes:
        message = (
            "a keyless signature in cosign's .sig tag carries no inclusion proof, which "
            "sigstore does not verify; sign with a bundle (cosign sign --new-bundle-format)"
        )
        raise _Miss("install.oci.signature", message)
    key = _by_key(lambda k: verify_key_payload(k, payload, signature), signers)
    signed = simple_signing_digest(payload)
    _must_sign(digest, {signed} if signed else set())
    return Signature(key_name(key), "", digest, "cosign")


# --- bundles -----------------------------------------------------------------------


def _bundle(raw: bytes, digest: str, signers: Signers) -> Signature:
    try:
        doc = loads(raw)
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        raise _Miss("install.oci.signature", "the attached bundle is not JSON")
    material = doc.get("verificationMaterial")
    if isinstance(material, dict) and "publicKey" in material:
        got: list[tuple[str, bytes]] = []

        def check(key: Any) -> None:
            got.append(verify_key_bundle(doc, key))

        try:
            key = _by_key(check, signers)
        except ValueError as e:
            raise _Miss("install.oci.signature", str(e)) from None
        _must_sign(digest, signed_digests(*got[-1]))
        return Signature(key_name(key), "", digest, "cosign")
    return _keyless(raw, doc, digest, signers)


def _keyless(raw: bytes, doc: dict[str, Any], digest: str, signers: Signers) -> Signature:
    try:
        from sigstore.errors import Error as SigstoreError
        from sigstore.hashes import Hashed
        from sigstore.models import Bundle
        from sigstore.verify import Verifier
        from sigstore.verify.policy import UnsafeNoOp
        from sigstore_models.common.v1 import HashAlgorithm
    except ImportError:
        message = "verifying a Sigstore bundle needs the sign extra: pip install 'satchel[sign]'"
        raise refuse("install.oci.signature", message) from None
    verifier = Verifier(trusted_root=_trusted_root(signers.trust_root))
    try:
        bundle = Bundle.from_json(raw)
        if "messageSignature" in doc:
            said = _message_digest(doc)
            _must_sign(digest, {said} if said else set())
            hashed = Hashed(algorithm=HashAlgorithm.SHA2_256, digest=bytes.fromhex(digest[7:]))
            verifier.verify_artifact(hashed, bundle, UnsafeNoOp())
        else:
            payload_type, payload = verifier.verify_dsse(bundle, UnsafeNoOp())
            _must_sign(digest, signed_digests(payload_type, payload))
    except (SigstoreError, ValueError) as e:
        raise _Miss("install.oci.signature", f"the signature does not verify: {e}") from None
    identity, issuer = _who(bundle.signing_certificate)
    _allowed(identity, issuer, signers)
    index = int(bundle.log_entry._inner.log_index)
    return Signature(identity, issuer, digest, "cosign", index)


def _message_digest(doc: dict[str, Any]) -> str | None:
    message = doc.get("messageSignature")
    said = message.get("messageDigest") if isinstance(message, dict) else None
    value = said.get("digest") if isinstance(said, dict) else None
    if not isinstance(value, str):
        return None
    try:
        return "sha256:" + base64.b64decode(value, validate=True).hex()
    except binascii.Error:
        return None


def _trusted_root(path: Path | None) -> Any:
    from sigstore.models import ClientTrustConfig, TrustedRoot

    if path is None:
        return ClientTrustConfig.production(offline=True).trusted_root
    try:
        return TrustedRoot.from_file(str(path))
    except (OSError, ValueError) as e:
        message = f"the trust root {path} cannot be read: {e}"
        raise refuse("install.oci.signature", message) from None


def _who(cert: Any) -> tuple[str, str]:
    """The certificate's subject (its first e-mail or URI SAN) and OIDC issuer."""
    from cryptography import x509

    try:
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        names = []
    subject = ""
    for name in names:
        if isinstance(name, x509.RFC822Name | x509.UniformResourceIdentifier):
            subject = str(name.value)
            break
    issuer = ""
    for ext in cert.extensions:
        dotted = ext.oid.dotted_string
        if dotted == _ISSUER_V2 and isinstance(ext.value, x509.UnrecognizedExtension):
            issuer = _utf8(ext.value.value)
        elif dotted == _ISSUER_V1 and not issuer:
            issuer = bytes(ext.value.value).decode("utf-8", "replace")
    return subject, issuer


def _utf8(der: bytes) -> str:
    """A DER UTF8String's text (short or long form length)."""
    if len(der) < 2 or der[0] != 0x0C:
        return der.decode("utf-8", "replace")
    size, at = der[1], 2
    if size & 0x80:
        count = size & 0x7F
        size, at = int.from_bytes(der[2 : 2 + count], "big"), 2 + count
    return der[at : at + size].decode("utf-8", "replace")

"""Check the signatures attached to an OCI artifact against the signers named.

A keyless Sigstore bundle found as a referrer is checked by
`satchel.install._signatures.verify_bundle`, as a bundle beside a skill is, against
the trust root on disk: the certificate chains to the trust root's certificate
authority at the time the transparency log recorded the entry, its SCT is the CT
log's, the log's inclusion proof, checkpoint and signed entry timestamp hold, and the
signature is the certificate key's. What it signs must be the artifact's manifest
digest: a DSSE envelope holding an in-toto statement (cosign's) whose subject is that
digest, or a message signature whose message digest is it. Its certificate's identity
and issuer must match the `Signers` named.

A bundle signed with a key (its verification material is a key hint) and a layer of
cosign's ``.sig`` tag signed with a key are verified with the public keys named
(``--key``); the signer is ``key:sha256:<hex>``. A ``.sig`` layer signed keyless
holds a signed entry timestamp but no inclusion proof, which the ``sigstore``
library's `Bundle` does not take: it is checked as cosign checks it offline
(`satchel.install._cosign_legacy`).

The first signature that verifies, signs the digest and is by a signer named is the
one recorded (``kind`` ``cosign``). When none is, the refusal is the nearest miss: a
signer not named (``install.signature.identity``), else a signature over another
digest (``install.oci.signed-digest``), else one that does not verify
(``install.signature.invalid``, or the trust root's and the sigstore package's own
codes); no signature at all is ``install.signature.missing``.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from satchel.core._json import loads
from satchel.core._model import model
from satchel.install._cosign import (
    envelope_payload,
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
from satchel.install._signatures import Signers, exactly, verify_bundle

__all__ = ["verify_attached"]

_INVALID = "install.signature.invalid"
_IDENTITY = "install.signature.identity"
_DIGEST = "install.oci.signed-digest"
_RANK = {_INVALID: 0, _DIGEST: 1, _IDENTITY: 2}


class _Miss(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def verify_attached(
    found: Sequence[Attached],
    digest: str,
    where: str,
    signers: Signers | None,
    keys: Sequence[bytes],
    trust_root: Path | None,
) -> Signature:
    """The signature among `found` that signs `digest` and is by one of `signers`
    or of the public `keys` (PEM)."""
    if not found:
        message = (
            f"{where}: no signature is attached to {digest} (the referrers API, the "
            "referrers tag and cosign's .sig tag were looked at)"
        )
        raise refuse("install.signature.missing", message, hint="publish it with --sign")
    loaded = [load_public_key(pem, "--key") for pem in keys]
    misses: list[_Miss] = []
    if isinstance(signers, Relocked):  # the locked signer's, wherever it is listed
        for one in found:
            try:
                return _one(one, digest, signers.locked, loaded, trust_root)
            except _Miss:
                continue
    for one in found:
        try:
            return _one(one, digest, signers, loaded, trust_root)
        except _Miss as miss:
            misses.append(miss)
    worst = max(misses, key=lambda m: _RANK.get(m.code, 0))
    raise refuse(worst.code, f"{where}: {worst.message}")


def _one(
    one: Attached, digest: str, signers: Signers | None, keys: list[Any], root: Path | None
) -> Signature:
    if one.bundle is not None:
        return _bundle(one.bundle, digest, signers, keys, root)
    assert one.payload is not None
    return _legacy(one.payload, dict(one.notes), digest, signers, keys, root)


def _must_sign(digest: str, signed: set[str]) -> None:
    if digest not in signed:
        other = ", ".join(sorted(signed)) or "no manifest digest"
        raise _Miss(_DIGEST, f"the signature signs {other}, not {digest}")


def _by_key(keys: list[Any], check: Any) -> Any:
    """The first of `keys` with which `check(key)` passes; a miss naming why not."""
    if not keys:
        raise _Miss(_IDENTITY, "signed with a key, and no --key was given")
    why = ""
    for key in keys:
        try:
            check(key)
            return key
        except ValueError as e:
            why = str(e)
    raise _Miss(_IDENTITY, f"signed with another key than those of --key ({why})")


def _legacy(
    payload: bytes, notes: dict[str, str], digest: str, signers: Signers | None,
    keys: list[Any], root: Path | None,
) -> Signature:  # fmt: skip
    try:
        signature = base64.b64decode(notes.get(SIGNATURE, ""), validate=True)
    except binascii.Error:
        signature = b""
    if not signature:
        raise _Miss(_INVALID, "a .sig layer has no signature annotation")
    signed = simple_signing_digest(payload)
    _must_sign(digest, {signed} if signed else set())
    if CERTIFICATE in notes:
        return _legacy_keyless(payload, signature, notes, digest, signers, root)
    key = _by_key(keys, lambda k: verify_key_payload(k, payload, signature))
    return Signature(key_name(key), "", digest, "cosign")


def _legacy_keyless(
    payload: bytes, signature: bytes, notes: dict[str, str], digest: str,
    signers: Signers | None, root: Path | None,
) -> Signature:  # fmt: skip
    if signers is None:
        raise _Miss(_IDENTITY, "signed keyless, and no --signer was given")
    try:
        from satchel.install._cosign_legacy import LegacyInvalid, verify_legacy_keyless
        from satchel.install._signatures import certificate_signer, default_trust_root
    except ImportError:  # pragma: no cover - the sign extra is not installed
        message = "checking a Sigstore signature needs the sigstore package"
        raise refuse("install.signature.unavailable", message) from None
    try:
        cert, index = verify_legacy_keyless(payload, signature, notes, root or default_trust_root())
    except LegacyInvalid as e:
        raise _Miss(_INVALID, f"the signature does not verify: {e}") from None
    identity, issuer = certificate_signer(cert)
    if not signers.allows(identity, issuer):
        message = (
            f"signed by {identity} (issuer {issuer}), who is not an allowed signer: "
            f"{signers.describe()}"
        )
        raise _Miss(_IDENTITY, message)
    return Signature(identity, issuer, digest, "cosign", index)


def _bundle(
    raw: bytes, digest: str, signers: Signers | None, keys: list[Any], root: Path | None
) -> Signature:
    try:
        doc = loads(raw)
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        raise _Miss(_INVALID, "the attached bundle is not JSON")
    _must_sign(digest, _claimed(doc))
    material = doc.get("verificationMaterial")
    if isinstance(material, dict) and "publicKey" in material:
        key = _by_key(keys, lambda k: verify_key_bundle(doc, k))
        return Signature(key_name(key), "", digest, "cosign")
    if signers is None:
        raise _Miss(_IDENTITY, "signed keyless, and no --signer was given")
    got, why = verify_bundle(
        digest, raw, identities=signers.identities, issuers=signers.issuers, trust_root=root
    )
    if got is None:
        raise _Miss(why[0].code, why[0].message)
    return Signature(got.identity, got.issuer, digest, "cosign", got.log_index)


def _claimed(doc: dict[str, Any]) -> set[str]:
    """The digests a bundle says it signs, read before it is verified (to name a
    signature over another digest as such; it is verified all the same)."""
    if "dsseEnvelope" in doc:
        try:
            return signed_digests(*envelope_payload(doc)[:2])
        except ValueError:
            return set()
    message = doc.get("messageSignature")
    said = message.get("messageDigest") if isinstance(message, dict) else None
    value = said.get("digest") if isinstance(said, dict) else None
    if not isinstance(value, str):
        return set()
    try:
        return {"sha256:" + base64.b64decode(value, validate=True).hex()}
    except binascii.Error:
        return set()


# --- a frozen install ----------------------------------------------------------------


@model
class Relocked(Signers):
    """Anyone, once every signature attached was tried for the `locked` signer first:
    so that a signature by the signer a lock records counts wherever it is listed, and
    `same_signer` can still tell a changed signer from a missing signature."""

    locked: Signers = Signers(())


def frozen_signers(locked: Signature | None, keys: Sequence[bytes], name: str) -> Signers | None:
    """Whom a frozen install or an update of an OCI artifact whose lock entry records
    `locked` (a ``cosign`` signature) accepts: the locked signer first (`Relocked`),
    else anyone keyless; a key signer needs its key (``--key``)."""
    if locked is None or locked.kind != "cosign":
        return None
    if locked.identity.startswith("key:"):
        if not keys:
            message = f"{name} was locked signed by {locked.identity}; give its public key"
            raise refuse(
                "install.signature.missing", message, hint="satchel install --frozen --key FILE"
            )
        return None
    return Relocked(("*",), (), exactly(locked))


def same_signer(locked: Signature | None, got: Signature | None, name: str) -> None:
    """Refuse when an OCI artifact locked with a ``cosign`` signature is now signed by
    another identity or issuer (``install.signature.changed``)."""
    if locked is None or locked.kind != "cosign":
        return
    if got is None:
        raise refuse("install.signature.missing", f"{name} is not signed any more")
    if (got.identity, got.issuer) != (locked.identity, locked.issuer):
        message = (
            f"{name} was signed by {locked.identity} (issuer {locked.issuer or 'none'}) when it "
            f"was locked, and is signed by {got.identity} (issuer {got.issuer or 'none'}) now"
        )
        raise refuse("install.signature.changed", message)

"""A keyless signature in cosign's ``.sig`` tag, checked offline against a trust root.

A layer of that tag (``specs/SIGNATURE_SPEC.md``) holds a simple-signing payload; its
annotations hold the signature (``dev.cosignproject.cosign/signature``), the signing
certificate (``dev.sigstore.cosign/certificate``, PEM) and the transparency log's
promise (``dev.sigstore.cosign/bundle``: ``SignedEntryTimestamp`` and ``Payload``
with the entry's ``body``, ``integratedTime``, ``logIndex`` and ``logID``). It carries
no inclusion proof, so the ``sigstore`` library's `Bundle` does not take it; the
checks cosign makes offline are made here, with the ``sigstore`` library's trust
root and keyrings (``sigstore`` 4.5.1, pinned by the ``sign`` extra):

1. the signed entry timestamp is the log's (a key of the trust root's transparency
   logs, by its log ID) over the RFC 8785 form of the entry;
2. the certificate chains to the trust root's certificate authority at the entry's
   integrated time, carries an SCT of a trusted CT log, is for digital signatures and
   code signing, and was valid at that time;
3. the signature is the certificate key's over the payload;
4. the entry is a ``hashedrekord`` 0.0.1 recording exactly the payload's SHA-256,
   the signature and the certificate.

Then the certificate's identity and OIDC issuer are the signer.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["LegacyInvalid", "verify_legacy_keyless"]

CERTIFICATE = "dev.sigstore.cosign/certificate"
LOG_BUNDLE = "dev.sigstore.cosign/bundle"


class LegacyInvalid(ValueError):
    """Why a keyless ``.sig`` layer does not verify."""


def verify_legacy_keyless(
    payload: bytes, signature: bytes, notes: dict[str, str], trust_root: Path
) -> tuple[Any, int]:
    """The signing certificate of a keyless ``.sig`` layer once every check holds,
    and its log index; `LegacyInvalid` otherwise."""
    from cryptography import x509

    try:
        cert = x509.load_pem_x509_certificate(notes.get(CERTIFICATE, "").encode())
        promise = json.loads(notes.get(LOG_BUNDLE, ""))
        entry = promise["Payload"]
        body_b64, when = str(entry["body"]), int(entry["integratedTime"])
        index, log_id = int(entry["logIndex"]), str(entry["logID"])
        set_signature = base64.b64decode(promise["SignedEntryTimestamp"], validate=True)
        body = json.loads(base64.b64decode(body_b64, validate=True))
    except (ValueError, KeyError, TypeError, binascii.Error) as e:
        message = f"the .sig layer's certificate or log bundle is not readable: {e}"
        raise LegacyInvalid(message) from None
    root = _root(trust_root)
    _check_set(root, body_b64, when, index, log_id, set_signature)
    at = datetime.fromtimestamp(when, tz=UTC)
    _check_certificate(root, cert, at)
    _check_signature(cert, payload, signature)
    _check_body(body, cert, payload, signature)
    return cert, index


def _root(path: Path) -> Any:
    from sigstore.models import TrustedRoot

    try:
        return TrustedRoot.from_file(str(path))
    except Exception as e:  # noqa: BLE001  # sigstore and pydantic errors
        raise LegacyInvalid(f"the trust root {path} is not readable: {e}") from None


def _check_set(
    root: Any, body_b64: str, when: int, index: int, log_id: str, signature: bytes
) -> None:
    import rfc8785
    from sigstore._internal.trust import KeyringPurpose
    from sigstore.errors import VerificationError

    signed: dict[str, str | int] = {
        "body": body_b64, "integratedTime": when, "logID": log_id, "logIndex": index,
    }  # fmt: skip
    try:
        key_id = bytes.fromhex(log_id)
        keyring = root.rekor_keyring(KeyringPurpose.VERIFY)
        keyring.verify(key_id=key_id, signature=signature, data=rfc8785.dumps(signed))
    except (ValueError, VerificationError) as e:
        raise LegacyInvalid(f"the log's signed entry timestamp does not verify: {e}") from None


def _check_certificate(root: Any, cert: Any, at: datetime) -> None:
    from cryptography import x509
    from cryptography.x509 import ExtendedKeyUsage, KeyUsage
    from cryptography.x509.oid import ExtendedKeyUsageOID
    from cryptography.x509.verification import (
        Criticality,
        ExtensionPolicy,
        PolicyBuilder,
        Store,
        VerificationError,
    )
    from sigstore._internal.sct import verify_sct
    from sigstore._internal.trust import KeyringPurpose
    from sigstore.errors import VerificationError as SigstoreError

    ca = ExtensionPolicy.webpki_defaults_ca().may_be_present(
        ExtendedKeyUsage, Criticality.NON_CRITICAL, None
    )
    ee = ExtensionPolicy.webpki_defaults_ee().may_be_present(
        ExtendedKeyUsage, Criticality.NON_CRITICAL, None
    )
    builder = PolicyBuilder().store(Store(root.get_fulcio_certs())).time(at)
    verifier = builder.extension_policies(ca_policy=ca, ee_policy=ee).build_client_verifier()
    try:
        chain = verifier.verify(cert, []).chain[1:]
        verify_sct(cert, chain, root.ct_keyring(KeyringPurpose.VERIFY))
    except (VerificationError, SigstoreError, x509.UnsupportedGeneralNameType) as e:
        raise LegacyInvalid(f"the certificate is not the trust root's: {e}") from None
    usage = cert.extensions.get_extension_for_class(KeyUsage).value
    extended = cert.extensions.get_extension_for_class(ExtendedKeyUsage).value
    if not usage.digital_signature or ExtendedKeyUsageOID.CODE_SIGNING not in extended:
        raise LegacyInvalid("the certificate is not for code signing")
    if not cert.not_valid_before_utc <= at <= cert.not_valid_after_utc:
        raise LegacyInvalid("the certificate was not valid when the log recorded the entry")


def _check_signature(cert: Any, payload: bytes, signature: bytes) -> None:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        cert.public_key().verify(signature, payload, ec.ECDSA(hashes.SHA256()))
    except (InvalidSignature, TypeError, AttributeError):
        raise LegacyInvalid("the signature is not the certificate key's") from None


def _check_body(body: Any, cert: Any, payload: bytes, signature: bytes) -> None:
    from cryptography import x509

    try:
        spec = body["spec"]
        kind = (body["kind"], body["apiVersion"])
        hashed = spec["data"]["hash"]
        content = base64.b64decode(spec["signature"]["content"], validate=True)
        pem = base64.b64decode(spec["signature"]["publicKey"]["content"], validate=True)
        logged = x509.load_pem_x509_certificate(pem)
    except (KeyError, TypeError, ValueError, binascii.Error):
        raise LegacyInvalid("the log entry is not a hashedrekord") from None
    same = (
        kind == ("hashedrekord", "0.0.1")
        and hashed.get("algorithm") == "sha256"
        and hashed.get("value") == hashlib.sha256(payload).hexdigest()
        and content == signature
        and logged == cert
    )
    if not same:
        raise LegacyInvalid("the log entry records another payload, signature or certificate")

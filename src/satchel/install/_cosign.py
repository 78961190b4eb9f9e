"""What cosign signs for an OCI artifact, made and read: the payloads, the DSSE
envelope, and a signature made with a key.

A signature over an artifact is a signature over its manifest digest. Two payloads
carry that digest:

- the in-toto statement cosign signs in its bundle format (``cosign sign``, cosign
  v3, ``cmd/cosign/cli/sign/sign.go``): ``_type``
  ``https://in-toto.io/Statement/v1``, one subject whose digest is
  ``{"sha256": <hex>}``, ``predicateType`` ``https://sigstore.dev/cosign/sign/v1``
  and an empty predicate, in a DSSE envelope of payload type
  ``application/vnd.in-toto+json``;
- the simple-signing payload of cosign's older scheme (``specs/SIGNATURE_SPEC.md``):
  ``critical.image.docker-manifest-digest``, of type ``cosign container image
  signature``.

A key signature (``--key``, an ECDSA P-256 key in PEM as ``cosign generate-key-pair``
writes it, unencrypted) is a Sigstore bundle v0.3 whose verification material is the
key's hint (base64 of the SHA-256 of its DER SubjectPublicKeyInfo) and whose content
is the DSSE envelope; it has no certificate and no transparency log entry. The
signer it names is ``key:sha256:<hex>`` of the same SubjectPublicKeyInfo.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from typing import Any

from satchel.core._json import loads
from satchel.install._errors import refuse

__all__ = [
    "BUNDLE",
    "INTOTO",
    "PREDICATE",
    "SIMPLE_SIGNING",
    "envelope_payload",
    "key_bundle",
    "key_name",
    "load_private_key",
    "load_public_key",
    "signed_digests",
    "simple_signing_digest",
    "statement",
    "verify_key_bundle",
    "verify_key_payload",
]

BUNDLE = "application/vnd.dev.sigstore.bundle.v0.3+json"
INTOTO = "application/vnd.in-toto+json"
STATEMENT = "https://in-toto.io/Statement/v1"
PREDICATE = "https://sigstore.dev/cosign/sign/v1"
SIMPLE_SIGNING = "application/vnd.dev.cosign.simplesigning.v1+json"
SIMPLE_TYPE = "cosign container image signature"


def statement(digest: str, name: str) -> bytes:
    """The in-toto statement cosign signs for the manifest `digest` of `name`."""
    doc = {
        "_type": STATEMENT,
        "subject": [{"name": name, "digest": {"sha256": digest.split(":", 1)[1]}}],
        "predicateType": PREDICATE,
        "predicate": {},
    }
    return json.dumps(doc, separators=(",", ":")).encode()


def signed_digests(payload_type: str, payload: bytes) -> set[str]:
    """The manifest digests a cosign statement names (``sha256:<hex>``); empty when
    the payload is not one."""
    doc = _json(payload)
    if payload_type != INTOTO or doc.get("_type") != STATEMENT:
        return set()
    if doc.get("predicateType") != PREDICATE:
        return set()
    subjects = doc.get("subject")
    out = set()
    for row in subjects if isinstance(subjects, list) else []:
        digest = row.get("digest") if isinstance(row, dict) else None
        hexed = digest.get("sha256") if isinstance(digest, dict) else None
        if isinstance(hexed, str):
            out.add("sha256:" + hexed.lower())
    return out


def simple_signing_digest(payload: bytes) -> str | None:
    """The manifest digest a simple-signing payload names, or None."""
    critical = _json(payload).get("critical")
    if not isinstance(critical, dict) or critical.get("type") != SIMPLE_TYPE:
        return None
    image = critical.get("image")
    digest = image.get("docker-manifest-digest") if isinstance(image, dict) else None
    return digest if isinstance(digest, str) else None


def envelope_payload(bundle: dict[str, Any]) -> tuple[str, bytes, bytes]:
    """A bundle's DSSE envelope: its payload type, payload and first signature."""
    envelope = bundle.get("dsseEnvelope")
    if not isinstance(envelope, dict):
        raise ValueError("the bundle holds no DSSE envelope")
    signatures = envelope.get("signatures")
    if not isinstance(signatures, list) or len(signatures) != 1:
        raise ValueError("the DSSE envelope does not hold exactly one signature")
    first = signatures[0]
    payload_type = envelope.get("payloadType")
    if not isinstance(payload_type, str) or not isinstance(first, dict):
        raise ValueError("the DSSE envelope has no payload type")
    return payload_type, _b64(envelope.get("payload")), _b64(first.get("sig"))


def pae(payload_type: str, payload: bytes) -> bytes:
    """DSSE's pre-authentication encoding (DSSE ``protocol.md``)."""
    kind = payload_type.encode()
    return b"DSSEv1 %d %s %d %s" % (len(kind), kind, len(payload), payload)


# --- keys --------------------------------------------------------------------------


def load_private_key(pem: bytes, where: str) -> Any:
    """An ECDSA P-256 private key from PEM (PKCS#8, SEC1, or cosign's label)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    text = pem.replace(b"ENCRYPTED SIGSTORE PRIVATE KEY", b"PRIVATE KEY")
    try:
        key = serialization.load_pem_private_key(text, password=None)
    except (ValueError, TypeError) as e:
        message = f"{where} is not an unencrypted PEM private key ({e})"
        raise refuse("install.oci.key", message) from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise refuse("install.oci.key", f"{where} is not an ECDSA P-256 key")
    return key


def load_public_key(pem: bytes, where: str) -> Any:
    """An ECDSA P-256 public key from PEM (``cosign.pub``)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        key = serialization.load_pem_public_key(pem)
    except (ValueError, TypeError) as e:
        raise refuse("install.oci.key", f"{where} is not a PEM public key ({e})") from None
    if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != "secp256r1":
        raise refuse("install.oci.key", f"{where} is not an ECDSA P-256 key")
    return key


def key_name(public_key: Any) -> str:
    """``key:sha256:<hex>`` of the key's DER SubjectPublicKeyInfo."""
    return "key:sha256:" + hashlib.sha256(_spki(public_key)).hexdigest()


def key_bundle(private_key: Any, payload: bytes) -> bytes:
    """A Sigstore bundle v0.3 holding `payload` (a cosign statement) signed with the
    key in a DSSE envelope, the key named by its hint."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec

    signature = private_key.sign(pae(INTOTO, payload), ec.ECDSA(hashes.SHA256()))
    hint = base64.b64encode(hashlib.sha256(_spki(private_key.public_key())).digest())
    doc = {
        "mediaType": BUNDLE,
        "verificationMaterial": {"publicKey": {"hint": hint.decode()}},
        "dsseEnvelope": {
            "payload": base64.b64encode(payload).decode(),
            "payloadType": INTOTO,
            "signatures": [{"sig": base64.b64encode(signature).decode(), "keyid": ""}],
        },
    }
    return json.dumps(doc, separators=(",", ":")).encode()


def verify_key_bundle(bundle: dict[str, Any], public_key: Any) -> tuple[str, bytes]:
    """The payload type and payload of a key-signed bundle, once its signature
    verifies with `public_key`; ValueError otherwise."""
    material = bundle.get("verificationMaterial")
    hint = material.get("publicKey", {}).get("hint") if isinstance(material, dict) else None
    mine = base64.b64encode(hashlib.sha256(_spki(public_key)).digest()).decode()
    if hint not in (None, "", mine):
        raise ValueError(f"the bundle names another key (hint {hint})")
    payload_type, payload, signature = envelope_payload(bundle)
    verify_key_payload(public_key, pae(payload_type, payload), signature)
    return payload_type, payload


def verify_key_payload(public_key: Any, data: bytes, signature: bytes) -> None:
    """ValueError unless `signature` is the key's ECDSA-SHA256 signature of `data`."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        public_key.verify(signature, data, ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the signature does not verify with the key") from None


def _spki(public_key: Any) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return bytes(
        public_key.public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )


def _json(data: bytes) -> dict[str, Any]:
    try:
        doc = loads(data)
    except ValueError:
        return {}
    return doc if isinstance(doc, dict) else {}


def _b64(value: object) -> bytes:
    if not isinstance(value, str):
        raise ValueError("a base64 field is missing")
    try:
        return base64.b64decode(value, validate=True)
    except binascii.Error:
        raise ValueError("a base64 field is not base64") from None

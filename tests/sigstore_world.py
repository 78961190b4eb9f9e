"""A Sigstore world built in-process: what Fulcio, a CT log and Rekor would give a
signer, made here with `cryptography`, so the tests verify real bundles with the real
`sigstore` verifier and never reach a public Sigstore service.

A `World` holds:

- a Fulcio-like CA (a root and an intermediate) that issues short-lived code-signing
  certificates for an OIDC identity (subject + issuer), with the Fulcio extensions
  (issuer as ``1.3.6.1.4.1.57264.1.1`` and ``.1.8``) and one embedded SCT signed by
  the world's CT log key over the precertificate (RFC 6962);
- a Rekor-like transparency log: an RFC 6962 Merkle tree of every entry it was given,
  an inclusion proof and a signed checkpoint per entry, and a signed entry timestamp
  (the inclusion promise) over the entry's canonical form;
- ``trusted_root.json`` naming those keys, in the protobuf-specs ``TrustedRoot``
  format (`World.trusted_root_path`).

`World.sign` returns a bundle v0.3 (JSON text) with a ``hashedrekord`` 0.0.1 entry
over an artifact's SHA-256; `World.attest` returns one with a DSSE envelope holding an
in-toto statement and a ``dsse`` 0.0.1 entry. Two worlds share nothing: a bundle from
one does not verify against the other's trusted root.

Time is the world's own clock (`World.now`, fixed unless given), so what is signed
does not depend on when the tests run; each signature moves it on by a second.
"""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import struct
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

__all__ = [
    "BUNDLE_MEDIA_TYPE",
    "EPOCH",
    "INTOTO_PAYLOAD_TYPE",
    "ISSUER",
    "SIGNER",
    "World",
    "loopback_only",
    "statement",
]

BUNDLE_MEDIA_TYPE = "application/vnd.dev.sigstore.bundle.v0.3+json"
TRUSTED_ROOT_MEDIA_TYPE = "application/vnd.dev.sigstore.trustedroot+json;version=0.1"
INTOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json"
INTOTO_STATEMENT = "https://in-toto.io/Statement/v1"
EPOCH = datetime(2026, 1, 5, 12, 0, 0, tzinfo=UTC)
SIGNER = "release@example.com"
ISSUER = "https://issuer.example.com"

_ISSUER_V1 = x509.ObjectIdentifier("1.3.6.1.4.1.57264.1.1")
_ISSUER_V2 = x509.ObjectIdentifier("1.3.6.1.4.1.57264.1.8")
_SCT_LIST = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")
_KEY_DETAILS = "PKIX_ECDSA_P256_SHA_256"
_CERT_LIFETIME = timedelta(minutes=10)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _spki(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def _key_id(key: ec.EllipticCurvePublicKey) -> bytes:
    """RFC 6962's log ID: SHA-256 of the DER SubjectPublicKeyInfo."""
    return hashlib.sha256(_spki(key)).digest()


def _der_length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def _der_utf8(text: str) -> bytes:
    raw = text.encode()
    return b"\x0c" + _der_length(len(raw)) + raw


def _u24(n: int) -> bytes:
    return n.to_bytes(3, "big")


def _leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def _node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than `n` (RFC 6962, section 2.1)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def _root(leaves: list[bytes]) -> bytes:
    if len(leaves) == 1:
        return leaves[0]
    k = _split(len(leaves))
    return _node_hash(_root(leaves[:k]), _root(leaves[k:]))


def _path(m: int, leaves: list[bytes]) -> list[bytes]:
    """The audit path of leaf `m`, lowest level first (RFC 6962, section 2.1.1)."""
    if len(leaves) <= 1:
        return []
    k = _split(len(leaves))
    if m < k:
        return [*_path(m, leaves[:k]), _root(leaves[k:])]
    return [*_path(m - k, leaves[k:]), _root(leaves[:k])]


def loopback_only(monkeypatch: Any) -> None:
    """Make any connection beyond 127.0.0.1 fail the test (`monkeypatch`: pytest's):
    what proves that checking a world's bundles reaches no Sigstore service."""
    real = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> None:
        host = address[0] if isinstance(address, tuple) else address
        assert host in ("127.0.0.1", "::1", "localhost"), f"connection to {host}"
        real(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)


def statement(
    subjects: dict[str, str], predicate_type: str = "https://slsa.dev/provenance/v1"
) -> dict[str, Any]:
    """An in-toto v1 statement naming each subject (name -> SHA-256 hex)."""
    return {
        "_type": INTOTO_STATEMENT,
        "subject": [{"name": n, "digest": {"sha256": d}} for n, d in subjects.items()],
        "predicateType": predicate_type,
        "predicate": {},
    }


@dataclass
class _Log:
    """The transparency log: its key, origin and every leaf it holds."""

    key: ec.EllipticCurvePrivateKey
    origin: str
    leaves: list[bytes] = field(default_factory=list)

    @property
    def log_id(self) -> bytes:
        return _key_id(self.key.public_key())

    def add(self, body: bytes, integrated: int) -> dict[str, Any]:
        """Append `body` and return its ``tlogEntries`` item (proof, checkpoint, SET)."""
        index = len(self.leaves)
        self.leaves.append(_leaf_hash(body))
        size = len(self.leaves)
        root = _root(self.leaves)
        promise = {
            "body": _b64(body),
            "integratedTime": integrated,
            "logID": self.log_id.hex(),
            "logIndex": index,
        }
        canonical = json.dumps(promise, sort_keys=True, separators=(",", ":")).encode()
        kind = json.loads(body)
        return {
            "logIndex": str(index),
            "logId": {"keyId": _b64(self.log_id)},
            "kindVersion": {"kind": kind["kind"], "version": kind["apiVersion"]},
            "integratedTime": str(integrated),
            "inclusionPromise": {"signedEntryTimestamp": _b64(self._sign(canonical))},
            "inclusionProof": {
                "logIndex": str(index),
                "rootHash": _b64(root),
                "treeSize": str(size),
                "hashes": [_b64(h) for h in _path(index, self.leaves)],
                "checkpoint": {"envelope": self.checkpoint(size, root)},
            },
            "canonicalizedBody": _b64(body),
        }

    def checkpoint(self, size: int, root: bytes) -> str:
        """A signed note: origin, size, root hash, then the log's signature line."""
        note = f"{self.origin}\n{size}\n{_b64(root)}\n"
        signature = self.log_id[:4] + self._sign(note.encode())
        return f"{note}\n\u2014 {self.origin} {_b64(signature)}\n"

    def _sign(self, data: bytes) -> bytes:
        return self.key.sign(data, ec.ECDSA(hashes.SHA256()))


class World:
    """A self-contained Sigstore instance in `root` (see the module docstring)."""

    def __init__(self, root: Path, *, name: str = "world", now: datetime = EPOCH) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.now = now
        self._root_key = ec.generate_private_key(ec.SECP256R1())
        self._inter_key = ec.generate_private_key(ec.SECP256R1())
        self._ct_key = ec.generate_private_key(ec.SECP256R1())
        self.log = _Log(ec.generate_private_key(ec.SECP256R1()), f"rekor.{name}.test")
        start = now - timedelta(days=30)
        self.root_cert = self._ca(self._root_key, None, f"{name}-root", start)
        self.intermediate = self._ca(self._inter_key, self.root_cert, f"{name}-inter", start)
        self.trusted_root_path = self.root / "trusted_root.json"
        self.trusted_root_path.write_text(json.dumps(self.trusted_root(), indent=2) + "\n")

    # -- the trusted root -------------------------------------------------------

    def trusted_root(self) -> dict[str, Any]:
        """The protobuf-specs ``TrustedRoot`` naming this world's keys."""
        start = (self.now - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
        der = serialization.Encoding.DER

        def instance(key: ec.EllipticCurvePrivateKey, url: str) -> dict[str, Any]:
            public = key.public_key()
            return {
                "baseUrl": url,
                "hashAlgorithm": "SHA2_256",
                "publicKey": {
                    "rawBytes": _b64(_spki(public)),
                    "keyDetails": _KEY_DETAILS,
                    "validFor": {"start": start},
                },
                "logId": {"keyId": _b64(_key_id(public))},
            }

        return {
            "mediaType": TRUSTED_ROOT_MEDIA_TYPE,
            "tlogs": [instance(self.log.key, "http://127.0.0.1:9/rekor")],
            "certificateAuthorities": [
                {
                    "subject": {"organization": self.name, "commonName": f"{self.name}-ca"},
                    "uri": "http://127.0.0.1:9/fulcio",
                    "certChain": {
                        "certificates": [
                            {"rawBytes": _b64(c.public_bytes(der))}
                            for c in (self.intermediate, self.root_cert)
                        ]
                    },
                    "validFor": {"start": start},
                }
            ],
            "ctlogs": [instance(self._ct_key, "http://127.0.0.1:9/ct")],
            "timestampAuthorities": [],
        }

    # -- signing ----------------------------------------------------------------

    def sign(
        self,
        artifact: Path | bytes,
        *,
        identity: str = SIGNER,
        issuer: str = ISSUER,
    ) -> str:
        """A bundle v0.3 (JSON text) signing `artifact` (its bytes, or a file's)."""
        data = artifact.read_bytes() if isinstance(artifact, Path) else artifact
        return self.sign_digest(hashlib.sha256(data).hexdigest(), identity=identity, issuer=issuer)

    def sign_digest(self, sha256_hex: str, *, identity: str = SIGNER, issuer: str = ISSUER) -> str:
        """A bundle v0.3 signing the artifact whose SHA-256 is `sha256_hex`."""
        digest = bytes.fromhex(sha256_hex)
        key, cert, when = self._issue(identity, issuer)
        signature = key.sign(digest, ec.ECDSA(Prehashed(hashes.SHA256())))
        body = {
            "apiVersion": "0.0.1",
            "kind": "hashedrekord",
            "spec": {
                "data": {"hash": {"algorithm": "sha256", "value": sha256_hex}},
                "signature": {
                    "content": _b64(signature),
                    "publicKey": {"content": _b64(cert.public_bytes(serialization.Encoding.PEM))},
                },
            },
        }
        bundle = self._bundle(cert, body, when)
        bundle["messageSignature"] = {
            "messageDigest": {"algorithm": "SHA2_256", "digest": _b64(digest)},
            "signature": _b64(signature),
        }
        return json.dumps(bundle, indent=2)

    def attest(
        self,
        statement: dict[str, Any] | bytes,
        *,
        identity: str = SIGNER,
        issuer: str = ISSUER,
        payload_type: str = INTOTO_PAYLOAD_TYPE,
    ) -> str:
        """A bundle v0.3 whose DSSE envelope holds `statement` (an in-toto statement,
        as a mapping or its exact bytes)."""
        payload = statement if isinstance(statement, bytes) else json.dumps(statement).encode()
        key, cert, when = self._issue(identity, issuer)
        pae = b"DSSEv1 %d %s %d %s" % (
            len(payload_type),
            payload_type.encode(),
            len(payload),
            payload,
        )
        signature = key.sign(pae, ec.ECDSA(hashes.SHA256()))
        envelope = {
            "payload": _b64(payload),
            "payloadType": payload_type,
            "signatures": [{"sig": _b64(signature)}],
        }
        pem = _b64(cert.public_bytes(serialization.Encoding.PEM))
        body = {
            "apiVersion": "0.0.1",
            "kind": "dsse",
            "spec": {
                "envelopeHash": {
                    "algorithm": "sha256",
                    "value": hashlib.sha256(json.dumps(envelope).encode()).hexdigest(),
                },
                "payloadHash": {
                    "algorithm": "sha256",
                    "value": hashlib.sha256(payload).hexdigest(),
                },
                "signatures": [{"signature": _b64(signature), "verifier": pem}],
            },
        }
        bundle = self._bundle(cert, body, when)
        bundle["dsseEnvelope"] = envelope
        return json.dumps(bundle, indent=2)

    def _bundle(
        self, cert: x509.Certificate, body: dict[str, Any], when: datetime
    ) -> dict[str, Any]:
        raw = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
        entry = self.log.add(raw, int(when.timestamp()))
        return {
            "mediaType": BUNDLE_MEDIA_TYPE,
            "verificationMaterial": {
                "certificate": {"rawBytes": _b64(cert.public_bytes(serialization.Encoding.DER))},
                "tlogEntries": [entry],
            },
        }

    # -- the CA -----------------------------------------------------------------

    def _tick(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now

    def _ca(
        self,
        key: ec.EllipticCurvePrivateKey,
        parent: x509.Certificate | None,
        common_name: str,
        start: datetime,
    ) -> x509.Certificate:
        subject = x509.Name(
            [
                x509.NameAttribute(NameOID.ORGANIZATION_NAME, self.name),
                x509.NameAttribute(NameOID.COMMON_NAME, common_name),
            ]
        )
        issuer = parent.subject if parent is not None else subject
        signer = self._root_key if parent is not None else key
        builder = (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(issuer)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start)
            .not_valid_after(start + timedelta(days=3650))
            .add_extension(
                x509.BasicConstraints(ca=True, path_length=None if parent is None else 0),
                critical=True,
            )
            .add_extension(
                x509.KeyUsage(
                    digital_signature=False,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=True,
                    crl_sign=True,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        )
        if parent is not None:
            builder = builder.add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self._root_key.public_key()),
                critical=False,
            ).add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), False)
        return builder.sign(signer, hashes.SHA256())

    def _issue(
        self, identity: str, issuer: str
    ) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate, datetime]:
        """A fresh key and a Fulcio-like certificate for it, with an embedded SCT,
        and the time the log integrates the entry (within the certificate's life)."""
        when = self._tick()
        key = ec.generate_private_key(ec.SECP256R1())
        name: x509.GeneralName = (
            x509.RFC822Name(identity)
            if "@" in identity and "://" not in identity
            else x509.UniformResourceIdentifier(identity)
        )
        builder = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([]))
            .issuer_name(self.intermediate.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(when - timedelta(seconds=1))
            .not_valid_after(when + _CERT_LIFETIME)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=False,
                    crl_sign=False,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self._inter_key.public_key()),
                critical=False,
            )
            .add_extension(x509.SubjectAlternativeName([name]), critical=True)
            .add_extension(x509.UnrecognizedExtension(_ISSUER_V1, issuer.encode()), False)
            .add_extension(x509.UnrecognizedExtension(_ISSUER_V2, _der_utf8(issuer)), False)
        )
        precert = builder.sign(self._inter_key, hashes.SHA256())
        sct = self._sct(precert.tbs_certificate_bytes, when)
        listed = struct.pack("!H", len(sct)) + sct
        tls = struct.pack("!H", len(listed)) + listed
        octets = b"\x04" + _der_length(len(tls)) + tls
        cert = builder.add_extension(x509.UnrecognizedExtension(_SCT_LIST, octets), False).sign(
            self._inter_key, hashes.SHA256()
        )
        return key, cert, when

    def _sct(self, tbs: bytes, when: datetime) -> bytes:
        """One SCT (RFC 6962, v1, precert entry) over `tbs`, signed by the CT key."""
        millis = int(when.timestamp() * 1000)
        issuer_key_id = _key_id(self._inter_key.public_key())
        signed = (
            struct.pack("!BBQH", 0, 0, millis, 1)
            + issuer_key_id
            + _u24(len(tbs))
            + tbs
            + struct.pack("!H", 0)
        )
        signature = self._ct_key.sign(signed, ec.ECDSA(hashes.SHA256()))
        log_id = _key_id(self._ct_key.public_key())
        return (
            struct.pack("!B", 0)
            + log_id
            + struct.pack("!QH", millis, 0)
            + struct.pack("!BBH", 4, 3, len(signature))
            + signature
        )

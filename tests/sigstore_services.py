"""Stand-ins of Fulcio and Rekor on 127.0.0.1, built on a `tests.sigstore_world.World`,
so that signing keyless (sigstore's own `Signer`) runs end to end without any public
service, and what it makes verifies against the world's trusted root.

- ``POST /api/v2/signingCert`` (Fulcio): the identity token must be a JWT signed
  with the stand-in OIDC issuer's key (`Services.token` makes one), for audience
  ``sigstore``, not expired; the CSR must be signed by the key it names. The answer is
  a certificate for that key, with the token's subject as its SAN and its issuer in
  Fulcio's extensions and an embedded SCT from the world's CT log, then the chain.
- ``POST /api/v1/log/entries`` (Rekor v1): a ``hashedrekord`` or ``dsse`` 0.0.1
  proposed entry is made canonical as Rekor makes it, appended to the world's log,
  and answered with its inclusion proof, checkpoint and signed entry timestamp.

The world's clock must be the real time here (`World(now=...)`): sigstore's signer
checks the token and the certificate against the clock of the machine.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from tests.sigstore_world import ISSUER, World

__all__ = ["Services", "running"]

_ISSUER_V1 = x509.ObjectIdentifier("1.3.6.1.4.1.57264.1.1")
_ISSUER_V2 = x509.ObjectIdentifier("1.3.6.1.4.1.57264.1.8")
_SCT_LIST = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _der_length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


@dataclass
class Services:
    """The two stand-ins of one world, once started: their base URL, the OIDC
    issuer's signing key, and every request they were sent (path, answer status)."""

    world: World
    url: str = ""
    oidc_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    seen: list[tuple[str, int]] = field(default_factory=list)

    def token(self, subject: str, issuer: str = ISSUER, *, lifetime: int = 600) -> str:
        """An identity token for `subject` from `issuer`, signed by the stand-in
        issuer's key (only `issuer` = the world's trusted issuer gets a certificate)."""
        now = int(time.time())
        claims = {"iss": issuer, "sub": subject, "aud": "sigstore", "iat": now - 5,
                  "nbf": now - 5, "exp": now + lifetime}  # fmt: skip
        return jwt.encode(claims, self.oidc_key, algorithm="ES256")

    # -- Fulcio ----------------------------------------------------------------

    def signing_cert(self, request: dict[str, Any], authorization: str) -> tuple[int, Any]:
        raw = authorization.removeprefix("Bearer ").strip()
        try:
            claims = jwt.decode(raw, self.oidc_key.public_key(), algorithms=["ES256"],
                                audience="sigstore", issuer=ISSUER)  # fmt: skip
        except jwt.PyJWTError as e:
            return 401, {"code": 401, "message": f"the identity token is refused: {e}"}
        pem = base64.b64decode(request["certificateSigningRequest"])
        csr = x509.load_pem_x509_csr(pem)
        if not csr.is_signature_valid:
            return 400, {"code": 400, "message": "the CSR's signature does not verify"}
        public = csr.public_key()
        assert isinstance(public, ec.EllipticCurvePublicKey)
        cert = self._issue(public, str(claims["sub"]), str(claims["iss"]))
        chain = [cert, self.world.intermediate, self.world.root_cert]
        pems = [c.public_bytes(serialization.Encoding.PEM).decode() for c in chain]
        return 201, {"signedCertificateEmbeddedSct": {"chain": {"certificates": pems}}}

    def _issue(
        self, public: ec.EllipticCurvePublicKey, identity: str, issuer: str
    ) -> x509.Certificate:
        """A certificate for `public`, as the world makes one for its own keys."""
        return self.world.certify(public, identity, issuer, self.world._tick())

    # -- Rekor -----------------------------------------------------------------

    def log_entry(self, proposed: dict[str, Any]) -> tuple[int, Any]:
        body = _canonical(proposed)
        if body is None:
            return 400, {"code": 400, "message": "not a hashedrekord or dsse 0.0.1 entry"}
        raw = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
        entry = self.world.log.add(raw, int(self.world.now.timestamp()))
        proof = entry["inclusionProof"]
        answer = {
            "body": entry["canonicalizedBody"],
            "integratedTime": int(entry["integratedTime"]),
            "logID": base64.b64decode(entry["logId"]["keyId"]).hex(),
            "logIndex": int(entry["logIndex"]),
            "verification": {
                "signedEntryTimestamp": entry["inclusionPromise"]["signedEntryTimestamp"],
                "inclusionProof": {
                    "logIndex": int(proof["logIndex"]),
                    "rootHash": base64.b64decode(proof["rootHash"]).hex(),
                    "treeSize": int(proof["treeSize"]),
                    "hashes": [base64.b64decode(h).hex() for h in proof["hashes"]],
                    "checkpoint": proof["checkpoint"]["envelope"],
                },
            },
        }
        return 201, {hashlib.sha256(raw).hexdigest(): answer}


def _canonical(proposed: dict[str, Any]) -> dict[str, Any] | None:
    """The entry body Rekor stores for a proposed entry."""
    if proposed.get("apiVersion") != "0.0.1":
        return None
    if proposed.get("kind") == "hashedrekord":
        return proposed
    if proposed.get("kind") != "dsse":
        return None
    content = proposed["spec"]["proposedContent"]
    envelope = json.loads(content["envelope"])
    payload = base64.b64decode(envelope["payload"])
    return {
        "apiVersion": "0.0.1",
        "kind": "dsse",
        "spec": {
            "envelopeHash": {
                "algorithm": "sha256",
                "value": hashlib.sha256(content["envelope"].encode()).hexdigest(),
            },
            "payloadHash": {"algorithm": "sha256", "value": hashlib.sha256(payload).hexdigest()},
            "signatures": [
                {"signature": s["sig"], "verifier": content["verifiers"][0]}
                for s in envelope["signatures"]
            ],
        },
    }


def _handler(services: Services) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's name
            size = int(self.headers.get("Content-Length") or 0)
            request = json.loads(self.rfile.read(size) or b"{}")
            if self.path == "/api/v2/signingCert":
                status, answer = services.signing_cert(
                    request, self.headers.get("Authorization", "")
                )
            elif self.path == "/api/v1/log/entries":
                status, answer = services.log_entry(request)
            else:
                status, answer = 404, {"code": 404, "message": "not found"}
            services.seen.append((self.path, status))
            body = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return None

    return Handler


@contextmanager
def running(world: World) -> Iterator[Services]:
    """Both stand-ins of `world` served on 127.0.0.1 (one port, both paths)."""
    services = Services(world)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(services))
    services.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield services
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)

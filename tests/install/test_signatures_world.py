"""The in-process Sigstore world passes sigstore's own verifier, and each thing that
verifier checks fails when it is wrong: the artifact, the identity, the issuer, the CA
and the transparency log. No test reaches beyond 127.0.0.1."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.sigstore_world import ISSUER, SIGNER, World, loopback_only, statement

sigstore_models = pytest.importorskip("sigstore.models")
from sigstore.errors import VerificationError  # noqa: E402
from sigstore.verify import Verifier, policy  # noqa: E402

WORKFLOW = "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main"


@pytest.fixture(autouse=True)
def no_remote(monkeypatch: pytest.MonkeyPatch) -> None:
    loopback_only(monkeypatch)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    made = World(tmp_path_factory.mktemp("world"))
    for n in range(5):  # a log with entries before ours: a proof of several hashes
        made.sign(b"earlier %d" % n)
    return made


def verifier(world: World) -> Verifier:
    root = sigstore_models.TrustedRoot.from_file(str(world.trusted_root_path))
    return Verifier(trusted_root=root)


def bundle(text: str) -> Any:
    return sigstore_models.Bundle.from_json(text)


def identity(who: str = SIGNER, issuer: str = ISSUER) -> policy.Identity:
    return policy.Identity(identity=who, issuer=issuer)


def test_a_signed_artifact_verifies(world: World, tmp_path: Path) -> None:
    artifact = tmp_path / "SKILL.md"
    artifact.write_bytes(b"---\nname: pdf\n---\nbody\n")
    signed = world.sign(artifact)
    verifier(world).verify_artifact(artifact.read_bytes(), bundle(signed), identity())
    entry = json.loads(signed)["verificationMaterial"]["tlogEntries"][0]
    assert entry["kindVersion"] == {"kind": "hashedrekord", "version": "0.0.1"}
    assert len(entry["inclusionProof"]["hashes"]) >= 2


def test_a_digest_signed_verifies_its_artifact(world: World) -> None:
    digest = hashlib.sha256(b"manifest").hexdigest()
    verifier(world).verify_artifact(b"manifest", bundle(world.sign_digest(digest)), identity())


def test_a_tampered_artifact_fails(world: World) -> None:
    signed = world.sign(b"the real content")
    with pytest.raises(VerificationError):
        verifier(world).verify_artifact(b"the real content!", bundle(signed), identity())


def test_a_wrong_identity_fails(world: World) -> None:
    signed = world.sign(b"content", identity="mallory@example.com")
    with pytest.raises(VerificationError, match="SANs do not match"):
        verifier(world).verify_artifact(b"content", bundle(signed), identity())


def test_a_wrong_issuer_fails(world: World) -> None:
    signed = world.sign(b"content", issuer="https://other-issuer.example.com")
    with pytest.raises(VerificationError, match="OIDCIssuer does not match"):
        verifier(world).verify_artifact(b"content", bundle(signed), identity())


def test_a_bundle_from_another_worlds_ca_fails(world: World, tmp_path: Path) -> None:
    other = World(tmp_path / "other", name="other")
    signed = other.sign(b"content")
    verifier(other).verify_artifact(b"content", bundle(signed), identity())  # valid there
    with pytest.raises(VerificationError, match="certificate chain"):
        verifier(world).verify_artifact(b"content", bundle(signed), identity())


def test_a_log_entry_not_in_the_tree_fails(world: World) -> None:
    signed = json.loads(world.sign(b"content"))
    proof = signed["verificationMaterial"]["tlogEntries"][0]["inclusionProof"]
    proof["rootHash"] = base64.b64encode(hashlib.sha256(b"another tree").digest()).decode()
    with pytest.raises(VerificationError, match="invalid log entry"):
        verifier(world).verify_artifact(b"content", bundle(json.dumps(signed)), identity())


def test_an_attestation_verifies_and_gives_its_statement(world: World) -> None:
    digest = hashlib.sha256(b"archive").hexdigest()
    signed = world.attest(statement({"skill.tar.gz": digest}), identity=WORKFLOW)
    kind, payload = verifier(world).verify_dsse(bundle(signed), identity(WORKFLOW))
    assert kind == "application/vnd.in-toto+json"
    assert json.loads(payload)["subject"] == [
        {"name": "skill.tar.gz", "digest": {"sha256": digest}}
    ]


def test_an_attestation_whose_payload_changed_fails(world: World) -> None:
    signed = json.loads(world.attest(statement({"a": "00" * 32})))
    forged = json.dumps(statement({"a": "11" * 32})).encode()
    signed["dsseEnvelope"]["payload"] = base64.b64encode(forged).decode()
    with pytest.raises(VerificationError):
        verifier(world).verify_dsse(bundle(json.dumps(signed)), identity())

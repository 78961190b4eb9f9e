"""Signed OCI artifacts: `satchel publish --sign` (keyless through stand-ins of Fulcio
and Rekor on 127.0.0.1 built on an in-process Sigstore world, or with a key) attaches
a Sigstore bundle as a referrer; `satchel install --signer` / `--key` finds it
(referrers API, referrers tag, cosign's .sig tag) and verifies it over the manifest
digest before any layer is read. Unsigned, moved and wrongly signed artifacts are
refused with their codes and write nothing. The registry is Debian's docker-registry
on 127.0.0.1; no test reaches beyond loopback."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import socket
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from satchel.install import Settings
from satchel.install._oci import OCI_MANIFEST, Registry, digest_of
from satchel.install._oci_layout import EMPTY
from satchel.install._oci_signatures import attach
from tests.sigstore_services import Services, running
from tests.sigstore_world import ISSUER, SIGNER, World
from tests.support import skill_md, write_tree
from tests.support.golden import check_golden

from .registry import Registry as Running
from .support import state

pytest.importorskip("sigstore")
pytestmark = pytest.mark.usefixtures("only_loopback")

BUNDLE = "application/vnd.dev.sigstore.bundle.v0.3+json"
SIMPLE = "application/vnd.dev.cosign.simplesigning.v1+json"


@pytest.fixture(autouse=True)
def no_docker_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "docker-empty"
    empty.mkdir()
    monkeypatch.setenv("DOCKER_CONFIG", str(empty))
    monkeypatch.delenv("SIGSTORE_ID_TOKEN", raising=False)
    monkeypatch.delenv("SATCHEL_SIGSTORE_TRUST_ROOT", raising=False)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    # sigstore's signer checks the token and certificate against the machine's clock
    return World(tmp_path_factory.mktemp("world"), name="signing", now=datetime.now(UTC))


@pytest.fixture(scope="module")
def services(world: World) -> Iterator[Services]:
    with running(world) as served:
        yield served


def a_skill(root: Path, name: str, body: str = "Body.\n") -> Path:
    return write_tree(root / name, {"SKILL.md": skill_md(name, f"{name} things.", body)})


def keyless(services: Services, world: World, who: str = SIGNER) -> list[str]:
    return [
        "--sign", "--identity-token", services.token(who), "--fulcio-url", services.url,
        "--rekor-url", services.url, "--trust-root", str(world.trusted_root_path),
    ]  # fmt: skip


def publish(satchel, path: Path, ref: str, *extra: str) -> dict[str, Any]:
    code, out, err = satchel("publish", path, ref, *extra, "--json", where=False)
    assert code == 0, err + out
    return json.loads(out)


def install(satchel, ref: str, *extra: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = satchel("install", ref, *extra, "--json")
    return code, json.loads(out)


def nothing_written(project: Path) -> None:
    assert state(project) == {".git": "dir"}  # as the project fixture made it


def a_key(where: Path, name: str) -> tuple[Path, Path]:
    """An ECDSA P-256 key pair as cosign writes it: private PEM, public PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = where / f"{name}.key"
    private.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    public = where / f"{name}.pub"
    public.write_bytes(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    return private, public


def key_name(public: Path) -> str:
    key = serialization.load_pem_public_key(public.read_bytes())
    der = key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return "key:sha256:" + hashlib.sha256(der).hexdigest()


def client(registry: Running, repo: str) -> Registry:
    return Registry(registry.host, repo, Settings(), dict(os.environ), push=True)


def raw_get(registry: Running, path: str) -> httpx.Response:
    accept = "application/vnd.oci.image.index.v1+json, " + OCI_MANIFEST
    return httpx.get(f"http://{registry.host}/v2/{path}", headers={"Accept": accept})


# --- keyless: publish, then install ------------------------------------------------


def test_publish_sign_then_install_with_signer_round_trip(
    satchel, oci_registry, services, world, project, tmp_path
):
    skill = a_skill(tmp_path / "src", "signed")
    ref = oci_registry.ref("team/signed")
    done = publish(satchel, skill, ref, *keyless(services, world))
    sig = done["signature"]
    assert (sig["signer"], sig["issuer"]) == (SIGNER, ISSUER)
    assert sig["digest"] == done["digest"] and isinstance(sig["log_index"], int)
    paths = [path for path, status in services.seen if status == 201]
    assert "/api/v2/signingCert" in paths and "/api/v1/log/entries" in paths

    code, result = install(
        satchel, ref, "--signer", SIGNER, "--issuer", ISSUER,
        "--trust-root", str(world.trusted_root_path),
    )  # fmt: skip
    assert code == 0, result
    assert (project / ".satchel/skills/signed/SKILL.md").is_file()
    entry = json.loads((project / ".satchel/skills.lock").read_text())["entries"][0]
    assert entry["resolved"] == done["digest"]
    assert entry["signature"] == {
        "identity": SIGNER, "issuer": ISSUER, "digest": done["digest"], "kind": "cosign",
        "log_index": sig["log_index"],
    }  # fmt: skip


def test_install_signed_by_someone_else_is_refused(
    satchel, oci_registry, services, world, project, tmp_path
):
    ref = oci_registry.ref("team/other-signer")
    publish(satchel, a_skill(tmp_path / "src", "other"), ref, *keyless(services, world))
    trust = ["--trust-root", str(world.trusted_root_path)]
    code, result = install(satchel, ref, "--signer", "someone@else.example", *trust)
    assert code == 1
    error = result["error"]
    assert error["code"] == "install.signature.identity"
    assert f"signed by {SIGNER} (issuer {ISSUER})" in error["message"]
    nothing_written(project)
    code, result = install(satchel, ref, "--signer", SIGNER, "--issuer", "https://x.test", *trust)
    assert (code, result["error"]["code"]) == (1, "install.signature.identity")
    nothing_written(project)


def test_signature_from_another_trust_root_is_refused(
    satchel, oci_registry, services, world, project, tmp_path
):
    ref = oci_registry.ref("team/foreign")
    publish(satchel, a_skill(tmp_path / "src", "foreign"), ref, *keyless(services, world))
    elsewhere = World(tmp_path / "elsewhere", name="elsewhere")
    code, result = install(
        satchel, ref, "--signer", SIGNER, "--trust-root", str(elsewhere.trusted_root_path)
    )
    assert (code, result["error"]["code"]) == (1, "install.signature.invalid")
    nothing_written(project)


def test_unsigned_artifact_is_refused(satchel, oci_registry, world, project, tmp_path):
    ref = oci_registry.ref("team/unsigned")
    done = publish(satchel, a_skill(tmp_path / "src", "plain"), ref)
    assert done["signature"] is None
    code, result = install(
        satchel, ref, "--signer", SIGNER, "--trust-root", str(world.trusted_root_path)
    )
    assert code == 1
    assert result["error"]["code"] == "install.signature.missing"
    assert done["digest"] in result["error"]["message"]
    nothing_written(project)


def test_a_tag_moved_to_other_content_is_refused(
    satchel, oci_registry, services, world, project, tmp_path
):
    """The tag now names content that was never signed, and the signature of the old
    content was copied under the new digest's referrers tag: it signs another digest."""
    ref = oci_registry.ref("team/moved")
    first = publish(satchel, a_skill(tmp_path / "a", "moved"), ref, *keyless(services, world))
    second = publish(satchel, a_skill(tmp_path / "b", "moved", "Other body.\n"), ref)
    assert first["digest"] != second["digest"]
    old = raw_get(oci_registry, f"team/moved/manifests/{first['digest'].replace(':', '-')}")
    with client(oci_registry, "team/moved") as registry:
        registry.push_manifest(
            second["digest"].replace(":", "-"), old.headers["content-type"], old.content
        )
    code, result = install(
        satchel, ref, "--signer", SIGNER, "--trust-root", str(world.trusted_root_path)
    )
    assert code == 1
    error = result["error"]
    assert error["code"] == "install.oci.signed-digest"
    assert f"signs {first['digest']}, not {second['digest']}" in error["message"]
    nothing_written(project)


def test_the_referrer_is_as_cosign_attaches_it(satchel, oci_registry, services, world, tmp_path):
    """docker-registry 2.8 has no referrers API (404), so the referrers tag schema's
    index is written, listing the bundle manifest whose subject is the artifact."""
    ref = oci_registry.ref("team/layout")
    done = publish(satchel, a_skill(tmp_path / "src", "layout"), ref, *keyless(services, world))
    assert raw_get(oci_registry, f"team/layout/referrers/{done['digest']}").status_code == 404
    index = raw_get(oci_registry, f"team/layout/manifests/{done['digest'].replace(':', '-')}")
    rows = index.json()["manifests"]
    assert [(r["artifactType"], r["digest"]) for r in rows] == [
        (BUNDLE, done["signature"]["referrer"])
    ]
    manifest = raw_get(oci_registry, f"team/layout/manifests/{rows[0]['digest']}").json()
    assert manifest["artifactType"] == BUNDLE
    assert manifest["subject"]["digest"] == done["digest"]
    assert manifest["config"]["mediaType"] == EMPTY
    assert [layer["mediaType"] for layer in manifest["layers"]] == [BUNDLE]
    notes = manifest["annotations"]
    assert notes["dev.sigstore.bundle.content"] == "dsse-envelope"
    assert notes["dev.sigstore.bundle.predicateType"] == "https://sigstore.dev/cosign/sign/v1"
    blob = raw_get(oci_registry, f"team/layout/blobs/{manifest['layers'][0]['digest']}").json()
    statement = json.loads(base64.b64decode(blob["dsseEnvelope"]["payload"]))
    assert statement["subject"][0]["digest"] == {"sha256": done["digest"].split(":", 1)[1]}
    assert statement["predicateType"] == "https://sigstore.dev/cosign/sign/v1"


def test_a_message_signature_over_the_manifest_digest_installs(
    satchel, oci_registry, world, project, tmp_path
):
    """A bundle that signs the manifest digest itself (cosign sign-blob of the
    manifest), attached as a referrer by another tool, is accepted too."""
    ref = oci_registry.ref("team/blob-signed")
    done = publish(satchel, a_skill(tmp_path / "src", "blobbed"), ref)
    bundle = world.sign_digest(done["digest"].split(":", 1)[1]).encode()
    with client(oci_registry, "team/blob-signed") as registry:
        size = len(raw_get(oci_registry, f"team/blob-signed/manifests/{done['digest']}").content)
        attach(registry, done["digest"], OCI_MANIFEST, size, bundle, "2026-01-05T12:00:00Z")
    code, result = install(
        satchel, ref, "--signer", SIGNER, "--trust-root", str(world.trusted_root_path)
    )
    assert code == 0, result
    assert result["installed"][0]["signature"]["identity"] == SIGNER


def test_publish_sign_without_a_token_pushes_nothing(satchel, oci_registry, project, tmp_path):
    ref = oci_registry.ref("team/no-token")
    code, out, _ = satchel(
        "publish", a_skill(tmp_path / "src", "tokenless"), ref, "--sign", "--json", where=False
    )
    assert code == 1
    error = json.loads(out)["error"]
    assert error["code"] == "install.oci.sign"
    assert "identity token" in error["message"]
    assert raw_get(oci_registry, "team/no-token/manifests/v1").status_code == 404


def test_publish_sign_is_refused_when_the_issuer_is_not_trusted(
    satchel, oci_registry, services, world, tmp_path
):
    ref = oci_registry.ref("team/bad-issuer")
    token = services.token(SIGNER, issuer="https://untrusted.example")
    code, out, _ = satchel(
        "publish", a_skill(tmp_path / "src", "badissuer"), ref, "--sign", "--identity-token",
        token, "--fulcio-url", services.url, "--rekor-url", services.url, "--trust-root",
        str(world.trusted_root_path), "--json", where=False,
    )  # fmt: skip
    assert code == 1
    assert json.loads(out)["error"]["code"] == "install.oci.sign"
    assert raw_get(oci_registry, "team/bad-issuer/manifests/v1").status_code == 404


@pytest.fixture
def stalled() -> Iterator[str]:
    """A stand-in for Fulcio on 127.0.0.1 that takes each connection and never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


@pytest.mark.timeout(60)
def test_publish_sign_gives_up_on_a_stalled_fulcio_at_its_deadline(
    satchel, oci_registry, services, world, tmp_path, stalled, monkeypatch
):
    monkeypatch.setenv("SATCHEL_FETCH_DEADLINE", "1")
    ref = oci_registry.ref("team/stalled")
    code, out, _ = satchel(
        "publish", a_skill(tmp_path / "src", "stalled"), ref, "--sign", "--identity-token",
        services.token(SIGNER), "--fulcio-url", stalled, "--rekor-url", services.url,
        "--trust-root", str(world.trusted_root_path), "--json", where=False,
    )  # fmt: skip
    assert code == 1
    error = json.loads(out)["error"]
    assert (error["code"], error["message"]) == (
        "install.oci.sign",
        f"signing through {stalled} and {services.url} did not finish within 1 s",
    )
    assert raw_get(oci_registry, "team/stalled/manifests/v1").status_code == 404


def test_publish_sign_without_a_trust_root_reads_the_shipped_one_offline(
    satchel, oci_registry, services, world, tmp_path
):
    """No TUF fetch (only_loopback fails any connection beyond 127.0.0.1): the public
    instance's root, as the sigstore package ships it, does not trust the world's
    certificate authority, so signing through the world's services is refused."""
    ref = oci_registry.ref("team/offline-root")
    code, out, _ = satchel(
        "publish", a_skill(tmp_path / "src", "offline"), ref, "--sign", "--identity-token",
        services.token(SIGNER), "--fulcio-url", services.url, "--rekor-url", services.url,
        "--json", where=False,
    )  # fmt: skip
    assert code == 1
    error = json.loads(out)["error"]
    assert error["code"] == "install.oci.sign"
    assert error["message"].startswith(
        f"signing through {services.url} and {services.url} failed: "
    )


def test_publish_sign_human_output(satchel, oci_registry, services, world, tmp_path):
    ref = oci_registry.ref("team/shown")
    code, out, err = satchel(
        "publish", a_skill(tmp_path / "src", "shown"), ref, *keyless(services, world),
        where=False,
    )  # fmt: skip
    assert code == 0, err

    def clean(text: str) -> str:
        text = text.replace(oci_registry.host, "REGISTRY")
        return re.sub(r"sha256:[0-9a-f]{64}", "sha256:<digest>", text)

    check_golden("install/publish_signed.txt", out, clean=clean)


# --- keys ---------------------------------------------------------------------------


def test_publish_with_a_key_then_install_with_its_public_key(
    satchel, oci_registry, project, tmp_path
):
    private, public = a_key(tmp_path, "cosign")
    ref = oci_registry.ref("team/keyed")
    done = publish(satchel, a_skill(tmp_path / "src", "keyed"), ref, "--key", str(private))
    assert done["signature"]["signer"] == key_name(public)
    assert done["signature"]["log_index"] is None

    _, other = a_key(tmp_path, "other")
    code, result = install(satchel, ref, "--key", str(other))
    assert (code, result["error"]["code"]) == (1, "install.signature.identity")
    nothing_written(project)

    code, result = install(satchel, ref, "--key", str(public))
    assert code == 0, result
    assert result["installed"][0]["signature"] == {
        "identity": key_name(public), "issuer": "", "digest": done["digest"], "kind": "cosign",
    }  # fmt: skip


def test_a_key_that_is_not_p256_is_refused(satchel, oci_registry, tmp_path):
    bad = tmp_path / "rsa.key"
    bad.write_text("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n")
    ref = oci_registry.ref("team/badkey")
    code, out, _ = satchel(
        "publish", a_skill(tmp_path / "src", "badkey"), ref, "--key", bad, "--json", where=False
    )
    assert code == 1
    assert json.loads(out)["error"]["code"] == "install.oci.key"
    assert raw_get(oci_registry, "team/badkey/manifests/v1").status_code == 404


def legacy_sig(
    registry: Running, repo: str, digest: str, key: ec.EllipticCurvePrivateKey, *,
    names: str | None = None, notes_for: Callable[[bytes, bytes], dict[str, str]] | None = None,
) -> None:  # fmt: skip
    """cosign's tag scheme: ``sha256-<hex>.sig``, one simple-signing layer whose
    signature annotation is the key's signature of the payload (`notes_for` gives
    the layer's other annotations from the payload and the signature)."""
    payload = json.dumps({
        "critical": {
            "identity": {"docker-reference": f"{registry.host}/{repo}"},
            "image": {"docker-manifest-digest": names or digest},
            "type": "cosign container image signature",
        },
        "optional": None,
    }).encode()  # fmt: skip
    raw = key.sign(payload, ec.ECDSA(hashes.SHA256()))
    notes = {"dev.cosignproject.cosign/signature": base64.b64encode(raw).decode()}
    notes.update(notes_for(payload, raw) if notes_for else {})
    with client(registry, repo) as c:
        config = c.push_blob(b"{}")
        layer = c.push_blob(payload)
        manifest = {
            "schemaVersion": 2,
            "mediaType": OCI_MANIFEST,
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                       "digest": config, "size": 2},
            "layers": [{"mediaType": SIMPLE, "digest": layer, "size": len(payload),
                        "annotations": notes}],
        }  # fmt: skip
        tag = digest.replace(":", "-") + ".sig"
        c.push_manifest(tag, OCI_MANIFEST, json.dumps(manifest).encode())


def keyless_notes(
    services: Services, world: World, key: ec.EllipticCurvePrivateKey, who: str = SIGNER,
    logged_hash: str | None = None,
) -> Callable[[bytes, bytes], dict[str, str]]:  # fmt: skip
    """The annotations cosign writes for a keyless signature: the certificate for
    `key` (from the Fulcio stand-in), the chain, and the log's promise for the
    hashedrekord entry of the payload (or of `logged_hash`) and signature (from the
    world's log)."""

    def notes(payload: bytes, raw: bytes) -> dict[str, str]:
        cert = services._issue(key.public_key(), who, ISSUER)
        pem = cert.public_bytes(serialization.Encoding.PEM)
        body = {"apiVersion": "0.0.1", "kind": "hashedrekord", "spec": {
            "data": {"hash": {"algorithm": "sha256",
                              "value": logged_hash or hashlib.sha256(payload).hexdigest()}},
            "signature": {"content": base64.b64encode(raw).decode(),
                          "publicKey": {"content": base64.b64encode(pem).decode()}},
        }}  # fmt: skip
        logged = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
        entry = world.log.add(logged, int(world.now.timestamp()))
        promise = {
            "SignedEntryTimestamp": entry["inclusionPromise"]["signedEntryTimestamp"],
            "Payload": {
                "body": entry["canonicalizedBody"],
                "integratedTime": int(entry["integratedTime"]),
                "logIndex": int(entry["logIndex"]),
                "logID": base64.b64decode(entry["logId"]["keyId"]).hex(),
            },
        }
        chain = b"".join(
            c.public_bytes(serialization.Encoding.PEM)
            for c in (world.intermediate, world.root_cert)
        )
        return {
            "dev.sigstore.cosign/certificate": pem.decode(),
            "dev.sigstore.cosign/chain": chain.decode(),
            "dev.sigstore.cosign/bundle": json.dumps(promise),
        }

    return notes


def test_cosign_sig_tag_signed_with_a_key_installs(satchel, oci_registry, project, tmp_path):
    _, public = a_key(tmp_path, "unused")
    key = ec.generate_private_key(ec.SECP256R1())
    public.write_bytes(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    ref = oci_registry.ref("team/legacy")
    done = publish(satchel, a_skill(tmp_path / "src", "legacy"), ref)
    legacy_sig(oci_registry, "team/legacy", done["digest"], key)
    code, result = install(satchel, ref, "--key", str(public))
    assert code == 0, result
    assert result["installed"][0]["signature"]["identity"] == key_name(public)


def test_cosign_sig_tag_over_another_digest_is_refused(satchel, oci_registry, project, tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path / "k.pub"
    public.write_bytes(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    ref = oci_registry.ref("team/legacy-moved")
    done = publish(satchel, a_skill(tmp_path / "src", "legacymoved"), ref)
    other = digest_of(b"something else")
    legacy_sig(oci_registry, "team/legacy-moved", done["digest"], key, names=other)
    code, result = install(satchel, ref, "--key", str(public))
    assert (code, result["error"]["code"]) == (1, "install.oci.signed-digest")
    nothing_written(project)


def test_cosign_sig_tag_signed_keyless_installs(
    satchel, oci_registry, services, world, project, tmp_path
):
    """cosign's older keyless signature: a certificate and the log's signed entry
    timestamp, no inclusion proof; checked as cosign checks it offline."""
    key = ec.generate_private_key(ec.SECP256R1())
    ref = oci_registry.ref("team/legacy-keyless")
    done = publish(satchel, a_skill(tmp_path / "src", "legacykeyless"), ref)
    legacy_sig(oci_registry, "team/legacy-keyless", done["digest"], key,
               notes_for=keyless_notes(services, world, key))  # fmt: skip
    trust = ["--trust-root", str(world.trusted_root_path)]
    code, result = install(satchel, ref, "--signer", "someone@else.example", *trust)
    assert (code, result["error"]["code"]) == (1, "install.signature.identity")
    nothing_written(project)
    code, result = install(satchel, ref, "--signer", SIGNER, *trust)
    assert code == 0, result
    signature = result["installed"][0]["signature"]
    assert (signature["identity"], signature["issuer"]) == (SIGNER, ISSUER)
    assert isinstance(signature["log_index"], int)


@pytest.mark.parametrize(
    ("spoil", "why"),
    [
        ("timestamp", "the log's signed entry timestamp does not verify"),
        ("body", "the log entry records another payload, signature or certificate"),
        ("root", "the log's signed entry timestamp does not verify"),
        ("certificate", "the certificate is not the trust root's"),
    ],
)
def test_cosign_sig_tag_signed_keyless_that_does_not_verify_is_refused(
    satchel, oci_registry, services, world, project, tmp_path, spoil, why
):
    key = ec.generate_private_key(ec.SECP256R1())
    repo = f"team/legacy-{spoil}"
    ref = oci_registry.ref(repo)
    done = publish(satchel, a_skill(tmp_path / "src", f"legacy{spoil}"), ref)
    # "body": the log signed an entry for another payload's digest
    # "certificate": issued by another world's CA, logged in this world's log
    ca = Services(World(tmp_path / "ca", now=world.now)) if spoil == "certificate" else services
    made = keyless_notes(ca, world, key, logged_hash="0" * 64 if spoil == "body" else None)

    def spoiled(payload: bytes, raw: bytes) -> dict[str, str]:
        notes = made(payload, raw)
        if spoil == "timestamp":  # the log's signature, but over another index
            promise = json.loads(notes["dev.sigstore.cosign/bundle"])
            promise["Payload"]["logIndex"] += 1
            notes["dev.sigstore.cosign/bundle"] = json.dumps(promise)
        return notes

    legacy_sig(oci_registry, repo, done["digest"], key, notes_for=spoiled)
    root = World(tmp_path / "other").trusted_root_path if spoil == "root" else None
    code, result = install(
        satchel, ref, "--signer", SIGNER, "--trust-root", str(root or world.trusted_root_path)
    )
    assert (code, result["error"]["code"]) == (1, "install.signature.invalid")
    assert why in result["error"]["message"]
    nothing_written(project)


# --- the lock --------------------------------------------------------------------------


def test_frozen_install_checks_the_locked_signer(
    satchel, oci_registry, services, world, project, tmp_path
):
    ref = oci_registry.ref("team/frozen")
    done = publish(satchel, a_skill(tmp_path / "src", "frozen"), ref, *keyless(services, world))
    trust = ["--trust-root", str(world.trusted_root_path)]
    code, result = install(satchel, ref, "--signer", SIGNER, *trust)
    assert code == 0, result
    code, out, err = satchel("install", "--frozen", *trust, "--json")
    assert code == 0, err + out

    # the artifact's referrers now list only a signature by someone else
    other = services.token("mallory@example.com")
    code, out, err = satchel(
        "publish", a_skill(tmp_path / "src", "frozen"), oci_registry.ref("team/frozen", "v2"),
        "--sign", "--identity-token", other, "--fulcio-url", services.url, "--rekor-url",
        services.url, "--json", *trust, where=False,
    )  # fmt: skip
    again = json.loads(out)
    assert again["digest"] == done["digest"]  # the same tree publishes to the same digest
    tag = done["digest"].replace(":", "-")
    index = raw_get(oci_registry, f"team/frozen/manifests/{tag}").json()
    index["manifests"] = [
        r for r in index["manifests"] if r["digest"] == again["signature"]["referrer"]
    ]
    with client(oci_registry, "team/frozen") as registry:
        registry.push_manifest(tag, index["mediaType"], json.dumps(index).encode())
    code, out, _ = satchel("install", "--frozen", *trust, "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert error["code"] == "install.signature.changed"
    assert "signed by mallory@example.com" in error["message"]


def test_frozen_install_takes_the_locked_signers_signature_wherever_it_is_listed(
    satchel, oci_registry, services, world, project, tmp_path
):
    ref = oci_registry.ref("team/both")
    done = publish(satchel, a_skill(tmp_path / "src", "both"), ref, *keyless(services, world))
    trust = ["--trust-root", str(world.trusted_root_path)]
    assert install(satchel, ref, "--signer", SIGNER, *trust)[0] == 0
    other = services.token("mallory@example.com")
    code, out, err = satchel(
        "publish", a_skill(tmp_path / "src", "both"), oci_registry.ref("team/both", "v2"),
        "--sign", "--identity-token", other, "--fulcio-url", services.url, "--rekor-url",
        services.url, "--json", *trust, where=False,
    )  # fmt: skip
    again = json.loads(out)
    tag = done["digest"].replace(":", "-")
    index = raw_get(oci_registry, f"team/both/manifests/{tag}").json()
    assert len(index["manifests"]) == 2
    index["manifests"].sort(key=lambda r: r["digest"] != again["signature"]["referrer"])
    with client(oci_registry, "team/both") as registry:  # someone else's listed first
        registry.push_manifest(tag, index["mediaType"], json.dumps(index).encode())
    shutil.rmtree(project / ".satchel/skills/both")
    code, out, err = satchel("install", "--frozen", *trust, "--json")
    assert code == 0, err + out
    entry = json.loads((project / ".satchel/skills.lock").read_text())["entries"][0]
    assert entry["signature"]["identity"] == SIGNER


def test_frozen_install_of_a_key_signed_artifact_needs_the_key(
    satchel, oci_registry, project, tmp_path
):
    private, public = a_key(tmp_path, "frozen")
    ref = oci_registry.ref("team/frozen-key")
    publish(satchel, a_skill(tmp_path / "src", "frozenkey"), ref, "--key", str(private))
    assert install(satchel, ref, "--key", str(public))[0] == 0
    code, out, _ = satchel("install", "--frozen", "--json")
    assert (code, json.loads(out)["error"]["code"]) == (1, "install.signature.missing")
    code, out, err = satchel("install", "--frozen", "--key", public, "--json")
    assert code == 0, err + out


def test_verify_keeps_an_oci_signature_as_installed(
    satchel, oci_registry, services, world, project, tmp_path
):
    """The signature lives in the registry: verify checks the tree offline and does not
    report a missing bundle for it."""
    ref = oci_registry.ref("team/verified")
    publish(satchel, a_skill(tmp_path / "src", "verified"), ref, *keyless(services, world))
    trust = ["--trust-root", str(world.trusted_root_path)]
    assert install(satchel, ref, "--signer", SIGNER, *trust)[0] == 0
    code, out, err = satchel("verify", *trust, "--json")
    assert code == 0, err + out


def test_update_takes_a_new_version_only_from_the_locked_signer(
    satchel, oci_registry, services, world, project, tmp_path, monkeypatch
):
    monkeypatch.setenv("SATCHEL_SIGSTORE_TRUST_ROOT", str(world.trusted_root_path))
    ref = oci_registry.ref("team/updated")
    publish(satchel, a_skill(tmp_path / "v1", "updated"), ref, *keyless(services, world))
    assert install(satchel, ref, "--signer", SIGNER)[0] == 0

    second = publish(
        satchel, a_skill(tmp_path / "v2", "updated", "Two.\n"), ref, *keyless(services, world)
    )
    code, out, err = satchel("update", "--json")
    assert code == 0, err + out
    entry = json.loads((project / ".satchel/skills.lock").read_text())["entries"][0]
    assert entry["resolved"] == second["digest"]
    assert (entry["signature"]["identity"], entry["signature"]["digest"]) == (
        SIGNER, second["digest"],
    )  # fmt: skip

    third = publish(
        satchel, a_skill(tmp_path / "v3", "updated", "Three.\n"), ref,
        *keyless(services, world, "mallory@example.com"),
    )  # fmt: skip
    code, out, _ = satchel("update", "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert error["code"] == "install.signature.changed"
    assert "mallory@example.com" in error["message"]
    assert "Two." in (project / ".satchel/skills/updated/SKILL.md").read_text()
    assert third["digest"] not in (project / ".satchel/skills.lock").read_text()


# --- a registry with the referrers API --------------------------------------------------

_REFERRERS = re.compile(r"/v2/(.+)/referrers/(sha256:[0-9a-f]{64})")


@pytest.fixture
def referrers_api(oci_registry: Running) -> Iterator[tuple[str, list[str]]]:
    """The registry behind a front on 127.0.0.1 that adds what docker-registry 2.8
    lacks, as distribution-spec v1.1 says: a manifest put with a `subject` is answered
    with ``OCI-Subject`` and listed by ``GET /v2/<name>/referrers/<digest>`` (filtered
    by ``artifactType``). Everything else goes to the registry unchanged. Yields the
    front's host and the referrers requests it answered."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from threading import Thread

    listed: dict[str, list[dict[str, Any]]] = {}
    asked: list[str] = []

    class Front(BaseHTTPRequestHandler):
        def _relay(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(size) if size else b""
            found = _REFERRERS.fullmatch(self.path.split("?", 1)[0])
            if self.command == "GET" and found:
                asked.append(self.path)
                wanted = httpx.URL(self.path).params.get("artifactType")
                rows = [r for r in listed.get(found[2], []) if wanted in (None, r["artifactType"])]
                index = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
                         "manifests": rows}  # fmt: skip
                return self._answer(
                    200, {"Content-Type": index["mediaType"]}, json.dumps(index).encode()
                )
            headers = {k: v for k, v in self.headers.items() if k.lower() != "content-length"}
            answer = httpx.request(self.command, f"http://{oci_registry.host}{self.path}",
                                   headers=headers, content=body)  # fmt: skip
            extra = {}
            if self.command == "PUT" and "/manifests/" in self.path and answer.status_code == 201:
                doc = json.loads(body)
                if isinstance(doc.get("subject"), dict):
                    subject = doc["subject"]["digest"]
                    listed.setdefault(subject, []).append({
                        "mediaType": doc["mediaType"], "digest": digest_of(body),
                        "size": len(body), "artifactType": doc.get("artifactType"),
                        "annotations": doc.get("annotations", {}),
                    })  # fmt: skip
                    extra["OCI-Subject"] = subject
            passed = ("content-type", "docker-content-digest", "location")
            kept = {k: v for k, v in answer.headers.items() if k.lower() in passed}
            self._answer(answer.status_code, {**kept, **extra}, answer.content)

        def _answer(self, status: int, headers: dict[str, str], body: bytes) -> None:
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        do_GET = do_HEAD = do_PUT = do_POST = do_PATCH = _relay

        def log_message(self, *args: object) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Front)
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}", asked
    finally:
        server.shutdown()
        server.server_close()


def test_a_registry_with_the_referrers_api_lists_the_signature(
    satchel, oci_registry, referrers_api, services, world, project, tmp_path
):
    """It says it indexed the referrer (OCI-Subject), so no referrers tag is written;
    install finds the signature through the referrers API alone."""
    front, asked = referrers_api
    ref = f"oci://{front}/team/api:v1"
    done = publish(satchel, a_skill(tmp_path / "src", "api"), ref, *keyless(services, world))
    tag = done["digest"].replace(":", "-")
    assert raw_get(oci_registry, f"team/api/manifests/{tag}").status_code == 404
    code, result = install(
        satchel, ref, "--signer", SIGNER, "--trust-root", str(world.trusted_root_path)
    )
    assert code == 0, result
    assert result["installed"][0]["signature"]["identity"] == SIGNER
    assert asked == [
        f"/v2/team/api/referrers/{done['digest']}"
        "?artifactType=application%2Fvnd.dev.sigstore.bundle.v0.3%2Bjson"
    ]


def crowd(
    oci_registry: Running, world: World, repo: str, done: dict[str, Any], typed: bool
) -> None:
    """List 40 rows that do not say what they are (each one a manifest of text) before
    the one signature attached, which says it is a bundle when `typed`."""
    with client(oci_registry, repo) as registry:
        junk = registry.push_manifest("junk", OCI_MANIFEST, json.dumps({
            "schemaVersion": 2, "mediaType": OCI_MANIFEST, "artifactType": "text/plain",
            "config": {"mediaType": EMPTY, "digest": registry.push_blob(b"{}"), "size": 2},
            "layers": [],
        }).encode())  # fmt: skip
        rows = [{"mediaType": OCI_MANIFEST, "digest": junk, "size": 1}] * 40
        bundle = world.sign_digest(done["digest"].split(":", 1)[1]).encode()
        size = len(raw_get(oci_registry, f"{repo}/manifests/{done['digest']}").content)
        attach(registry, done["digest"], OCI_MANIFEST, size, bundle, "2026-01-05T12:00:00Z")
        tag = done["digest"].replace(":", "-")
        index = raw_get(oci_registry, f"{repo}/manifests/{tag}").json()
        listed = index["manifests"]
        if not typed:
            listed = [{k: v for k, v in r.items() if k != "artifactType"} for r in listed]
        index["manifests"] = rows + listed
        registry.push_manifest(tag, index["mediaType"], json.dumps(index).encode())


def test_rows_that_do_not_say_what_they_are_do_not_crowd_out_a_bundle(
    satchel, oci_registry, world, project, tmp_path
):
    ref = oci_registry.ref("team/crowded-typed")
    done = publish(satchel, a_skill(tmp_path / "src", "crowdedtyped"), ref)
    crowd(oci_registry, world, "team/crowded-typed", done, typed=True)
    trust = ["--trust-root", str(world.trusted_root_path)]
    code, result = install(satchel, ref, "--signer", SIGNER, *trust)
    assert code == 0, result
    assert result["installed"][0]["signature"]["identity"] == SIGNER


def test_only_so_many_referrers_are_read(satchel, oci_registry, world, project, tmp_path):
    """A referrers index of many unusable rows costs at most MAX_FOUND manifest reads:
    the signature listed after them (and no more typed than they) is not reached, and
    the artifact is refused."""
    ref = oci_registry.ref("team/crowded")
    done = publish(satchel, a_skill(tmp_path / "src", "crowded"), ref)
    crowd(oci_registry, world, "team/crowded", done, typed=False)
    trust = ["--trust-root", str(world.trusted_root_path)]
    code, result = install(satchel, ref, "--signer", SIGNER, *trust)
    assert (code, result["error"]["code"]) == (1, "install.signature.missing")
    nothing_written(project)


def test_install_with_a_key_human_output(satchel, oci_registry, project, tmp_path):
    private, public = a_key(tmp_path, "shown")
    ref = oci_registry.ref("team/key-shown")
    publish(satchel, a_skill(tmp_path / "src", "keyshown"), ref, "--key", str(private))
    code, out, err = satchel("install", ref, "--key", public)
    assert code == 0, err

    def clean(text: str) -> str:
        text = text.replace(oci_registry.host, "REGISTRY").replace(key_name(public), "KEY")
        text = text.replace(str(project), "PROJECT")
        return re.sub(r"sha256:[0-9a-f]{7,64}", "sha256:<digest>", text)

    check_golden("install/install_oci_key_signed.txt", out, clean=clean)


def test_key_is_for_oci_sources_only(satchel, project, tmp_path):
    _, public = a_key(tmp_path, "misplaced")
    skill = a_skill(tmp_path / "src", "local")
    code, _out, err = satchel("install", skill, "--key", public)
    assert code == 2
    assert "--key checks the signature attached to an oci:// source" in err
    nothing_written(project)


def test_the_signature_is_checked_before_any_layer_is_read(
    satchel, oci_registry, world, project, tmp_path
):
    """The layer is corrupt in the registry's storage: with --signer the refusal is the
    missing signature, found before the layer would have been read."""
    ref = oci_registry.ref("team/corrupt")
    done = publish(satchel, a_skill(tmp_path / "src", "corrupt"), ref)
    manifest = raw_get(oci_registry, f"team/corrupt/manifests/{done['digest']}").json()
    oci_registry.blob_file(manifest["layers"][0]["digest"]).write_bytes(b"not the layer")
    code, result = install(satchel, ref)
    assert (code, result["error"]["code"]) == (1, "install.integrity")
    code, result = install(
        satchel, ref, "--signer", SIGNER, "--trust-root", str(world.trusted_root_path)
    )
    assert (code, result["error"]["code"]) == (1, "install.signature.missing")
    nothing_written(project)


def test_update_of_a_key_signed_artifact_needs_the_key(satchel, oci_registry, project, tmp_path):
    private, public = a_key(tmp_path, "update")
    ref = oci_registry.ref("team/key-update")
    publish(satchel, a_skill(tmp_path / "v1", "keyupdate"), ref, "--key", str(private))
    assert install(satchel, ref, "--key", str(public))[0] == 0
    second = publish(
        satchel, a_skill(tmp_path / "v2", "keyupdate", "Two.\n"), ref, "--key", str(private)
    )
    code, out, _ = satchel("update", "--json")
    assert (code, json.loads(out)["error"]["code"]) == (1, "install.signature.missing")
    code, out, err = satchel("update", "--key", public, "--json")
    assert code == 0, err + out
    entry = json.loads((project / ".satchel/skills.lock").read_text())["entries"][0]
    assert (entry["resolved"], entry["signature"]["identity"]) == (
        second["digest"], key_name(public),
    )  # fmt: skip

"""Credentials for OCI registries, from Docker's config: Basic auth against a real
registry behind htpasswd (``auths``, ``credHelpers``, ``credsStore`` with a real
helper script), refusals that never show the secret, and the Bearer token challenge
(Basic credential or identity token) against a stand-in served on 127.0.0.1, as a
token service cannot be run here."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from satchel.install._oci import OCI_MANIFEST, digest_of
from satchel.install._oci_layout import EMPTY, TITLE
from tests.support import skill_md, write_tree

from .registry import PASSWORD, USER, basic_auth, credential_helper, docker_config
from .support import Request, Server


def a_skill(root: Path, name: str) -> Path:
    return write_tree(root / name, {"SKILL.md": skill_md(name, f"{name} things.")})


def run(satchel, *args: str | Path) -> tuple[int, dict[str, object], str]:
    code, out, err = satchel(*args, "--json", where=args[0] != "publish")
    return code, json.loads(out), out + err


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Write a Docker config.json in a temporary DOCKER_CONFIG."""

    def use(doc: dict[str, object]) -> None:
        for name, value in docker_config(tmp_path / "docker", doc).items():
            monkeypatch.setenv(name, value)

    use({})
    return use


@pytest.fixture
def helper_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "bin"
    where.mkdir()
    monkeypatch.setenv("PATH", f"{where}{os.pathsep}{os.environ['PATH']}")
    return where


def test_basic_auth_from_docker_config_publishes_and_installs(
    satchel, oci_auth_registry, config_dir, project, tmp_path
):
    config_dir(basic_auth(oci_auth_registry))
    ref = oci_auth_registry.ref("team/basic")
    code, pushed, _ = run(satchel, "publish", a_skill(tmp_path / "src", "basic"), ref)
    assert code == 0
    code, done, _ = run(satchel, "install", ref)
    assert code == 0
    assert done["installed"][0]["resolved"] == pushed["digest"]
    assert (project / ".satchel/skills/basic/SKILL.md").is_file()


def test_no_credentials_is_refused_with_its_code(satchel, oci_auth_registry, config_dir):
    ref = oci_auth_registry.ref("team/none")
    code, doc, _ = run(satchel, "install", ref)
    assert code == 1
    assert doc["error"]["code"] == "install.oci.auth"
    assert doc["error"]["message"] == (
        f"GET http://{oci_auth_registry.host}/v2/team/none/manifests/v1: 401 Unauthorized: "
        "the registry asks for credentials; none were found"
    )


def test_a_wrong_password_is_refused_and_never_shown(satchel, oci_auth_registry, config_dir):
    wrong = "not-the-password-42"
    pair = base64.b64encode(f"{USER}:{wrong}".encode()).decode()
    config_dir({"auths": {f"https://{oci_auth_registry.host}/v1/": {"auth": pair}}})
    code, doc, text = run(satchel, "install", oci_auth_registry.ref("team/wrong"))
    assert code == 1
    assert doc["error"]["code"] == "install.oci.auth"
    assert doc["error"]["message"].endswith(
        "401 Unauthorized: the registry refused the credentials"
    )
    assert wrong not in text and pair not in text


@pytest.mark.parametrize("field", ["credHelpers", "credsStore"])
def test_a_credential_helper_gives_the_credential(
    satchel, oci_auth_registry, config_dir, helper_bin, project, tmp_path, field
):
    credential_helper(helper_bin, "test", {"ServerURL": "x", "Username": USER, "Secret": PASSWORD})
    host = oci_auth_registry.host
    config_dir(
        {"credHelpers": {host: "test"}} if field == "credHelpers" else {"credsStore": "test"}
    )
    ref = oci_auth_registry.ref(f"team/helper-{field.lower()}")
    code, _, text = run(satchel, "publish", a_skill(tmp_path / "src", "helped"), ref)
    assert code == 0, text
    code, _, text = run(satchel, "install", ref)
    assert code == 0, text
    assert set((helper_bin / "asked.txt").read_text().splitlines()) == {host}
    assert PASSWORD not in text


def test_a_helper_that_has_no_credential_is_refused(
    satchel, oci_auth_registry, config_dir, helper_bin
):
    credential_helper(helper_bin, "test", None)
    config_dir({"credHelpers": {oci_auth_registry.host: "test"}})
    code, doc, _ = run(satchel, "install", oci_auth_registry.ref("team/x"))
    assert code == 1
    assert doc["error"] == {
        "code": "install.oci.auth",
        "message": f"docker-credential-test get {oci_auth_registry.host} exited 1: "
        "credentials not found in native keychain",
    } | {k: v for k, v in doc["error"].items() if k not in ("code", "message")}


# --- Bearer, against a stand-in on 127.0.0.1 -------------------------------------------


def _header(request: Request, name: str) -> str:
    return next((v for k, v in request.headers.items() if k.lower() == name.lower()), "")


def _bearer_registry(server: Server, token_ok) -> str:
    """A registry at /v2/t/b that asks for a Bearer token from /token; the skill's
    manifest tag is v1. Returns the manifest's digest."""
    skill = skill_md("bear", "Bear things.").encode()
    manifest = json.dumps({
        "schemaVersion": 2, "mediaType": OCI_MANIFEST,
        "config": {"mediaType": EMPTY, "digest": digest_of(b"{}"), "size": 2},
        "layers": [{"mediaType": "text/markdown", "digest": digest_of(skill), "size": len(skill),
                    "annotations": {TITLE: "bear/SKILL.md"}}],
    }).encode()  # fmt: skip
    challenge = f'Bearer realm="{server.url}/token",service="stand-in",scope="repository:t/b:pull"'

    def guarded(body: bytes, media: str):
        def handle(request: Request):
            if _header(request, "Authorization") != "Bearer tok-123":
                return 401, {"WWW-Authenticate": challenge}, b"{}"
            return 200, {"Content-Type": media}, body

        return handle

    def token(request: Request):
        if not token_ok(request):
            return 401, {}, b"{}"
        return 200, {"Content-Type": "application/json"}, b'{"token": "tok-123"}'

    server.routes["/v2/t/b/manifests/v1"] = guarded(manifest, OCI_MANIFEST)
    server.routes[f"/v2/t/b/blobs/{digest_of(skill)}"] = guarded(skill, "text/markdown")
    server.routes["/token"] = token
    return digest_of(manifest)


def test_a_bearer_challenge_trades_basic_credentials_for_a_token(
    satchel, server, config_dir, project
):
    host = server.url.removeprefix("http://")
    config_dir({"auths": {host: {"auth": base64.b64encode(b"bob:hunter2").decode()}}})
    basic = "Basic " + base64.b64encode(b"bob:hunter2").decode()
    digest = _bearer_registry(server, lambda r: _header(r, "Authorization") == basic)
    code, done, text = run(satchel, "install", f"oci://{host}/t/b:v1")
    assert code == 0, text
    assert done["installed"][0]["resolved"] == digest
    [asked] = [r for r in server.seen if r.path.startswith("/token")]
    assert asked.method == "GET"
    assert parse_qs(urlsplit(asked.path).query) == {
        "service": ["stand-in"],
        "scope": ["repository:t/b:pull"],
    }
    assert (project / ".satchel/skills/bear/SKILL.md").is_file()


def test_an_identity_token_is_sent_as_a_refresh_token(satchel, server, config_dir, project):
    host = server.url.removeprefix("http://")
    config_dir({"auths": {host: {"identitytoken": "refresh-xyz"}}})
    digest = _bearer_registry(
        server, lambda r: parse_qs(r.body.decode()).get("refresh_token") == ["refresh-xyz"]
    )
    code, done, text = run(satchel, "install", f"oci://{host}/t/b:v1")
    assert code == 0, text
    assert done["installed"][0]["resolved"] == digest
    [asked] = [r for r in server.seen if r.path.startswith("/token")]
    assert asked.method == "POST"
    assert parse_qs(asked.body.decode()) == {
        "grant_type": ["refresh_token"],
        "client_id": ["satchel"],
        "refresh_token": ["refresh-xyz"],
        "service": ["stand-in"],
        "scope": ["repository:t/b:pull"],
    }


def test_a_refused_token_is_refused_with_its_code(satchel, server, config_dir):
    host = server.url.removeprefix("http://")
    _bearer_registry(server, lambda r: False)
    code, doc, _ = run(satchel, "install", f"oci://{host}/t/b:v1")
    assert code == 1
    assert (doc["error"]["code"], doc["error"]["message"]) == (
        "install.oci.auth",
        f"{host}'s token service refused anonymous access (401)",
    )

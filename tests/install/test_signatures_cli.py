"""`satchel install --signer/--issuer/--trust-root` and `satchel verify --trust-root`:
the CLI only parses and renders what the library decides (tests/install/
test_signatures.py); its output is checked against golden files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satchel.install import signing_manifest
from tests.sigstore_world import ISSUER, SIGNER, World
from tests.support import check_golden, skill_md, write_tree

from .support import state

pytest.importorskip("sigstore")
pytestmark = pytest.mark.usefixtures("only_loopback")


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "src", {"skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs.")})


def signed(world: World, source: Path, **who: str) -> Path:
    skill = source / "skills/pdf"
    (skill / "SKILL.md.sigstore.json").write_text(world.sign(signing_manifest(skill), **who))
    return skill


def test_install_with_a_signer_says_who_signed(satchel, world, source, tmp_path) -> None:
    signed(world, source)
    code, out, err = satchel(
        "install", source, "--signer", SIGNER, "--issuer", ISSUER,
        "--trust-root", world.trusted_root_path,
    )  # fmt: skip
    assert (code, err) == (0, "")
    check_golden("install/signed.txt", out, clean=lambda t: t.replace(str(tmp_path), "TMP"))


def test_install_by_another_signer_is_refused_on_stderr(
    satchel, world, source, project, tmp_path
) -> None:
    signed(world, source, identity="mallory@example.com")
    before = state(project)
    code, out, err = satchel(
        "install", source, "--signer", SIGNER, "--trust-root", world.trusted_root_path
    )
    assert (code, out) == (1, "")
    check_golden("install/signed_refused.txt", err, clean=lambda t: t.replace(str(tmp_path), "TMP"))
    assert state(project) == before


def test_install_refusal_as_json_carries_the_code(satchel, world, source, project) -> None:
    code, out, _ = satchel(
        "install", source, "--signer", SIGNER, "--trust-root", world.trusted_root_path, "--json"
    )
    assert code == 1
    assert json.loads(out)["error"]["code"] == "install.signature.missing"


def test_issuer_without_signer_is_a_usage_error(satchel, world, source) -> None:
    code, _out, err = satchel("install", source, "--issuer", ISSUER)
    assert code == 2
    assert "--issuer needs --signer: name who may sign" in err


def test_verify_reports_a_signature_that_no_longer_holds(satchel, world, source, project) -> None:
    signed(world, source)
    root = world.trusted_root_path
    assert satchel("install", source, "--signer", SIGNER, "--trust-root", root)[0] == 0
    code, out, _ = satchel("verify", "--trust-root", root, "--json")
    assert code == 0
    [row] = json.loads(out)["entries"]
    assert (row["status"], row["signature"]["identity"], row["signature"]["issuer"]) == (
        "ok",
        SIGNER,
        ISSUER,
    )
    other = World(project.parent / "other-world", name="other")
    code, out, _ = satchel("verify", "--trust-root", other.trusted_root_path, "--json")
    doc = json.loads(out)
    assert code == 1
    assert [e["status"] for e in doc["entries"]] == ["signature"]
    assert [d["code"] for d in doc["diagnostics"]] == ["install.signature.invalid"]


def test_update_shows_a_bundle_that_does_not_verify(satchel, world, source, tmp_path) -> None:
    root = world.trusted_root_path
    assert satchel("install", source, "--trust-root", root)[0] == 0
    skill = source / "skills/pdf"
    (skill / "SKILL.md").write_text(skill_md("pdf", "Reads PDFs, and more."))
    other = World(tmp_path / "other", name="other")
    (skill / "SKILL.md.sigstore.json").write_text(other.sign(signing_manifest(skill)))
    code, out, _ = satchel("update", "--trust-root", root, "--json")
    assert code == 0
    codes = [d["code"] for d in json.loads(out)["diagnostics"]]
    assert "install.signature.unverified" in codes
    code, out, _ = satchel("update", "--trust-root", root)
    assert code == 0
    assert "install.signature.unverified" in out

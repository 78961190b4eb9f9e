"""``require_signed`` at install: the policy's rules name whom a signature must be by
when the user names nobody, and narrow whom the user may name; an unsigned or foreign
signature is refused before anything is written. Signed by the in-process world of
tests/sigstore_world.py: nothing reaches beyond 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.install import (
    InstallError,
    Settings,
    Signers,
    install_from_spec,
    install_frozen,
    signing_manifest,
)
from tests.install.support import state
from tests.policy.support import system_policy
from tests.sigstore_world import ISSUER, SIGNER, World, loopback_only
from tests.support import skill_md, write_tree

pytest.importorskip("sigstore")


@pytest.fixture(autouse=True)
def no_remote(monkeypatch: pytest.MonkeyPatch) -> None:
    loopback_only(monkeypatch)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return World(tmp_path_factory.mktemp("world"))


def signed_source(world: World, root: Path, identity: str = SIGNER) -> Path:
    source = write_tree(root, {"skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs.")})
    skill = source / "skills" / "pdf"
    bundle = world.sign(signing_manifest(skill), identity=identity, issuer=ISSUER)
    (skill / "SKILL.md.sigstore.json").write_text(bundle)
    return source


def rule(identity: str) -> str:
    return f'[[require_signed]]\nsource = "file:*"\nidentities = ["{identity}"]\n'


def test_without_signer_the_policys_identities_are_required(layout, tmp_path, monkeypatch, world):
    settings = Settings(sigstore_trust_root=world.trusted_root_path)
    system_policy(tmp_path, monkeypatch, rule("*@example.com"))
    done = install_from_spec(
        str(signed_source(world, tmp_path / "a")), layout=layout, environ={}, settings=settings
    )
    [entry] = [i.entry for i in done.installed]
    assert entry.signature is not None and entry.signature.identity == SIGNER


def test_a_foreign_signer_or_none_is_refused_and_nothing_written(
    layout, tmp_path, monkeypatch, world
):
    settings = Settings(sigstore_trust_root=world.trusted_root_path)
    path = system_policy(tmp_path, monkeypatch, rule("*@acme.com"))
    source = signed_source(world, tmp_path / "b")
    before = state(layout.project)
    with pytest.raises(InstallError) as e:
        install_from_spec(str(source), layout=layout, environ={}, settings=settings)
    assert e.value.code == "install.signature.identity"  # no bundle by an allowed signer
    # the user may not name a signer the policy does not allow
    with pytest.raises(InstallError) as e:
        install_from_spec(str(source), layout=layout, environ={}, settings=settings,
                          signers=Signers((SIGNER,)))  # fmt: skip
    assert (e.value.code, e.value.diagnostic.message) == (
        "policy.denied",
        f"the signer {SIGNER!r} named for installing {str(source)!r} is refused by policy key "
        f"`require_signed` in {path}",
    )
    # a pattern the user names is judged by the signature it verifies
    with pytest.raises(InstallError) as e:
        install_from_spec(str(source), layout=layout, environ={}, settings=settings,
                          signers=Signers(("*",)))  # fmt: skip
    assert (e.value.code, e.value.diagnostic.message) == (
        "policy.denied",
        f"installing skill 'pdf' from {str(source)!r} signed by {SIGNER!r} (issuer "
        f"{ISSUER!r}) is refused by policy key `require_signed` in {path}",
    )
    assert state(layout.project) == before


def test_a_frozen_install_of_an_unsigned_entry_is_refused_before_fetching(
    layout, tmp_path, monkeypatch, world
):
    source = write_tree(tmp_path / "c", {"skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs.")})
    install_from_spec(str(source), layout=layout, environ={})
    path = system_policy(tmp_path, monkeypatch, rule("*@example.com"))
    with pytest.raises(InstallError) as e:
        install_frozen(layout=layout, environ={})
    assert (e.value.code, e.value.diagnostic.message) == (
        "policy.denied",
        f"installing skill 'pdf' from {str(source)!r} unsigned is refused by policy key "
        f"`require_signed` in {path}",
    )

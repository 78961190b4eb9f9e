"""What the installer asks of ``require_signed``: whom the user may name as the signer
(``--signer``), and whether what was verified is signed by someone every rule allows."""

from __future__ import annotations

from dataclasses import replace

import pytest

from satchel.core.errors import InstallError
from satchel.install import parse_source
from satchel.install._lock import LockEntry, Signature
from satchel.install._policy import allow_named_signers, allow_signed
from tests.policy.support import system_policy

ACTIONS = "https://token.actions.githubusercontent.com"
RELEASE = "https://github.com/acme/tools/.github/workflows/release.yml@refs/tags/*"
POLICY = f"""\
[[require_signed]]
source = "oci://ghcr.io/acme/*"
identities = ["{RELEASE}", "release@acme.com"]
issuers = ["{ACTIONS}", "https://accounts.google.com"]
"""
SPEC = "oci://ghcr.io/acme/tools:v1"


def entry(signature: Signature | None) -> LockEntry:
    return LockEntry("pdf", "skill", "satchel", SPEC, "v1", "sha256:" + "a" * 64, None,
                     "pdf", "sha256:" + "b" * 64, signature=signature)  # fmt: skip


def refusal(e: pytest.ExceptionInfo[InstallError]) -> tuple[str, str]:
    return e.value.diagnostic.code, e.value.diagnostic.message


def test_the_user_may_name_only_a_signer_the_policy_allows(layout, tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, POLICY)
    src = parse_source(SPEC)
    allow_named_signers(src, layout, ["release@acme.com", "*@acme.com"])  # a pattern: later
    with pytest.raises(InstallError) as e:
        allow_named_signers(src, layout, ["release@acme.com", "dev@example.com"])
    assert refusal(e) == (
        "policy.denied",
        f"the signer 'dev@example.com' named for installing {SPEC!r} is refused by policy key "
        f"`require_signed` in {path}",
    )
    allow_named_signers(parse_source("oci://ghcr.io/other/tools:v1"), layout, ["dev@x.org"])


def test_what_was_verified_must_be_signed_by_an_allowed_signer(layout, tmp_path, monkeypatch):
    path = system_policy(tmp_path, monkeypatch, POLICY)
    digest = "sha256:" + "c" * 64
    allow_signed([entry(Signature(RELEASE.replace("*", "v1"), ACTIONS, digest, "cosign"))], layout)
    with pytest.raises(InstallError) as e:
        allow_signed([entry(None)], layout)
    assert refusal(e) == (
        "policy.denied",
        f"installing skill 'pdf' from {SPEC!r} unsigned is refused by policy key "
        f"`require_signed` in {path}",
    )
    wrong = Signature("release@acme.com", "https://issuer.example.com", digest, "bundle")
    with pytest.raises(InstallError) as e:
        allow_signed([entry(wrong)], layout)
    assert refusal(e) == (
        "policy.denied",
        f"installing skill 'pdf' from {SPEC!r} signed by 'release@acme.com' (issuer "
        f"'https://issuer.example.com') is refused by policy key `require_signed` in {path}",
    )
    allow_signed([replace(entry(None), source="acme/tools")], layout)  # no rule names it

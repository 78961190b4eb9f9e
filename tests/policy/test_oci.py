"""``require_digest`` and ``require_signed`` for an OCI artifact, from a real registry
(Debian's docker-registry) on 127.0.0.1: a tag resolves to a manifest digest, which is
a published digest; and an unsigned artifact is what `satchel policy check` reports."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from satchel.cli import main
from satchel.install import InstallError, install_from_spec
from tests.install.registry import Registry, start
from tests.policy.support import system_policy
from tests.support import put, skill_md, write_tree


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    yield from start(tmp_path_factory.mktemp("registry"), auth=False)


@pytest.fixture(autouse=True)
def no_docker_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "docker-empty"
    empty.mkdir()
    monkeypatch.setenv("DOCKER_CONFIG", str(empty))


def test_an_oci_tag_is_pinned_by_its_published_digest_yet_unsigned(
    layout, tmp_path, monkeypatch, capsys, registry
):
    skill = write_tree(tmp_path / "src" / "pdf", {"SKILL.md": skill_md("pdf", "Reads PDFs.")})
    ref = registry.ref("acme/pdf", "v1")
    assert main(["publish", str(skill), ref, "--json"]) == 0
    digest = json.loads(capsys.readouterr().out)["digest"]
    digests = 'require_digest = ["oci://127.0.0.1:*/acme/*"]\n'
    signed = (
        '[[require_signed]]\nsource = "oci://127.0.0.1:*/acme/*"\nidentities = ["*@acme.com"]\n'
    )
    path = system_policy(tmp_path, monkeypatch, digests + signed)
    with pytest.raises(InstallError) as e:  # unsigned: refused at install
        install_from_spec(ref, layout=layout, environ={})
    assert e.value.code == "install.signature.missing"
    put(path, digests)
    done = install_from_spec(ref, layout=layout, environ={})
    assert [i.entry.resolved for i in done.installed] == [digest]
    put(path, digests + signed)  # a rule added after the install: policy check says so
    where = ["--project", str(layout.project), "--home", str(layout.home), "--json"]
    assert main(["policy", "check", *where]) == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["code"], d["message"]) for d in found] == [
        (
            "policy.installed.unsigned",
            f"skill 'pdf' installed in the project scope from {ref!r} is not signed, which "
            f"policy key `require_signed` in {path} requires",
        )
    ]

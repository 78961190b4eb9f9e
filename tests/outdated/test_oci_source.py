"""A skill satchel installed from an OCI registry (the real distribution registry,
on 127.0.0.1): the tag is pushed again with a changed skill, and `outdated` fetches the
tag's manifest now, reports the changed file, and names the digest it was installed
at; offline it names the reference it did not check."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from satchel import hosts
from satchel.core.layout import Layout
from satchel.install import install_from_spec, publish
from satchel.reports.outdated import Report, outdated
from tests.install.registry import BINARY, Registry, start
from tests.support.tree import skill_md, write_tree


@pytest.fixture(scope="module")
def oci(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    if not os.access(BINARY, os.X_OK):
        pytest.skip(f"{BINARY} is not installed (scripts/tools installs it)")
    yield from start(tmp_path_factory.mktemp("registry"), auth=False)


def _check(layout: Layout, environ: dict[str, str], *, offline: bool) -> tuple[Report, ...]:
    return outdated(
        layout=layout, hosts=[hosts.get("satchel")], offline=offline, environ=environ
    ).reports


def test_an_oci_tag_pushed_again_with_a_changed_skill(oci, tmp_path, home, project):
    layout = Layout.default(project, home=home, project=project, env={})
    ref = oci.ref("team/pdf", "v1")
    environ = {"PATH": os.environ["PATH"]}
    first = write_tree(tmp_path / "v1/pdf", {"SKILL.md": skill_md("pdf", "PDFs.")})
    pushed = publish(first, ref, environ=environ)
    install_from_spec(ref, scope="user", layout=layout, environ=environ)
    second = write_tree(tmp_path / "v2/pdf", {"SKILL.md": skill_md("pdf", "PDFs, and forms.")})
    publish(second, ref, environ=environ)
    (online,) = _check(layout, environ, offline=False)
    (offline,) = _check(layout, environ, offline=True)
    assert (online.state, online.network, online.source) == ("outdated", True, ref)
    assert online.install.version == pushed.digest
    assert [(f.path, f.change) for f in online.files] == [("SKILL.md", "changed")]
    (d,) = offline.diagnostics
    assert (offline.state, d.code) == ("not-checked", "outdated.source.offline")
    assert d.message == (
        f"satchel's skill 'pdf' was not checked: its source {ref} needs the network "
        "(run without --offline)"
    )

"""``require_digest`` at install time, and `satchel policy check` on what is installed:
real installs from a folder, a git repository, an archive and a site's skills index
on 127.0.0.1, refused before anything is written when the source publishes no digest."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from satchel.cli import main
from satchel.core.errors import InstallError
from satchel.install import install_from_spec, install_frozen
from tests.install.support import Entry, Server, bare, git_repo, make_tar, serve, state
from tests.policy.support import system_policy
from tests.support import check_golden, skill_md, write_tree

GOLDEN = Path(__file__).with_name("golden")
SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
SKILLS = {"skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs.")}
ACTIONS = "https://token.actions.githubusercontent.com"


@pytest.fixture(scope="module")
def site() -> Iterator[Server]:
    yield from serve(Server())


def refusal(e: pytest.ExceptionInfo[InstallError]) -> tuple[str, str]:
    return e.value.diagnostic.code, e.value.diagnostic.message


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def publish_archive(site: Server, tmp_path: Path) -> tuple[str, str]:
    """A tarball of one skill served at ``/pdf.tar.gz``: its URL and sha256."""
    body = make_tar(tmp_path / "pdf.tar.gz", [Entry("pdf/SKILL.md", skill_md("pdf").encode())])
    data = body.read_bytes()
    site.bytes("/pdf.tar.gz", data)
    return f"{site.url}/pdf.tar.gz", sha256(data)


def publish_index(site: Server) -> str:
    """A skills index listing one skill with its digest; the site's URL."""
    body = skill_md("notes", "Takes notes.").encode()
    site.bytes("/.well-known/agent-skills/notes/SKILL.md", body)
    entry = {"name": "notes", "type": "skill-md", "description": "Takes notes.",
             "url": "notes/SKILL.md", "digest": "sha256:" + sha256(body)}  # fmt: skip
    site.json("/.well-known/agent-skills/index.json", {"$schema": SCHEMA, "skills": [entry]})
    return site.url


def test_a_folder_is_refused_before_anything_is_written(layout, tmp_path, monkeypatch):
    source = write_tree(tmp_path / "src", SKILLS)
    path = system_policy(tmp_path, monkeypatch, "require_digest = true\n")
    before = state(layout.project)
    with pytest.raises(InstallError) as e:
        install_from_spec(str(source), layout=layout, environ={})
    assert refusal(e) == (
        "policy.denied",
        f"installing {str(source)!r} without a published digest is refused by policy key "
        f"`require_digest` in {path}",
    )
    assert state(layout.project) == before


def test_a_git_commit_is_not_a_published_digest(layout, tmp_path, monkeypatch):
    repo = git_repo(tmp_path / "work", SKILLS)
    url = f"file://{bare(repo, tmp_path / 'r.git')}"
    install_from_spec(url, layout=layout, environ={})
    path = system_policy(tmp_path, monkeypatch, 'require_digest = ["file:*"]\n')
    with pytest.raises(InstallError) as e:
        install_frozen(layout=layout, environ={})
    code, message = refusal(e)
    assert (code, message.endswith(f"`require_digest` in {path}")) == ("policy.denied", True)
    assert "without a published digest" in message


def test_an_archive_installs_only_with_its_sha256(layout, tmp_path, monkeypatch, site):
    url, digest = publish_archive(site, tmp_path)
    path = system_policy(tmp_path, monkeypatch, 'require_digest = ["archive:*"]\n')
    seen = len(site.seen)
    with pytest.raises(InstallError) as e:
        install_from_spec(f"archive:{url}", layout=layout, environ={})
    assert refusal(e) == (
        "policy.denied",
        f"installing 'archive:{url}' without a published digest is refused by policy key "
        f"`require_digest` in {path}",
    )
    assert len(site.seen) == seen  # refused before anything was fetched
    done = install_from_spec(f"archive:{url}#sha256={digest}", layout=layout, environ={})
    assert [i.entry.name for i in done.installed] == ["pdf"]


def test_a_skills_index_publishes_its_digests(layout, tmp_path, monkeypatch, site):
    url = publish_index(site)
    system_policy(tmp_path, monkeypatch, "require_digest = true\n")
    done = install_from_spec(url, layout=layout, environ={})
    assert [(i.entry.name, i.entry.resolved[:7]) for i in done.installed] == [("notes", "sha256:")]
    # and what it installed satisfies `satchel policy check`
    where = ["--project", str(layout.project), "--home", str(layout.home)]
    assert main(["policy", "check", *where, "--json"]) == 0


def sign(project: Path, name: str, identity: str, issuer: str) -> None:
    """Record in the project's lock that `name` was signed (as a verified install does)."""
    lock = project / ".satchel" / "skills.lock"
    doc = json.loads(lock.read_text())
    for entry in doc["entries"]:
        if entry["name"] == name:
            entry["signature"] = {"identity": identity, "issuer": issuer,
                                  "digest": "sha256:" + "d" * 64, "kind": "bundle"}  # fmt: skip
    lock.write_text(json.dumps(doc, indent=2))


def test_check_reports_installed_entries_the_policy_would_refuse(
    layout, tmp_path, monkeypatch, capsys, site
):
    url, digest = publish_archive(site, tmp_path)
    install_from_spec(f"archive:{url}#sha256={digest}", layout=layout, environ={})
    install_from_spec(
        str(write_tree(tmp_path / "more", {"s/memo/SKILL.md": skill_md("memo")})),
        layout=layout,
        environ={},
    )
    sign(layout.project, "memo", "dev@example.com", "https://accounts.example.com")
    path = system_policy(
        tmp_path,
        monkeypatch,
        'require_digest = ["file:*"]\n'
        '[[require_signed]]\nsource = "*"\nidentities = ["*@acme.com"]\n'
        f'issuers = ["{ACTIONS}"]\n',
    )
    where = ["--project", str(layout.project), "--home", str(layout.home)]
    assert main(["policy", "check", *where]) == 1
    out = capsys.readouterr().out
    replace = [(str(path), "<policy>"), (str(layout.project), "<project>"),
               (str(tmp_path), "<tmp>"), (url, "<url>"), (digest, "<sha256>")]  # fmt: skip

    def clean(text: str) -> str:
        for old, new in replace:
            text = text.replace(old, new)
        return text

    check_golden("check-installed.txt", out, GOLDEN, clean=clean)
    assert main(["policy", "check", *where, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    lock = str(layout.project / ".satchel" / "skills.lock")
    memo = f"skill 'memo' installed in the project scope from {str(tmp_path / 'more')!r}"
    assert [
        (d["code"], d["message"], d["path"])
        for d in doc["diagnostics"]
        if d["code"].startswith("policy.installed.")
    ] == [
        (
            "policy.installed.signer",
            f"{memo} was signed by 'dev@example.com' (issuer 'https://accounts.example.com'), "
            f"whom policy key `require_signed` in {path} does not allow",
            lock,
        ),
        (
            "policy.installed.digest",
            f"{memo} is not pinned by a published digest, which policy key `require_digest` in "
            f"{path} requires",
            lock,
        ),
        (
            "policy.installed.unsigned",
            f"skill 'pdf' installed in the project scope from 'archive:{url}#sha256={digest}' is "
            f"not signed, which policy key `require_signed` in {path} requires",
            lock,
        ),
    ]


def test_an_allowed_signer_and_a_published_digest_pass_the_check(
    layout, tmp_path, monkeypatch, capsys, site
):
    url, digest = publish_archive(site, tmp_path)
    install_from_spec(f"archive:{url}#sha256={digest}", layout=layout, environ={})
    sign(layout.project, "pdf", "release@acme.com", ACTIONS)
    system_policy(
        tmp_path,
        monkeypatch,
        "require_digest = true\n"
        '[[require_signed]]\nsource = "archive:*"\nidentities = ["*@acme.com"]\n',
    )
    where = ["--project", str(layout.project), "--home", str(layout.home)]
    assert main(["policy", "check", *where]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Nothing here is refused by the policy."

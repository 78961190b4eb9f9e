"""A site's skills index (the Agent Skills discovery draft 0.2.0) as a source: a stand-in
site on 127.0.0.1 publishes ``/.well-known/agent-skills/index.json``, and every rule a
client must follow is checked against it: the schema, the digests (checked before
anything is written), the archive layout, relative URLs, the renamed 0.1.0 path, and
bad input refused with a code and nothing written."""

from __future__ import annotations

import hashlib
import json
import os
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from satchel import hosts
from satchel.core.layout import Layout
from satchel.install import InstallError, Source, parse_source
from satchel.reports.outdated import outdated
from tests.support import check_golden, skill_md

from .support import Entry, Request, Server, make_tar, make_zip, serve, state

SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
INDEX = "/.well-known/agent-skills/index.json"
OLD_INDEX = "/.well-known/skills/index.json"


@pytest.fixture(scope="module")
def site() -> Iterator[Server]:
    """One stand-in site for the module; each test publishes its own routes."""
    yield from serve(Server())


@pytest.fixture(autouse=True)
def fresh(site: Server) -> None:
    site.routes.clear()
    site.seen.clear()


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def serve_file(site: Server, path: str, body: bytes, kind: str = "text/markdown") -> None:
    site.routes[path] = lambda _r: (200, {"Content-Type": kind}, body)


def publish_index(
    site: Server, skills: list[dict[str, Any]], *, path: str = INDEX, **top: Any
) -> None:
    doc = {"$schema": SCHEMA, **top, "skills": skills}
    serve_file(site, path, json.dumps(doc).encode(), "application/json")


def md_entry(site: Server, name: str, text: str, url: str | None = None) -> dict[str, Any]:
    """A ``skill-md`` entry, its SKILL.md served at `url` (resolved as the client does)."""
    url = url or f"/.well-known/agent-skills/{name}/SKILL.md"
    body = text.encode()
    serve_file(site, url if url.startswith("/") else f"/.well-known/agent-skills/{url}", body)
    return {"name": name, "type": "skill-md", "description": f"{name} skill.", "url": url,
            "digest": digest(body)}  # fmt: skip


def tar_gz(entries: list[Entry], where: Path) -> bytes:
    return make_tar(where, entries).read_bytes()


def scope(project: Path) -> dict[str, str]:
    return state(project / ".satchel")


def lock_rows(project: Path) -> dict[str, dict[str, Any]]:
    lock = json.loads((project / ".satchel" / "skills.lock").read_text())
    return {e["name"]: e for e in lock["entries"]}


# --- sources ---------------------------------------------------------------------


def test_a_site_its_index_url_and_the_well_known_form_parse_and_read_back():
    index = "https://example.com" + INDEX
    for text in ("https://example.com", "https://example.com/", index, f"well-known:{index}",
                 "well-known:https://example.com"):  # fmt: skip
        assert parse_source(text) == Source("wellknown", index)
    assert parse_source("https://Example.com#pdf-tools") == Source(
        "wellknown", index, skills=("pdf-tools",)
    )
    # the index's folder, with or without its slash, names its index
    assert parse_source("https://example.com/.well-known/agent-skills/").location == index
    old = "https://example.com" + OLD_INDEX
    assert parse_source(old) == Source("wellknown", old)
    assert parse_source("https://example.com/.well-known/skills").location == old
    assert parse_source(parse_source(old).spec()) == Source("wellknown", old)
    assert parse_source("http://127.0.0.1:8000").spec() == "http://127.0.0.1:8000" + INDEX
    # a path elsewhere on the site is still a git URL, as before
    assert parse_source("https://example.com/team/skills.git").kind == "git"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("http://example.com", "plain http:// is accepted only for a loopback host; use https://"),
        ("well-known:http://example.com#pdf", "plain http:// is accepted only for a loopback host"),
        ("https://example.com#Bad_Name", "'Bad_Name' is not a skill name"),
        ("https://example.com#a--b", "'a--b' is not a skill name"),
        ("https://example.com#", "'' is not a skill name"),
        ("well-known:https://example.com/docs", "a site's skills index is at " + INDEX),
        ("well-known:https://u:p@example.com", "a URL may not carry credentials"),
        ("https://example.com/?x=1", "a source URL has no query string"),
    ],
)
def test_a_site_source_that_breaks_a_rule_is_refused(text, why):
    with pytest.raises(InstallError) as e:
        parse_source(text)
    assert e.value.code == "install.source.invalid"
    assert why in e.value.diagnostic.message


# --- browse and install ------------------------------------------------------------


def test_browse_lists_the_index_without_fetching_an_artifact(satchel, site):
    publish_index(
        site,
        [md_entry(site, "code-review", skill_md("code-review", "Reviews code.")),
         md_entry(site, "git-workflow", skill_md("git-workflow", "Git conventions."))],
    )  # fmt: skip
    code, out, err = satchel("browse", site.url, "--json")
    assert code == 0, err
    listing = json.loads(out)
    assert listing["source"] == site.url + INDEX
    assert [(s["name"], s["description"], s["folder"], s["source"], s["ok"])
            for s in listing["skills"]] == [
        ("code-review", "code-review skill.", "code-review", site.url + INDEX, True),
        ("git-workflow", "git-workflow skill.", "git-workflow", site.url + INDEX, True),
    ]  # fmt: skip
    assert [r.path for r in site.seen] == [INDEX]  # the draft's level 1: the index only
    code, out, err = satchel("browse", site.url, "--refresh")
    assert code == 0, err
    check_golden("install/browse_wellknown.txt", out,
                 clean=lambda t: t.replace(site.url, "http://127.0.0.1:PORT"))  # fmt: skip


def test_install_one_skill_md_by_fragment_pins_index_url_and_digest(satchel, site, project):
    text = skill_md("code-review", "Reviews code.")
    publish_index(
        site,
        [md_entry(site, "code-review", text),
         md_entry(site, "git-workflow", skill_md("git-workflow", "Git conventions."))],
    )  # fmt: skip
    code, out, err = satchel("install", f"{site.url}#code-review", "--json")
    assert code == 0, err
    (installed,) = json.loads(out)["installed"]
    assert installed["source"] == site.url + INDEX
    assert (project / ".satchel/skills/code-review/SKILL.md").read_text() == text
    assert not (project / ".satchel/skills/git-workflow").exists()
    assert "/.well-known/agent-skills/git-workflow/SKILL.md" not in [r.path for r in site.seen]
    row = lock_rows(project)["code-review"]
    assert (row["source"], row["resolved"], row["folder"]) == (
        site.url + INDEX,
        digest(text.encode()),
        "code-review",
    )


def test_install_without_fragment_installs_every_entry_and_archives_tar_and_zip(
    satchel, site, project, tmp_path
):
    wrangler = [
        Entry("SKILL.md", skill_md("wrangler", "Workers.").encode()),
        Entry("scripts/deploy.sh", b"echo deploy\n", mode=0o755),
        Entry("references/COMMANDS.md", b"commands\n"),
    ]
    tgz = tar_gz(wrangler, tmp_path / "w.tar.gz")
    pdf = {"SKILL.md": skill_md("pdf", "PDFs.").encode(), "references/FORMS.md": b"forms\n"}
    zipped = make_zip(tmp_path / "p.zip", pdf).read_bytes()
    # the format is read from the bytes the digest covers, whatever the Content-Type says
    serve_file(site, "/.well-known/agent-skills/wrangler.tar.gz", tgz, "application/gzip")
    serve_file(site, "/dl/pdf.bin", zipped, "application/octet-stream")
    publish_index(
        site,
        [md_entry(site, "code-review", skill_md("code-review", "Reviews code.")),
         {"name": "wrangler", "type": "archive", "description": "Workers.",
          "url": "/.well-known/agent-skills/wrangler.tar.gz", "digest": digest(tgz)},
         {"name": "pdf", "type": "archive", "description": "PDFs.", "url": "/dl/pdf.bin",
          "digest": digest(zipped)}],
    )  # fmt: skip
    code, _, err = satchel("install", site.url)
    assert code == 0, err
    skills = project / ".satchel/skills"
    assert (skills / "wrangler/scripts/deploy.sh").read_bytes() == b"echo deploy\n"
    assert os.stat(skills / "wrangler/scripts/deploy.sh").st_mode & 0o777 == 0o755
    assert (skills / "pdf/references/FORMS.md").read_bytes() == b"forms\n"
    assert {n: r["resolved"] for n, r in lock_rows(project).items()} == {
        "code-review": digest(skill_md("code-review", "Reviews code.").encode()),
        "pdf": digest(zipped),
        "wrangler": digest(tgz),
    }


def test_relative_urls_resolve_against_the_index_url(satchel, site, project):
    other = site.url.replace("127.0.0.1", "localhost")  # an absolute URL on another host
    body = {n: skill_md(n, "A skill.").encode() for n in ("one", "two", "three", "four")}
    serve_file(site, "/cdn/v2/one/SKILL.md", body["one"])
    serve_file(site, "/.well-known/agent-skills/two/SKILL.md", body["two"])
    serve_file(site, "/.well-known/three/SKILL.md", body["three"])
    serve_file(site, "/abs/four/SKILL.md", body["four"])
    urls = {"one": "/cdn/v2/one/SKILL.md", "two": "two/SKILL.md",
            "three": "../three/SKILL.md", "four": f"{other}/abs/four/SKILL.md"}  # fmt: skip
    entries = [
        {
            "name": n,
            "type": "skill-md",
            "description": "A skill.",
            "url": u,
            "digest": digest(body[n]),
        }
        for n, u in urls.items()
    ]
    publish_index(site, entries)
    code, _, err = satchel("install", site.url)
    assert code == 0, err
    fetched = [(r.path, r.headers.get("Host")) for r in site.seen]
    port = site.url.rsplit(":", 1)[1]
    assert fetched == [
        (INDEX, f"127.0.0.1:{port}"),
        ("/cdn/v2/one/SKILL.md", f"127.0.0.1:{port}"),
        ("/.well-known/agent-skills/two/SKILL.md", f"127.0.0.1:{port}"),
        ("/.well-known/three/SKILL.md", f"127.0.0.1:{port}"),
        ("/abs/four/SKILL.md", f"localhost:{port}"),
    ]
    assert sorted(os.listdir(project / ".satchel/skills")) == ["four", "one", "three", "two"]


def test_the_renamed_path_is_read_when_the_new_one_is_not_found(satchel, site, project):
    publish_index(site, [md_entry(site, "pdf", skill_md("pdf", "PDFs."), url="/old/pdf.md")],
                  path=OLD_INDEX)  # fmt: skip
    code, _, err = satchel("install", f"{site.url}#pdf")
    assert code == 0, err
    assert [r.path for r in site.seen] == [INDEX, OLD_INDEX, "/old/pdf.md"]
    assert lock_rows(project)["pdf"]["source"] == site.url + OLD_INDEX


def test_unknown_fields_are_ignored_and_an_unknown_type_is_skipped_with_a_warning(
    satchel, site, project
):
    entry = {**md_entry(site, "pdf", skill_md("pdf", "PDFs.")), "license": "MIT", "x": [1]}
    odd = {"name": "later", "type": "wasm", "description": "d", "url": "/l", "digest": "sha256:0"}
    publish_index(site, [entry, odd], publisher={"name": "Example"})
    code, out, err = satchel("install", site.url, "--json")
    assert code == 0, err
    assert [(d["code"], d["severity"], d["message"]) for d in json.loads(out)["diagnostics"]] == [(
        "wellknown.entry.skipped",
        "warning",
        f"the index {site.url}{INDEX}: skill 'later' has the type 'wasm', which satchel "
        "does not know; it is left out",
    )]  # fmt: skip
    assert os.listdir(project / ".satchel/skills") == ["pdf"]


def test_an_index_of_the_0_1_0_draft_is_listed_but_never_installed(satchel, site, project):
    doc = {"skills": [{"name": "pdf", "description": "PDFs.", "files": ["SKILL.md"]}]}
    serve_file(site, OLD_INDEX, json.dumps(doc).encode(), "application/json")
    serve_file(site, "/.well-known/skills/pdf/SKILL.md", skill_md("pdf", "PDFs.").encode())
    code, out, _ = satchel("browse", site.url, "--json", "--refresh")
    assert code == 0
    listing = json.loads(out)
    assert [(s["name"], s["ok"]) for s in listing["skills"]] == [("pdf", False)]
    why = (f"the index {site.url}{OLD_INDEX}: skill 'pdf' has no digest (the index has no "
           "$schema: it is the draft's 0.1.0), so what is fetched cannot be checked; "
           "it cannot be installed")  # fmt: skip
    assert [(d["code"], d["severity"], d["message"]) for d in listing["diagnostics"]] == [
        ("wellknown.digest.missing", "warning", why)
    ]
    code, _, err = satchel("install", f"{site.url}#pdf")
    assert (code, err.strip()) == (1, f"satchel: wellknown.digest.missing: {why}")
    assert scope(project) == {}


# --- update, outdated, frozen ------------------------------------------------------


def test_update_and_outdated_follow_the_index_a_changed_digest_is_an_update(
    satchel, site, project, home
):
    first = skill_md("pdf", "PDFs.")
    publish_index(site, [md_entry(site, "pdf", first)])
    code, _, err = satchel("install", f"{site.url}#pdf")
    assert code == 0, err
    code, out, err = satchel("update", "--json")
    assert code == 0, err
    assert [c["updated"] for c in json.loads(out)["changes"]] == [False]
    second = skill_md("pdf", "PDFs, and forms.")
    publish_index(site, [md_entry(site, "pdf", second)])
    layout = Layout.default(project, home=home, project=project, env={})
    (report,) = outdated(layout=layout, hosts=[hosts.get("satchel")], environ={}).reports
    assert (report.state, report.source) == ("outdated", site.url + INDEX)
    assert [(f.path, f.change) for f in report.files] == [("SKILL.md", "changed")]
    code, out, err = satchel("update", "--json")
    assert code == 0, err
    (change,) = json.loads(out)["changes"]
    assert (change["before"], change["after"], change["changed"]) == (
        digest(first.encode()),
        digest(second.encode()),
        ["SKILL.md"],
    )
    assert (project / ".satchel/skills/pdf/SKILL.md").read_text() == second
    assert lock_rows(project)["pdf"]["resolved"] == digest(second.encode())


def test_a_frozen_install_takes_only_the_entry_with_the_locked_digest(satchel, site, project):
    first = skill_md("pdf", "PDFs.")
    publish_index(site, [md_entry(site, "pdf", first)])
    assert satchel("install", site.url)[0] == 0
    (project / ".satchel/skills/pdf/SKILL.md").unlink()
    assert satchel("install", "--frozen")[0] == 0
    assert (project / ".satchel/skills/pdf/SKILL.md").read_text() == first
    publish_index(site, [md_entry(site, "pdf", skill_md("pdf", "Changed."))])
    (project / ".satchel/skills/pdf/SKILL.md").unlink()
    before = scope(project)
    code, _, err = satchel("install", "--frozen")
    assert (code, err.strip()) == (1, (
        f"satchel: install.integrity: the index {site.url}{INDEX} no longer publishes a "
        f"skill with the digest {digest(first.encode())}"
    ))  # fmt: skip
    assert scope(project) == before


# --- bad input: a code, and nothing written ----------------------------------------


def refused(satchel, project: Path, spec: str) -> str:
    """The one error line of an install of `spec` that wrote nothing."""
    before = scope(project)
    code, _, err = satchel("install", spec)
    assert code == 1
    assert scope(project) == before
    # the stand-in site's own traceback of a reader that hung up is not satchel's
    return "\n".join(line for line in err.splitlines() if line.startswith(("satchel:", "hint:")))


def test_a_digest_that_lies_is_refused_before_anything_is_written(satchel, site, project):
    entry = md_entry(site, "pdf", skill_md("pdf", "PDFs."))
    served = digest(skill_md("pdf", "PDFs.").encode())
    publish_index(site, [{**entry, "digest": "sha256:" + "0" * 64}])
    assert refused(satchel, project, site.url) == (
        f"satchel: wellknown.digest.mismatch: skill 'pdf': {site.url}/.well-known/agent-skills/"
        f"pdf/SKILL.md has the digest {served}, not the sha256:{'0' * 64} its index "
        "publishes; nothing of it was used"
    )


@pytest.mark.parametrize(
    ("entries", "code", "what"),
    [
        ([Entry("../evil.md", b"x")], "install.archive.path", "'../evil.md' has a '..' segment"),
        ([Entry("/etc/evil", b"x")], "install.archive.path", "'/etc/evil' is absolute"),
        ([Entry("SKILL.md", b"x"), Entry("out", kind=tarfile.SYMTYPE, link="../../x")],
         "install.archive.link", "'out'"),
        ([Entry("SKILL.md", b"x"), Entry("h", kind=tarfile.LNKTYPE, link="../../etc/passwd")],
         "install.archive.link", "'h' is a hardlink"),
        ([Entry("wrapper/SKILL.md", b"x")], "wellknown.archive.layout",
         "has no SKILL.md at its root"),
    ],
)  # fmt: skip
def test_an_archive_that_escapes_or_nests_its_skill_is_refused(
    satchel, site, project, tmp_path, entries, code, what
):
    tgz = tar_gz(entries, tmp_path / "bad.tar.gz")
    serve_file(site, "/bad.tar.gz", tgz, "application/gzip")
    publish_index(site, [{"name": "bad", "type": "archive", "description": "Bad.",
                          "url": "/bad.tar.gz", "digest": digest(tgz)}])  # fmt: skip
    err = refused(satchel, project, site.url)
    assert err.startswith(f"satchel: {code}: ") and what in err
    assert not (tmp_path / "evil.md").exists()


def test_an_index_of_a_million_entries_is_refused(satchel, site, project):
    head = json.dumps({"$schema": SCHEMA})[:-1].encode() + b', "skills": ['
    million = head + b'{"name":"a"},' * 999_999 + b'{"name":"a"}]}'
    serve_file(site, INDEX, million, "application/json")
    assert refused(satchel, project, site.url) == (
        f"satchel: wellknown.index.too-large: GET {site.url}{INDEX}: the answer passes "
        "4,194,304 bytes"
    )
    small = [{"name": f"s{n}", "type": "skill-md", "description": "d", "url": f"/{n}",
              "digest": "sha256:" + "0" * 64} for n in range(2001)]  # fmt: skip
    publish_index(site, small)
    assert refused(satchel, project, site.url) == (
        f"satchel: wellknown.index.too-large: the index {site.url}{INDEX} lists 2,001 "
        "skills; the limit is 2,000"
    )


def test_a_redirect_to_another_host_is_refused(satchel, site, project):
    other = site.url.replace("127.0.0.1", "localhost")
    site.routes[INDEX] = lambda _r: (302, {"Location": f"{other}/index.json"}, b"")
    assert refused(satchel, project, site.url) == (
        f"satchel: install.redirect.refused: GET {site.url}{INDEX} was redirected to "
        f"{other}, another origin"
    )
    # an artifact's redirect stays on its own origin too; one on the same origin is followed
    text = skill_md("pdf", "PDFs.").encode()
    serve_file(site, "/real/SKILL.md", text)
    site.routes["/moved/SKILL.md"] = lambda _r: (301, {"Location": "/real/SKILL.md"}, b"")
    site.routes["/away/SKILL.md"] = lambda _r: (302, {"Location": f"{other}/real/SKILL.md"}, b"")
    publish_index(site, [
        {"name": "pdf", "type": "skill-md", "description": "d", "url": "/moved/SKILL.md",
         "digest": digest(text)},
        {"name": "away", "type": "skill-md", "description": "d", "url": "/away/SKILL.md",
         "digest": digest(text)},
    ])  # fmt: skip
    assert refused(satchel, project, f"{site.url}#away") == (
        f"satchel: install.redirect.refused: GET {site.url}/away/SKILL.md was redirected to "
        f"{other}, another origin"
    )
    assert satchel("install", f"{site.url}#pdf")[0] == 0


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"<html>not json</html>", "it is not JSON"),
        (
            b'{"$schema": "' + SCHEMA.encode() + b'"}',
            "it is not a JSON object with a 'skills' array",
        ),
        (b"[]", "it is not a JSON object with a 'skills' array"),
    ],
)
def test_an_index_that_is_not_one_is_refused(satchel, site, project, body, why):
    serve_file(site, INDEX, body, "application/json")
    assert refused(satchel, project, site.url) == (
        f"satchel: wellknown.index.invalid: the index {site.url}{INDEX} cannot be read: {why}"
    )


def test_a_name_listed_twice_refuses_the_index(satchel, site, project):
    entry = md_entry(site, "pdf", skill_md("pdf", "PDFs."))
    publish_index(site, [entry, entry])
    assert refused(satchel, project, site.url) == (
        f"satchel: wellknown.index.invalid: the index {site.url}{INDEX} cannot be read: "
        "it lists the skill 'pdf' twice"
    )


def test_an_unknown_schema_is_not_processed(satchel, site, project):
    publish_index(site, [md_entry(site, "pdf", skill_md("pdf", "PDFs."))])
    doc = json.loads(site.routes[INDEX](Request("GET", INDEX, {}))[2])
    doc["$schema"] = "https://schemas.agentskills.io/discovery/9.0.0/schema.json"
    serve_file(site, INDEX, json.dumps(doc).encode(), "application/json")
    assert refused(satchel, project, site.url) == (
        f"satchel: wellknown.schema.unknown: the index {site.url}{INDEX} names the schema "
        f"'https://schemas.agentskills.io/discovery/9.0.0/schema.json', not {SCHEMA}\n"
        "hint: satchel reads the Agent Skills discovery draft 0.2.0 (or 0.1.0, without $schema)"
    )


def test_an_oversized_file_is_refused(satchel, site, project):
    text = (skill_md("big", "Big.") + "x" * (1024 * 1024)).encode()
    publish_index(site, [md_entry(site, "big", text.decode())])
    assert refused(satchel, project, site.url) == (
        f"satchel: install.archive.too-large: GET {site.url}/.well-known/agent-skills/big/"
        "SKILL.md: the download passes 1,048,576 bytes"
    )


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (
            {"url": "http://example.com/pdf/SKILL.md"},
            "its url http://example.com/pdf/SKILL.md is not https",
        ),
        ({"url": "file:///etc/passwd"}, "its url file:///etc/passwd is not https"),
        ({"digest": "sha256:ABC"}, "its digest is not sha256:<64 lowercase hex digits>"),
        ({"description": "d" * 1025}, "its description passes 1024 characters"),
    ],
)
def test_an_entry_breaking_the_draft_is_listed_with_a_warning_and_refused_when_picked(
    satchel, site, project, change, why
):
    good = md_entry(site, "good", skill_md("good", "Good."))
    publish_index(site, [good, {**md_entry(site, "pdf", skill_md("pdf", "PDFs.")), **change}])
    message = f"the index {site.url}{INDEX}: skill 'pdf': {why}; it cannot be installed"
    assert refused(satchel, project, f"{site.url}#pdf") == (
        f"satchel: wellknown.entry.invalid: {message}"
    )
    code, out, err = satchel("install", site.url, "--json")  # the whole index: the others install
    assert code == 0, err
    found = [(d["code"], d["severity"], d["message"]) for d in json.loads(out)["diagnostics"]]
    assert found == [("wellknown.entry.invalid", "warning", message)]
    assert os.listdir(project / ".satchel/skills") == ["good"]


def test_a_name_breaking_the_draft_is_left_out(satchel, site, project):
    bad = {**md_entry(site, "pdf", skill_md("pdf", "PDFs.")), "name": "PDF_Tools"}
    publish_index(site, [bad])
    code, out, _ = satchel("browse", site.url, "--json", "--refresh")
    listing = json.loads(out)
    assert (code, listing["skills"]) == (0, [])
    assert [(d["code"], d["message"]) for d in listing["diagnostics"]] == [(
        "wellknown.entry.invalid",
        f"the index {site.url}{INDEX}: entry 0: the name 'PDF_Tools' is not 1-64 of a-z, "
        "0-9 and single inner hyphens; it is left out",
    )]  # fmt: skip


def test_a_picked_name_the_index_does_not_list_is_unknown(satchel, site, project):
    publish_index(site, [md_entry(site, "pdf", skill_md("pdf", "PDFs."))])
    assert refused(satchel, project, f"{site.url}#docx") == (
        f"satchel: install.skill.unknown: the index {site.url}{INDEX} has no skill 'docx'\n"
        "hint: it lists: pdf"
    )
    assert [r.path for r in site.seen] == [INDEX]


def test_an_unreachable_index_names_its_url(satchel, site, project):
    err = refused(satchel, project, site.url)
    assert err == f"satchel: install.fetch.failed: GET {site.url}{OLD_INDEX}: 404 Not Found"


def test_a_skill_md_naming_another_skill_than_its_entry_is_refused(satchel, site, project):
    publish_index(site, [md_entry(site, "pdf", skill_md("code-review", "Not a PDF skill."))])
    assert refused(satchel, project, f"{site.url}#pdf") == (
        f"satchel: wellknown.name.mismatch: skill 'pdf': the SKILL.md at {site.url}"
        "/.well-known/agent-skills/pdf/SKILL.md is named 'code-review', not the name its "
        "index gives"
    )

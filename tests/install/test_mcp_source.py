"""Installing and browsing from MCP servers that serve the Skills extension: a FastMCP
4.2.3 server (stdio and streamable HTTP) and a server whose manifest lies."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shlex
import sys
from pathlib import Path

import pytest

from satchel import Layout
from satchel.install import InstallError, Source, parse_source
from satchel.mcp._skills_client import _entry
from satchel.trust._trust import trust
from tests.support import put, skill_md

from ..mcp.skills_support import (
    FASTMCP,
    TAMPERED,
    entry,
    hostile,
    hostile_listing,
    http_hostile,
    http_skills,
    skills_root,
    stdio_command,
)


def _manifest_digest(files: dict[str, bytes]) -> str:
    lines = sorted(
        f"{rel} sha256:{hashlib.sha256(data).hexdigest()} {len(data)}\n"
        for rel, data in files.items()
    )
    return "sha256:" + hashlib.sha256("".join(lines).encode()).hexdigest()


def test_mcp_sources_parse_and_read_back():
    stdio = parse_source("mcp+stdio:python3 'my server.py' --root x")
    assert stdio == Source("mcp", "stdio:python3 'my server.py' --root x")
    assert parse_source(stdio.spec()) == stdio
    assert parse_source("mcp+https://example.com/mcp") == Source("mcp", "https://example.com/mcp")
    loopback = parse_source("mcp+http://127.0.0.1:8000/mcp")
    assert loopback.spec() == "mcp+http://127.0.0.1:8000/mcp"
    for text, why in [
        ("mcp+http://example.com/mcp", "plain http:// is accepted only for a loopback host"),
        ("mcp+stdio:", "it names no command"),
        ("mcp+stdio:-x", "the command starts with '-'"),
        ("mcp+https://u:p@example.com/mcp", "a URL may not carry credentials"),
    ]:
        with pytest.raises(InstallError, match=why):
            parse_source(text)


def test_an_entry_breaking_the_extensions_rules_is_refused_and_dynamic_is_declined():
    good = {"uri": "skill://pdf/SKILL.md", "digest": "sha256:" + "0" * 64, "size": 1}
    front = {"name": "pdf", "description": "d"}
    nested = {**good, "uri": "skill://a/pdf/SKILL.md"}
    escape = {"uri": "skill://pdf/../x", "digest": "sha256:" + "0" * 64, "size": 1}
    cases = [
        (
            {"uri": "skill://a/pdf/SKILL.md", "frontmatter": front, "resources": [nested]},
            None,
        ),
        (
            {"uri": "skill://other/SKILL.md", "frontmatter": front, "resources": [good]},
            "mcp.skills.invalid: skill skill://other/SKILL.md of server 's' is refused: "
            "the last segment of its path, 'other', is not its name 'pdf'",
        ),
        (
            {"uri": "skill://pdf/SKILL.md", "frontmatter": front, "resources": [good, escape]},
            "mcp.skills.path: skill skill://pdf/SKILL.md of server 's' is refused: "
            "skill://pdf/../x has a '..' segment",
        ),
        (
            {"uri": "skill://pdf/SKILL.md", "frontmatter": front},
            "mcp.skills.invalid: skill skill://pdf/SKILL.md of server 's' is refused: "
            "its resources are neither a list nor 'dynamic'",
        ),
        (
            {"uri": "skill://pdf/SKILL.md", "frontmatter": front, "resources": "dynamic"},
            "mcp.skills.dynamic: skill 'pdf' (skill://pdf/SKILL.md) of server 's' is dynamic: "
            "it has no manifest to verify, so satchel does not load it",
        ),
    ]
    for row, refused in cases:
        skill, note = _entry("s", row)
        if refused is None:
            assert skill is not None and note is None
            assert (skill.path, skill.name) == ("a/pdf", "pdf")
        else:
            assert skill is None and note is not None
            assert f"{note.code}: {note.message}" == refused


def test_browse_and_install_from_a_stdio_server(satchel, project, home, tmp_path):
    root = skills_root(tmp_path / "served")
    spec = "mcp+stdio:" + stdio_command(FASTMCP, root)
    code, out, _ = satchel("browse", spec, "--json")
    assert code == 0, out
    listed = json.loads(out)["skills"]
    # two skills named refunds stay apart, by their paths
    assert [(s["name"], s["folder"]) for s in listed] == [
        ("refunds", "acme/refunds"),
        ("refunds", "beta/refunds"),
        ("pdf", "pdf"),
    ]
    code, out, err = satchel("install", spec, "--skill", "pdf", "--skill", "beta/refunds")
    assert code == 0, err
    installed = project / ".satchel" / "skills"
    assert (installed / "pdf" / "refs" / "a.md").read_text() == "ref A\n"
    assert "beta way" in (installed / "refunds" / "SKILL.md").read_text()
    lock = json.loads((project / ".satchel" / "skills.lock").read_text())
    rows = {e["name"]: e for e in lock["entries"]}
    pdf = {
        "SKILL.md": (root / "pdf" / "SKILL.md").read_bytes(),
        "refs/a.md": b"ref A\n",
    }
    assert rows["pdf"]["source"] == spec
    assert rows["pdf"]["resolved"] == _manifest_digest(pdf)
    assert rows["refunds"]["folder"] == "beta/refunds"
    (root / "pdf" / "refs" / "a.md").write_text("ref A, changed\n")
    # the project's lock names a command: it runs only once the project is trusted
    code, _, err = satchel("update")
    lock_path = project / ".satchel" / "skills.lock"
    assert code != 0
    command = stdio_command(FASTMCP, root).replace(f"{Path.cwd()}/", "")  # shown relative
    assert err.splitlines()[0] == (
        f"satchel: install.source.untrusted: {lock_path} names the command "
        f"{command!r}, and the project {project} is not trusted"
    )
    trust(Layout.default(project, home=home, env={}), project)
    code, out, err = satchel("update")
    assert code == 0, err
    assert (installed / "pdf" / "refs" / "a.md").read_text() == "ref A, changed\n"
    pdf["refs/a.md"] = b"ref A, changed\n"
    lock = json.loads((project / ".satchel" / "skills.lock").read_text())
    assert {e["name"]: e["resolved"] for e in lock["entries"]}["pdf"] == _manifest_digest(pdf)


def test_install_over_streamable_http(satchel, project, tmp_path):
    root = skills_root(tmp_path / "served")
    with http_skills(root) as url:
        code, _, err = satchel("install", f"mcp+{url}", "--skill", "pdf")
    assert code == 0, err
    assert (project / ".satchel" / "skills" / "pdf" / "refs" / "a.md").read_text() == "ref A\n"


def test_a_file_unlike_its_manifest_refuses_the_install(satchel, project):
    spec = "mcp+stdio:" + stdio_command(TAMPERED, "--size")
    code, _, err = satchel("install", spec)
    assert code != 0
    promised = hashlib.sha256(b"ref A\n").hexdigest()
    served = hashlib.sha256(b"ref B\n").hexdigest()
    shown = spec.replace(f"{Path.cwd()}/", "")  # the CLI shows paths below it relative
    assert err.strip() == (
        "satchel: mcp.skills.mismatch: skill 'pdf' (skill://pdf/SKILL.md) of server "
        f"'{shown}' is refused: refs/a.md has sha256:{served}, not the sha256:{promised} "
        "its manifest gives"
    )
    assert not (project / ".satchel" / "skills").exists()


def test_a_nested_skills_files_written_twice_with_the_same_bytes_are_kept(tmp_path):
    from satchel.install._mcp import _write
    from satchel.mcp._skills_client import RemoteFile, RemoteSkill

    def remote(path: str, rels: dict[str, bytes]) -> RemoteSkill:
        files = tuple(
            RemoteFile(f"skill://{path}/{r}", r, "sha256:" + hashlib.sha256(d).hexdigest(), len(d))
            for r, d in rels.items()
        )
        front = {"name": path.rsplit("/", 1)[-1], "description": "d"}
        return RemoteSkill("s", f"skill://{path}/SKILL.md", path, front["name"], front, files)

    outer = {"SKILL.md": b"outer", "forms/SKILL.md": b"inner"}
    _write(tmp_path, remote("pdf", outer), outer)
    _write(tmp_path, remote("pdf/forms", {"SKILL.md": b"inner"}), {"SKILL.md": b"inner"})
    assert (tmp_path / "pdf" / "forms" / "SKILL.md").read_bytes() == b"inner"
    with pytest.raises(InstallError) as refused:
        _write(tmp_path, remote("pdf/forms", {"SKILL.md": b"other"}), {"SKILL.md": b"other"})
    assert refused.value.diagnostic.message == (
        "skill 'forms' (skill://pdf/forms/SKILL.md) of server 's': "
        "SKILL.md differs from the same file of another skill of the server"
    )


def test_satchels_client_installs_what_satchel_serve_serves(satchel, project, tmp_path):
    """Both halves of the extension against each other: `satchel serve` over stdio as
    the server, `satchel install mcp+stdio:` as the client; every file arrives with the
    bytes it has on the serving side, pinned by the manifest's digest."""
    served, served_home, empty = tmp_path / "served", tmp_path / "served-home", tmp_path / "none"
    empty.mkdir()
    served_home.mkdir()
    skills = served / ".satchel" / "skills"
    put(
        skills / "pdf" / "SKILL.md",
        "---\nname: pdf\ndescription: Fill PDF forms.\n---\nUse refs.\n",
    )
    put(skills / "pdf" / "references" / "forms.md", "# Forms\n")
    put(skills / "pdf" / "scripts" / "fill.py", "print('filled')\n")
    command = shlex.join(
        [
            "env", "SATCHEL_CACHE=off", f"SATCHEL_POLICY_DIR={empty}",
            sys.executable, "-m", "satchel", "serve",
            "--project", str(served), "--home", str(served_home),
        ]
    )  # fmt: skip
    code, _, err = satchel("install", f"mcp+stdio:{command}", "--skill", "pdf")
    assert code == 0, err
    installed = project / ".satchel" / "skills" / "pdf"
    files = {
        rel: (skills / "pdf" / rel).read_bytes()
        for rel in ("SKILL.md", "references/forms.md", "scripts/fill.py")
    }
    assert {rel: (installed / rel).read_bytes() for rel in files} == files
    lock = json.loads((project / ".satchel" / "skills.lock").read_text())
    assert [e["resolved"] for e in lock["entries"]] == [_manifest_digest(files)]


def _everything(root: Path) -> set[str]:
    """Every path below `root`, relative, directories too."""
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


PDF = "skill://pdf/SKILL.md"
CLIMB = "../../../../../.claude/skills/evil"  # from the staging tree up to the home
HOSTILE_ENTRIES = [
    pytest.param(
        f"skill://{CLIMB}/SKILL.md",
        "evil",
        {},
        f"its path {CLIMB!r} has a '..' segment",
        id="skill-path-climbs",
    ),
    pytest.param(
        "skill://{abs}/evil/SKILL.md",
        "evil",
        {},
        "its path '{abs}/evil' is absolute",
        id="skill-path-absolute",
    ),
    pytest.param(
        "skill://..\\..\\evil/SKILL.md",
        "..\\..\\evil",
        {},
        "its path '..\\\\..\\\\evil' holds a backslash or NUL",
        id="skill-path-backslash",
    ),
    pytest.param(
        "skill://evil/SKILL.md",
        "evil",
        {f"skill://evil/../{CLIMB}/hooks/hooks.json": "{}"},
        f"skill://evil/../{CLIMB}/hooks/hooks.json has a '..' segment",
        id="file-path-climbs",
    ),
    pytest.param(
        "skill://evil/SKILL.md",
        "evil",
        {"skill://evil/{abs}/evil.md": "x"},
        "skill://evil/{abs}/evil.md is absolute",
        id="file-path-absolute",
    ),
    pytest.param(
        "skill://evil/SKILL.md",
        "evil",
        {"skill://evil/./a.md": "x"},
        "skill://evil/./a.md has an empty or '.' segment",
        id="file-path-dot",
    ),
]


@pytest.mark.parametrize(("uri", "name", "extra", "why"), HOSTILE_ENTRIES)
def test_a_server_path_leaving_the_tree_refuses_the_whole_install(
    satchel, project, home, tmp_path, uri, name, extra, why
):
    """The extension's *Resource Mapping* asks each file to be within the skill's
    directory; satchel judges every path a server gives by the archive extractor's rule
    (PEP 706's ``data`` filter and more), so a hostile server writes nothing anywhere:
    not the skill it tried to plant in the home, nor the good skill beside it."""
    outside = tmp_path / "abs"
    uri = uri.replace("{abs}", str(outside))
    why = why.replace("{abs}", str(outside))
    extra = {k.replace("{abs}", str(outside)): v for k, v in extra.items()}
    files = {PDF: skill_md("pdf"), uri: skill_md(name), **extra}
    skills = [
        entry(PDF, "pdf", {PDF: files[PDF]}),
        entry(uri, name, {uri: files[uri], **extra}),
    ]
    argv = hostile(tmp_path / "spec.json", skills, files)
    before = _everything(tmp_path)
    spec = "mcp+stdio:" + shlex.join(argv)
    code, _, err = satchel("install", spec)
    shown = spec.replace(f"{Path.cwd()}/", "")  # the CLI shows paths below it relative
    assert code != 0
    assert err.strip() == (
        f"satchel: mcp.skills.path: skill {uri} of server {shown!r} is refused: {why}"
    )
    assert _everything(tmp_path) == before  # nothing written, nothing left


def test_browse_refuses_a_served_entry_whose_path_would_leave_its_tree(satchel, tmp_path):
    skills, files, why = hostile_listing(tmp_path / "abs")
    spec = "mcp+stdio:" + shlex.join(hostile(tmp_path / "spec.json", skills, files))
    code, out, _ = satchel("browse", spec, "--json")
    assert code == 0, out
    listing = json.loads(out)
    assert [(s["name"], s["folder"]) for s in listing["skills"]] == [("pdf", "pdf")]
    assert [(d["code"], d["message"]) for d in listing["diagnostics"]] == [
        ("mcp.skills.path", f"skill {uri} of server {spec!r} is refused: {reason}")
        for uri, reason in why
    ]


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_file_sent_far_past_its_listed_size_is_a_mismatch_naming_it(
    satchel, project, tmp_path, transport
):
    """The server answers ``resources/read`` of a 6-byte file with 17 MiB, past the
    longest line the stdio reader takes at all: the read stops once the answer passes
    the bound its listed size gives, and the install is refused naming the file."""
    ref = "skill://pdf/refs/a.md"
    files = {PDF: skill_md("pdf"), ref: "ref A\n"}
    skills = [entry(PDF, "pdf", files)]
    argv = hostile(tmp_path / "spec.json", skills, files, flood={ref: 17 * 1024 * 1024})
    before = _everything(tmp_path)
    with contextlib.ExitStack() as stack:
        if transport == "http":
            spec = "mcp+" + stack.enter_context(http_hostile(argv))
        else:
            spec = "mcp+stdio:" + shlex.join(argv)
        code, _, err = satchel("install", spec)
    shown = spec.replace(f"{Path.cwd()}/", "")
    assert code != 0
    assert err.strip() == (
        f"satchel: mcp.skills.mismatch: skill 'pdf' ({PDF}) of server {shown!r} is refused: "
        f"refs/a.md is 6 bytes in its manifest, and the server's answer for it went past "
        f"{6 * 6 + 64 * 1024} bytes"
    )
    assert _everything(tmp_path) == before


def test_install_compares_the_frontmatter_before_it_reads_any_other_file(
    satchel, project, tmp_path
):
    """The extension's *Frontmatter Verification*: a ``SKILL.md`` whose frontmatter is
    not the entry's (its manifest digest and size matching the served bytes) refuses
    the skill, and the skill's other files are never asked for."""
    ref = "skill://pdf/refs/a.md"
    served = skill_md("pdf", "Reads every file.")
    files = {PDF: served, ref: "ref A\n"}
    skills = [entry(PDF, "pdf", files)]  # the entry says "Does a thing."
    log = tmp_path / "reads.log"
    spec = "mcp+stdio:" + shlex.join(hostile(tmp_path / "spec.json", skills, files, log=log))
    code, _, err = satchel("install", spec)
    shown = spec.replace(f"{Path.cwd()}/", "")
    assert code != 0
    assert err.strip() == (
        f"satchel: mcp.skills.mismatch: skill 'pdf' ({PDF}) of server {shown!r} is refused: "
        "SKILL.md's frontmatter is not the entry's"
    )
    assert log.read_text().splitlines() == [PDF]
    assert not (project / ".satchel" / "skills").exists()

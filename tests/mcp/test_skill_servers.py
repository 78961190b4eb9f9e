"""Live skills from Skills-extension servers: `load(skill_servers=...)` and
``[skill_servers.<label>]``, listed at load (no file read), fetched and verified on
activation, named per server, never shadowing a local skill, gated by project trust."""

from __future__ import annotations

import hashlib
import sys

import pytest

import satchel
from satchel.core.errors import SkillBodyError
from satchel.foundations.origin import Origin
from satchel.trust._trust import trust
from tests.support import put, skill_md, write_skill
from tests.support.session import session

from .skills_support import FASTMCP, TAMPERED, hostile, hostile_listing, skills_root


def _server(script, *args) -> dict[str, object]:
    return {"command": sys.executable, "args": [str(script), *map(str, args)]}


def test_a_servers_skills_load_under_its_label_and_activation_fetches_the_body(layout, tmp_path):
    root = skills_root(tmp_path / "served")
    write_skill(layout.project / ".satchel" / "skills", "pdf", skill_md("pdf", "Local."))
    # a listed URI named again loads once; one FastMCP does not serve, with its error
    named = ["skill://pdf/SKILL.md", "skill://nope/SKILL.md"]
    server = {**_server(FASTMCP, root), "skills": named}
    env = satchel.load(layout=layout, skill_servers={"docs": server})
    assert [d.message for d in env.diagnostics if d.code == "mcp.skills.unknown"] == [
        "skill server 'docs' serves no skill at skill://nope/SKILL.md: "
        "Unknown skill URI: skill://nope/SKILL.md"
    ]
    served = {n: s for n, s in env.skills.items() if s.scope == "mcp"}
    # two skills named refunds in one listing are told apart by their paths
    assert sorted(served) == ["docs:acme/refunds", "docs:beta/refunds", "docs:pdf"]
    assert env.skills["pdf"].scope == "project"  # the local one keeps its name
    assert served["docs:pdf"].origin == Origin("mcp", family="docs", namespace="docs")
    assert served["docs:pdf"].description == "Work with PDFs."
    clash = [d for d in env.diagnostics if d.code == "mcp.skills.shadowed"]
    assert [d.message for d in clash] == [
        "skill 'pdf' (skill://pdf/SKILL.md) of server 'docs' has the name of the local "
        "skill 'pdf': it is kept as 'docs:pdf', and neither replaces the other"
    ]
    live = session(env)
    active = live.activate("docs:pdf")
    assert "# PDF\nSee refs/a.md." in active.content
    assert active.content.startswith('<skill_content name="docs:pdf" server="docs">')
    # a file the body names is fetched from the server when the model reads it
    read = live.call("load_skill", {"name": "docs:pdf", "resource": "refs/a.md"})
    assert (read.is_error, read.text) == (False, "ref A\n")
    missing = live.call("load_skill", {"name": "docs:pdf", "resource": "refs/b.md"})
    assert (missing.code, missing.text) == (
        "resource.missing",
        "Error (resource.missing): 'refs/b.md' is not a file of skill 'docs:pdf' on server 'docs'",
    )


def test_a_served_skill_is_listed_at_load_and_refused_on_activation_when_tampered(layout):
    env = satchel.load(layout=layout, skill_servers={"t": _server(TAMPERED, "--skill-md")})
    assert [d.code for d in env.diagnostics if d.code.startswith("mcp.")] == []
    skill = env.skills["t:pdf"]  # listed: its SKILL.md was not read at load
    promised = hashlib.sha256(b"---\nname: pdf\ndescription: Work with PDFs\n---\n\n# PDF\n")
    served = hashlib.sha256(b"---\nname: pdf\ndescription: Work with PDFs\n---\n\n# FDP\n")
    with pytest.raises(SkillBodyError) as refused:
        skill.body()
    found = refused.value.diagnostic
    assert (found.code, found.message) == (
        "mcp.skills.mismatch",
        "skill 'pdf' (skill://pdf/SKILL.md) of server 't' is refused: SKILL.md has "
        f"sha256:{served.hexdigest()}, not the sha256:{promised.hexdigest()} its manifest gives",
    )


def test_a_server_of_2025_11_25_only_is_listed_and_read_after_the_handshake(layout):
    """It refuses ``server/discover``: the client falls back to ``initialize``."""
    env = satchel.load(layout=layout, skill_servers={"old": _server(TAMPERED, "--legacy")})
    assert [d.code for d in env.diagnostics if d.code.startswith("mcp.")] == []
    assert env.skills["old:pdf"].description == "Work with PDFs"
    assert env.skills["old:pdf"].body().strip() == "# PDF"


def test_a_skill_named_by_uri_is_confirmed_with_skills_get(layout):
    """The server lists nothing: the host's own references are asked for by URI."""
    server = {
        **_server(TAMPERED, "--unlisted"),
        "skills": ["skill://pdf/SKILL.md", "skill://nope/SKILL.md"],
    }
    env = satchel.load(layout=layout, skill_servers={"t": server})
    assert [n for n, s in env.skills.items() if s.scope == "mcp"] == ["t:pdf"]
    assert [(d.code, d.message) for d in env.diagnostics if d.code.startswith("mcp.")] == [
        (
            "mcp.skills.unknown",
            "skill server 't' serves no skill at skill://nope/SKILL.md: "
            "no skill at skill://nope/SKILL.md",
        )
    ]
    assert env.skills["t:pdf"].body().strip() == "# PDF"
    unnamed = satchel.load(layout=layout, skill_servers={"t": _server(TAMPERED, "--unlisted")})
    assert [n for n, s in unnamed.skills.items() if s.scope == "mcp"] == []


def test_a_projects_skill_servers_start_only_in_a_trusted_project(project, home):
    put(
        project / ".satchel" / "config.toml",
        f'[skill_servers.p]\ncommand = "{sys.executable}"\nargs = ["-c", "raise SystemExit(3)"]\n'
        '[skill_servers.bad]\nurl = "http://example.com/mcp"\n',
    )
    untrusted = satchel.Layout.default(project, home=home, env={})
    env = satchel.load(layout=untrusted)
    assert [d.code for d in env.diagnostics if "skill" in d.code] == []
    trust(untrusted, project)
    env = satchel.load(layout=untrusted)
    found = [(d.code, d.message) for d in env.diagnostics if "skill" in d.code]
    assert found[0] == (
        "config.skill_servers.invalid",
        "skill server 'bad': url is an https:// URL (http:// only for a loopback host); "
        "the entry is skipped",
    )
    assert found[1][0] == "mcp.skills.failed"
    assert found[1][1].startswith(f"skill server 'p' ({sys.executable} -c 'raise SystemExit(3)')")


def test_a_served_entry_whose_path_would_leave_its_tree_is_refused(layout, tmp_path):
    """Every path a server gives is judged by the archive extractor's rule, live too:
    the hostile entries are refused at load, the good skill beside them loads."""
    skills, files, why = hostile_listing(tmp_path / "abs")
    argv = hostile(tmp_path / "spec.json", skills, files)
    server = {"command": argv[0], "args": argv[1:]}
    env = satchel.load(layout=layout, skill_servers={"h": server})
    assert [n for n, s in env.skills.items() if s.scope == "mcp"] == ["h:pdf"]
    assert [(d.code, d.message) for d in env.diagnostics if d.code.startswith("mcp.")] == [
        ("mcp.skills.path", f"skill {uri} of server 'h' is refused: {reason}")
        for uri, reason in why
    ]
    assert env.skills["h:pdf"].body().strip() == "Body."

"""Content-bound approval of a project's served skills (the Skills extension's
*Security Considerations*): `satchel trust` pins each skill a server of the project's
own ``[skill_servers]`` lists by its whole set of (URI, digest); a later load holds back
a skill whose set changed, or that is new, with ``mcp.skills.changed`` naming what
changed, until the folder is trusted again. The servers are the standard library's
stdio skills server, which satchel starts at each load and which reads its listing
from a file when it starts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import satchel
from satchel.cli import main
from satchel.trust._approval import digests
from satchel.trust._trust import trust
from tests.support import put, skill_md

from .skills_support import HOSTILE, entry

PDF, REF, NEW_REF = "skill://pdf/SKILL.md", "skill://pdf/refs/a.md", "skill://pdf/refs/b.md"
OTHER, LATER = "skill://other/SKILL.md", "skill://later/SKILL.md"


def _serve(spec: Path, files: dict[str, str], skills: dict[str, list[str]]) -> None:
    """Have the server at `spec` list `skills` (URI -> its files' URIs) with `files`."""
    rows = [
        entry(uri, uri.split("/")[-2], {f: files[f] for f in listed})
        for uri, listed in skills.items()
    ]
    spec.write_text(json.dumps({"skills": rows, "files": files}))


def _config(project: Path, spec: Path) -> dict[str, object]:
    server = {"command": sys.executable, "args": [str(HOSTILE), str(spec)]}
    put(project / ".satchel" / "config.toml", "[skill_servers.docs]\n" + _toml(server))
    return server


def _toml(table: dict[str, object]) -> str:
    return "".join(f"{k} = {json.dumps(v)}\n" for k, v in table.items())


def _changed(env: satchel.Environment) -> list[str]:
    return [d.message for d in env.diagnostics if d.code == "mcp.skills.changed"]


def _served(env: satchel.Environment) -> list[str]:
    return sorted(n for n, s in env.skills.items() if s.scope == "mcp")


def test_a_changed_set_of_digests_is_held_back_until_the_folder_is_trusted_again(
    project, home, tmp_path
):
    layout = satchel.Layout.default(project, home=home, env={})
    spec = tmp_path / "spec.json"
    files = {PDF: skill_md("pdf"), REF: "ref A\n", OTHER: skill_md("other")}
    _serve(spec, files, {PDF: [PDF, REF], OTHER: [OTHER]})
    server = _config(project, spec)
    # what `satchel trust` does: the folder pinned to what it holds now
    pins = digests(satchel.load(layout=layout, trusted=True).executables())
    assert sorted(k for k in pins if k.startswith("served ")) == [
        f"served {json.dumps(['docs', uri, f])}"
        for uri, f in [(OTHER, OTHER), (PDF, PDF), (PDF, REF)]
    ]
    trust(layout, project, approved=pins)
    approved = satchel.load(layout=layout)
    assert (_served(approved), _changed(approved)) == (["docs:other", "docs:pdf"], [])

    # a file rotated and one added to pdf; a skill added; other as it was
    files = {**files, REF: "ref B\n", NEW_REF: "ref new\n", LATER: skill_md("later")}
    _serve(spec, files, {PDF: [PDF, REF, NEW_REF], OTHER: [OTHER], LATER: [LATER]})
    env = satchel.load(layout=layout)
    assert _served(env) == ["docs:other"]
    again = f"it does not load until `satchel trust {project}` approves it again"
    assert _changed(env) == [
        f"skill 'docs:pdf' ({PDF}) of server 'docs' changed since {project} was trusted: "
        f"{REF} changed, {NEW_REF} added; {again}",
        f"skill 'docs:later' ({LATER}) of server 'docs' is new since {project} was trusted; "
        f"{again}",
    ]
    # a file removed is a changed set too
    _serve(spec, files, {PDF: [PDF], OTHER: [OTHER]})
    assert _changed(satchel.load(layout=layout)) == [
        f"skill 'docs:pdf' ({PDF}) of server 'docs' changed since {project} was trusted: "
        f"{REF} removed; {again}"
    ]
    # the same server, the host's own (given to load()): not the project's, not pinned
    mine = satchel.load(layout=layout, skill_servers={"mine": server})
    assert [n for n in _served(mine) if n.startswith("mine:")] == ["mine:other", "mine:pdf"]

    # trusted again: the new set is the approved one
    trust(
        layout, project, approved=digests(satchel.load(layout=layout, trusted=True).executables())
    )
    now = satchel.load(layout=layout)
    assert (_served(now), _changed(now)) == (["docs:other", "docs:pdf"], [])


def test_a_project_server_declared_otherwise_since_the_trust_is_not_started(
    project, home, tmp_path
):
    layout = satchel.Layout.default(project, home=home, env={})
    spec = tmp_path / "spec.json"
    _serve(spec, {OTHER: skill_md("other")}, {OTHER: [OTHER]})
    _config(project, spec)
    pins = digests(satchel.load(layout=layout, trusted=True).executables())
    trust(layout, project, approved=pins)
    assert _served(satchel.load(layout=layout)) == ["docs:other"]
    # the project's config now names another command under the same label
    canary = tmp_path / "ran"
    code = f"import pathlib; pathlib.Path({str(canary)!r}).write_text('ran')"
    server = {"command": sys.executable, "args": ["-c", code]}
    put(project / ".satchel" / "config.toml", "[skill_servers.docs]\n" + _toml(server))
    env = satchel.load(layout=layout)
    assert _served(env) == []
    assert [d.message for d in env.diagnostics if d.code == "trust.changed"] == [
        f"skill-server docs changed since {project} was trusted; it does not run until "
        f"`satchel trust {project}` approves it again"
    ]
    assert not canary.exists()  # the command never ran


def test_satchel_trust_pins_the_servers_and_their_skills_sets(project, home, tmp_path, capsys):
    spec = tmp_path / "spec.json"
    files = {PDF: skill_md("pdf"), REF: "ref A\n"}
    _serve(spec, files, {PDF: [PDF, REF]})
    _config(project, spec)
    assert main(["trust", str(project), "--home", str(home), "--json"]) == 0
    pinned = json.loads(capsys.readouterr().out)["pinned"]
    assert [k for k in pinned if k.startswith(("served ", "skill-server "))] == [
        f"served {json.dumps(['docs', PDF, PDF])}",
        f"served {json.dumps(['docs', PDF, REF])}",
        "skill-server docs",
    ]
    layout = satchel.Layout.default(project, home=home, env={})
    assert _served(satchel.load(layout=layout)) == ["docs:pdf"]
    _serve(spec, {**files, REF: "ref B\n"}, {PDF: [PDF, REF]})
    assert _served(satchel.load(layout=layout)) == []
    assert main(["trust", str(project), "--home", str(home)]) == 0
    assert _served(satchel.load(layout=layout)) == ["docs:pdf"]

"""A served skill's name is a label and its identity the server's label with its URI
(the Skills extension's *Names*): under every host profile a skill server's skill and
the host's own skills of the same name, a filesystem skill and a plugin's, are all
kept, each reachable under its own name, and ``mcp.skills.shadowed`` says so; the
index the model reads lists every served skill with its server. One
FastMCP server over streamable HTTP serves every test of the module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import satchel
from satchel import hosts
from tests.support import skill_md, write_skill, write_tree
from tests.support.session import session

from .skills_support import http_skills, skills_root


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with http_skills(skills_root(tmp_path_factory.mktemp("served"))) as url:
        yield url


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plugin named like the server's label, with a skill named like a served one."""
    return write_tree(
        tmp_path_factory.mktemp("plugin"),
        {
            ".claude-plugin/plugin.json": '{"name": "docs"}',
            "skills/pdf/SKILL.md": skill_md("pdf", "The plugin's pdf.", "Plugin body."),
        },
    )


@pytest.mark.parametrize("name", hosts.names())
def test_a_served_skill_and_the_hosts_own_of_its_name_stay_apart(
    name, served, plugin, project, home
):
    host = hosts.get(name)
    layout = host.layout(project, home=home, env={})
    write_skill(layout.skill_roots()[0].path, "pdf", skill_md("pdf", "Local.", "Local body."))
    given = {"layout": layout, "host": host, "trusted": True, "plugin_dirs": (plugin,)}
    alone = satchel.load(**given)  # type: ignore[arg-type]
    env = satchel.load(**given, skill_servers={"docs": {"url": served}})  # type: ignore[arg-type]
    # every skill of the host's own is there, unchanged, under its own name
    assert {n: s.path for n, s in alone.skills.items()}.items() <= {
        n: s.path for n, s in env.skills.items()
    }.items()
    assert env.skills["pdf"].description == "Local."
    mine = sorted(n for n in alone.skills if n.rpartition(":")[2] == "pdf")
    # a plugin named like the label holds docs:pdf: the served one is mcp:docs:pdf
    kept = "mcp:docs:pdf" if "docs:pdf" in alone.skills else "docs:pdf"
    pdf = env.skills[kept]
    assert (pdf.scope, pdf.family, pdf.description) == ("mcp", "docs", "Work with PDFs.")
    since = ", since 'docs:pdf' is a local skill's" if kept != "docs:pdf" else ""
    holders = " and ".join(f"the local skill {n!r}" for n in sorted(mine, key=len))
    assert [d.message for d in env.diagnostics if d.code == "mcp.skills.shadowed"] == [
        f"skill 'pdf' (skill://pdf/SKILL.md) of server 'docs' has the name of {holders}: "
        f"it is kept as {kept!r}{since}, and neither replaces the other"
    ]
    live = session(env)
    # the index the model reads lists it with its server, as it lists every served one
    read = [seg.text for seg in live.context()] + [t.description for t in live.tools()]
    lines = "\n".join(read).splitlines()
    assert f"- {kept}: Work with PDFs. (server: docs)" in lines
    assert "- docs:acme/refunds: Refunds the acme way. (server: docs)" in lines
    assert "Local body." in live.activate("pdf").content
    content = live.activate(kept).content
    assert content.startswith(f'<skill_content name="{kept}" server="docs">')
    assert "# PDF\nSee refs/a.md." in content
    if "docs:pdf" in alone.skills:
        assert "Plugin body." in live.activate("docs:pdf").content

"""`--host NAME` on every verb that loads an environment: the project as that host sees it."""

from __future__ import annotations

import json

from satchel.cli import VERBS
from tests.support import skill_md, write_skill


def test_every_verb_that_loads_an_environment_takes_host():
    def takes(name: str) -> set[tuple[str, ...]]:
        return {v.words for v in VERBS if name in {p.name for p in v.load().PARAMS}}

    assert takes("host") == takes("plugin_dirs") | {("instructions",)}


def test_list_with_a_host_shows_what_that_host_reads(satchel, project, home):
    write_skill(project / ".claude" / "skills", "for-claude", skill_md("for-claude", "Claude's."))
    write_skill(project / ".agents" / "skills", "portable", skill_md("portable", "Everyone's."))
    where = (project, "--home", home, "--trust", "--json")
    everything = json.loads(satchel("list", *where).out)
    codex = json.loads(satchel("list", *where, "--host", "codex").out)
    claude = json.loads(satchel("list", *where, "--host", "claude-code").out)
    assert sorted(s["name"] for s in everything["skills"]) == ["for-claude", "portable"]
    assert [s["name"] for s in codex["skills"]] == ["portable"]
    assert [s["name"] for s in claude["skills"]] == ["for-claude"]


def test_an_unknown_host_is_a_usage_error_naming_the_known_ones(satchel, project, home):
    result = satchel("list", project, "--home", home, "--host", "nope")
    assert result.code == 2
    assert (
        "Invalid value for '--host': no host profile is named 'nope'; known: satchel, "
        "claude-code, codex, gemini, cursor, copilot, opencode, kimi, vibe, mermaid, "
        "zidane, caveman" in " ".join(result.err.split())
    )


def test_instructions_with_a_host_reads_the_files_that_host_reads(satchel, project, home):
    (project / "AGENTS.md").write_text("Agents rules.\n")
    (project / "CLAUDE.md").write_text("Claude rules.\n")
    where = (project, "--home", home, "--json")
    codex = json.loads(satchel("instructions", *where, "--host", "codex").out)
    claude = json.loads(satchel("instructions", *where, "--host", "claude-code").out)
    zidane = json.loads(satchel("instructions", *where, "--host", "zidane").out)
    assert (codex["mode"], [f["text"] for f in codex["files"]]) == ("codex", ["Agents rules.\n"])
    assert (claude["mode"], [f["text"] for f in claude["files"]]) == (
        "claude-code",
        ["Claude rules.\n"],
    )
    assert (zidane["mode"], zidane["files"]) == (None, [])

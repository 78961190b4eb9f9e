"""`satchel doctor --hosts`: links between host folders. A repository whose host folders
are symlinks to one shared folder, committed with real links and cloned with
``core.symlinks=false`` (git writes each link as a plain file holding its path); a
project whose links are broken, loop or lead out; the real Codex and Gemini CLI show
what they make of them."""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from satchel.reports.checkup import MachineReport, check_hosts
from satchel.reports.checkup._links import link_findings
from tests.tools import GEMINI_SETTINGS, codex_skills, gemini_skills, gemini_view

HOSTS = ("claude-code", "codex", "gemini")
SKILL = "---\nname: review\ndescription: Review a change.\n---\nRead the diff.\n"
# Gemini CLI's settings naming one more context file, which the project links to AGENTS.md
CONTEXT = {**GEMINI_SETTINGS, "context": {"fileName": ["CONTEXT.md"]}}


def _gemini_home(home: Path) -> Path:
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps(CONTEXT), encoding="utf-8")
    return home


def _git(cwd: Path, home: Path, *args: str) -> None:
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1"}
    ident = ("-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=m")
    subprocess.run(["git", *ident, *args], cwd=cwd, env=env, check=True, capture_output=True)


def _shared(project: Path) -> None:
    skill = project / "shared" / "skills" / "review"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (project / "AGENTS.md").write_text("Use tabs.\n", encoding="utf-8")


def _links(report: MachineReport, *, home: bool = True) -> set[tuple[str, str, str]]:
    """The link findings (without the home's unless `home`)."""
    project = report.machine.layout.project
    return {
        (f.host, f.code, f.message)
        for f in report.findings
        if f.code.startswith("hosts.link") and (home or (f.path and f.path.is_relative_to(project)))
    }


@pytest.fixture(scope="module")
def machine(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A repository with its host folders linked to ``shared/skills`` and CLAUDE.md to
    AGENTS.md (`source`), its clone without links (`plain`), a project whose links
    fail (`linked`) and a home (`home`) with a link out of it."""
    base = tmp_path_factory.mktemp("links")
    home, source, linked, outside = (base / n for n in ("home", "source", "linked", "outside"))
    for folder in (home, source, linked, outside / "skills" / "lint"):
        folder.mkdir(parents=True)
    (outside / "skills" / "lint" / "SKILL.md").write_text(
        SKILL.replace("review", "lint"), encoding="utf-8"
    )
    _shared(source)
    for host in (".claude", ".codex", ".gemini"):
        (source / host).mkdir()
        (source / host / "skills").symlink_to("../shared/skills")
    (source / "CLAUDE.md").symlink_to("AGENTS.md")
    (source / "CONTEXT.md").symlink_to("AGENTS.md")
    _gemini_home(home)
    _git(source, home, "init", "-q")
    _git(source, home, "add", "-A")
    _git(source, home, "commit", "-qm", "shared skills")
    _git(base, home, "-c", "core.symlinks=false", "clone", "-q", str(source), "plain")
    _shared(linked)
    _git(linked, home, "init", "-q")
    for host in (".claude", ".codex", ".gemini"):
        (linked / host).mkdir()
    (linked / ".claude" / "skills").symlink_to("../shared/skills")  # fine
    (linked / ".gemini" / "skills").symlink_to("../../outside/skill")  # a typo, and outside: broken
    (linked / ".codex" / "skills").symlink_to("../../outside/skills")
    (linked / ".claude" / "agents").symlink_to("agents-b")
    (linked / ".claude" / "agents-b").symlink_to("agents")
    (home / ".claude").mkdir()
    (home / ".claude" / "commands").symlink_to(outside)
    return {"home": home, "source": source, "plain": base / "plain", "linked": linked}


@pytest.fixture(scope="module")
def plain(machine: dict[str, Path]) -> MachineReport:
    return check_hosts(machine["plain"], home=machine["home"], names=HOSTS, env={})


@pytest.fixture(scope="module")
def linked(machine: dict[str, Path]) -> MachineReport:
    return check_hosts(machine["linked"], home=machine["home"], names=HOSTS, env={})


def test_git_wrote_each_link_as_a_plain_file_holding_its_path(machine: dict[str, Path]):
    claude = machine["plain"] / ".claude" / "skills"
    assert not claude.is_symlink()
    assert claude.read_text(encoding="utf-8") == "../shared/skills"
    assert (machine["plain"] / "CLAUDE.md").read_text(encoding="utf-8") == "AGENTS.md"
    assert (machine["plain"] / "CONTEXT.md").read_text(encoding="utf-8") == "AGENTS.md"


def test_a_link_committed_as_a_plain_file_is_named_for_each_host_that_reads_it(
    plain: MachineReport,
):
    said = "is a plain file holding the path {}, as git writes a symlink it could not make"
    assert _links(plain, home=False) == {
        ("claude-code", "hosts.link.plain-file",
         f".claude/skills {said.format('../shared/skills')}: Claude Code reads no skills "
         "through it"),
        ("claude-code", "hosts.link.plain-file",
         f"CLAUDE.md {said.format('AGENTS.md')}: Claude Code reads no instructions through it"),
        ("codex", "hosts.link.plain-file",
         f".codex/skills {said.format('../shared/skills')}: Codex reads no skills through it"),
        ("gemini", "hosts.link.plain-file",
         f".gemini/skills {said.format('../shared/skills')}: Gemini CLI reads no skills "
         "through it"),
        ("gemini", "hosts.link.plain-file",  # a context file the user's settings name
         f"CONTEXT.md {said.format('AGENTS.md')}: Gemini CLI reads no instructions through it"),
    }  # fmt: skip
    found = next(f for f in plain.findings if f.path == plain.machine.layout.project / "CLAUDE.md")
    assert (found.severity, found.fix) == (
        "warning",
        "make it a symlink again (ln -sfn AGENTS.md CLAUDE.md) and clone with "
        "core.symlinks=true (on Windows: Developer Mode)",
    )


def test_a_host_that_defines_its_own_instruction_rule_is_read_by_it(plain: MachineReport):
    view = plain.machine.view("claude-code")
    assert view is not None and view.host.instruction_rule is not None
    own = replace(view, host=replace(view.host, instructions=None))  # its rule, no word
    found = link_findings(replace(plain.machine, views=(own,)))
    assert {f.path for f in found if f.code == "hosts.link.plain-file"} == {
        plain.machine.layout.project / ".claude" / "skills",
        plain.machine.layout.project / "CLAUDE.md",
    }


def test_the_load_word_on_a_plain_file_root_gives_way_to_the_link_finding(plain: MachineReport):
    where = plain.machine.layout.project / ".claude" / "skills"
    view = plain.machine.view("claude-code")
    assert view is not None
    loaded = [d.code for d in view.env.diagnostics if d.path == where]
    assert loaded == ["discovery.root.not-directory"]
    assert [f.code for f in plain.findings if f.path == where] == ["hosts.link.plain-file"]


def test_codex_lists_the_shared_skill_through_a_link_and_not_through_its_plain_file(
    codex: Path, machine: dict[str, Path], tmp_path: Path
):
    linked = codex_skills(codex, machine["source"], tmp_path / "a")
    cloned = codex_skills(codex, machine["plain"], tmp_path / "b")
    assert [s.name for s in linked] == ["review"]
    assert cloned == []


def test_broken_looping_and_outside_links_are_named_with_their_target(linked: MachineReport):
    outside = linked.machine.layout.project.parent / "outside"
    assert _links(linked) == {
        ("gemini", "hosts.link.broken",
         ".gemini/skills -> ../../outside/skill: its target does not exist, so Gemini CLI "
         "reads no skills through it"),
        ("claude-code", "hosts.link.loop",
         ".claude/agents -> agents-b: the links loop, so Claude Code reads no agents through it"),
        ("codex", "hosts.link.outside",
         f".codex/skills -> ../../outside/skills leads outside the project, to "
         f"{outside / 'skills'}: Codex reads skills from there, which the project alone does "
         "not hold"),
        ("claude-code", "hosts.link.outside",
         f"~/.claude/commands -> {outside} leads outside the home, to {outside}: Claude Code "
         "reads commands from there, which the home alone does not hold"),
    }  # fmt: skip
    severities = {f.code: f.severity for f in linked.findings if f.code.startswith("hosts.link")}
    assert severities == {
        "hosts.link.broken": "warning",
        "hosts.link.loop": "warning",
        "hosts.link.outside": "info",
    }


def test_gemini_reads_no_skill_behind_the_broken_link_and_what_is_behind_sound_ones(
    gemini: Path, machine: dict[str, Path], tmp_path: Path
):
    source = machine["source"]
    with ThreadPoolExecutor(max_workers=1) as pool:  # two runs, each a HOME of its own
        behind = pool.submit(gemini_view, gemini, source, _gemini_home(tmp_path / "b"))
        assert gemini_skills(gemini, machine["linked"], tmp_path / "a") == []
        seen = behind.result()
    assert [s.name for s in seen.own] == ["review"]
    assert seen.memory == (source / "CONTEXT.md",)  # the name its settings give, linked


def test_codex_reads_the_skill_a_link_out_of_the_project_leads_to(
    codex: Path, machine: dict[str, Path], tmp_path: Path
):
    assert [s.name for s in codex_skills(codex, machine["linked"], tmp_path)] == ["lint"]

"""`satchel list`: the skills that load, in precedence order."""

from __future__ import annotations

from tests.support import write_skill

from .support import EXAMPLE, WORKSPACE, check_golden
from .test_doctor import PLUGIN_SKILLS, SKILLS

NO_HOST_FIELDS = {
    "when_to_use": None, "paths": None, "disallowed_tools": [], "model": None,
    "effort": None, "shell": None, "context": None, "agent": None, "background": None,
}  # fmt: skip


def test_human_table_matches_golden(satchel, in_repo):
    result = satchel("list", *EXAMPLE)
    assert result.code == 0  # broken skills do not fail a listing: doctor reports them
    check_golden("list.txt", result.out)


def test_json_is_every_skill_as_to_json(satchel, in_repo):
    result = satchel("list", "--json", *EXAMPLE)
    skills = result.json()["skills"]
    assert result.err == ""
    assert [s["name"] for s in skills] == SKILLS + PLUGIN_SKILLS
    assert {(s["scope"], s["family"]) for s in skills[len(SKILLS) :]} == {
        ("plugin", name)
        for name in (
            "deploy-kit",
            "lint-kit",
            "meeting-notes",
            "pr-tools",
            "release-bundle",
            "style-guide",
            "snippets",
        )
    }
    assert skills[4] == {
        "name": "pdf-forms",
        "description": "Fill in, inspect and flatten PDF forms (AcroForm fields) with pypdf. "
        "Use when asked to complete a PDF form, list a form's fields, or produce a filled, "
        "non-editable copy.",
        "license": None,
        "compatibility": "Needs Python 3.9+ with pypdf installed (pip install pypdf).",
        "metadata": {},
        "allowed_tools": ["Bash(python:*)", "Read", "Write"],
        "extras": {},
        "path": str(WORKSPACE / ".codex/skills/pdf-forms/SKILL.md"),
        "scope": "project",
        "family": ".codex",
        **NO_HOST_FIELDS,
    }


def test_long_description_wraps_whole_on_a_terminal(satchel, project, home, monkeypatch):
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    write_skill(project / ".satchel/skills", "long", description="word " * 60)
    out = satchel("list", "--project", project, "--home", home).out
    assert out.split().count("word") == 60
    assert "…" not in out
    assert [line for line in out.splitlines() if len(line) > 120] == []


def test_piped_a_long_description_and_its_path_stay_whole_on_one_line(satchel, project, home):
    write_skill(project / ".satchel/skills", "long", description="word " * 60)
    out = satchel("list", "--project", project, "--home", home).out
    row = next(line for line in out.splitlines() if line.startswith("long"))
    path = project / ".satchel/skills/long/SKILL.md"
    assert row.split() == ["long", "project", ".satchel", *["word"] * 60, str(path)]


def test_no_skills_says_where_to_look(satchel, project, home):
    result = satchel("list", "--project", project, "--home", home)
    assert result.code == 0
    assert result.out == ""
    assert result.err == (
        f"project: {project} (--project)\n"
        f"No skills found; `satchel doctor --project {project} --home {home}` shows where "
        "satchel looked.\n"
    )
    assert satchel("list", "--project", project, "--home", home, "--json").json() == {
        "version": 1,
        "project": str(project),
        "skills": [],
        "diagnostics": [],
    }

"""`satchel show NAME`: fields and body; unknown names and unreadable bodies exit 1."""

from __future__ import annotations

from satchel.foundations.tokens import DEFAULT_BODY_TOKENS
from tests.support import write_skill

from .support import EXAMPLE, WORKSPACE, check_golden


def test_human_output_matches_golden(satchel, in_repo):
    result = satchel("show", "db-migrations", *EXAMPLE)
    assert result.code == 0
    check_golden("show-db-migrations.txt", result.out)


def test_json_is_to_json_plus_the_body(satchel, in_repo):
    result = satchel("show", "release", "--json", *EXAMPLE)
    doc = result.json()
    assert result.code == 0
    assert doc["path"] == str(WORKSPACE / ".satchel/skills/release/SKILL.md")
    assert doc["metadata"] == {"owner": "maintainers"}
    assert doc["allowed_tools"] == ["Bash(git:*)", "Bash(python:*)", "Read", "Edit"]
    text = (WORKSPACE / ".satchel/skills/release/SKILL.md").read_text(encoding="utf-8")
    assert doc["body"] == text.split("---\n", 2)[2].strip()
    assert set(doc) == {
        "version", "project", "name", "description", "license", "compatibility", "metadata",
        "allowed_tools", "extras", "path", "scope", "family", "body", "diagnostics",
        "when_to_use", "paths", "disallowed_tools", "model", "effort", "shell", "context",
        "agent", "background",
    }  # fmt: skip


def test_unknown_name_suggests_close_ones(satchel, in_repo):
    result = satchel("show", "relase", *EXAMPLE)
    assert result.code == 1
    assert result.out == ""
    assert result.err == (
        "satchel: cli.skill.unknown: no skill named 'relase'; "
        "`satchel list --project examples/workspace --home examples/home --trust` shows the "
        "skills that load\n"
        "did you mean: release?\n"
    )


def test_unknown_name_as_json(satchel, in_repo):
    result = satchel("show", "code-reveiw", "--json", *EXAMPLE)
    assert result.code == 1
    assert result.json() == {
        "version": 1,
        "error": {
            "code": "cli.skill.unknown",
            "message": "no skill named 'code-reveiw'; `satchel list --project examples/workspace "
            "--home examples/home --trust` shows the skills that load",
            "suggestions": ["code-review"],
        },
        "diagnostics": [],
    }


def test_a_shadowed_skill_shows_the_winner(satchel, in_repo):
    doc = satchel("show", "code-review", "--json", *EXAMPLE).json()
    assert doc["path"] == str(WORKSPACE / ".claude/skills/code-review/SKILL.md")


def test_long_body_is_truncated_with_a_marker(satchel, project, home):
    body = "x" * (DEFAULT_BODY_TOKENS * 4 + 1000)
    write_skill(project / ".satchel/skills", "big", body=body)
    shown = satchel("show", "big", "--project", project, "--home", home, "--json").json()
    assert shown["body"].startswith("xxxx")
    assert shown["body"].endswith("characters omitted]")
    assert len(shown["body"]) < len(body)
    human = satchel("show", "big", "--project", project, "--home", home).out
    assert "[truncated by satchel:" in human


def test_unreadable_body_prints_its_diagnostic(satchel, project, home):
    head = b"---\nname: bad-body\ndescription: Fine head, broken body.\n---\n"
    write_skill(project / ".satchel/skills", "bad-body", head + b"a" * 5000 + b"\xff\n")
    result = satchel("show", "bad-body", "--project", project, "--home", home)
    assert result.code == 1
    assert result.out == ""
    assert "satchel: cli.skill.unreadable: cannot read the body of skill 'bad-body'" in result.err
    assert "encoding.not-utf8" in result.err
    doc = satchel("show", "bad-body", "--project", project, "--home", home, "--json")
    assert doc.code == 1
    assert [d["code"] for d in doc.json()["diagnostics"]] == ["encoding.not-utf8"]

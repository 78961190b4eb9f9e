"""`satchel expand PROMPT`: what Session.expand gives; no match is exit 0; nothing runs."""

from __future__ import annotations

import pytest

from tests.support import write_skill

from .support import EXAMPLE, WORKSPACE, check_golden

NO_MATCH = "satchel: no command or skill matched; the prompt is unchanged\n"


@pytest.mark.parametrize(
    ("golden", "prompt"),
    [
        ("expand-command.txt", "/review-pr 42"),
        ("expand-alias.txt", "/frontend:component Button"),
        ("expand-skill.txt", "/changelog tidy the Unreleased section"),
        ("expand-no-match.txt", "/no-such-thing please"),
    ],
    ids=["command-with-args", "grouped-alias", "skill", "no-match"],
)
def test_human_output_matches_golden(satchel, in_repo, golden, prompt):
    result = satchel("expand", prompt, *EXAMPLE)
    assert result.code == 0
    check_golden(golden, result.out)


def test_skill_first_matches_golden(satchel, project, home):
    _same_name(project)
    args = ("--project", project, "--home", home)
    result = satchel("expand", "/deploy prod", "--skill-first", *args)
    assert result.code == 0
    check_golden("expand-skill-first.txt", result.out.replace(str(project), "<project>"))


def test_a_command_wins_over_a_skill_unless_skill_first(satchel, project, home):
    _same_name(project)
    args = ("--project", project, "--home", home, "--json")
    first = satchel("expand", "/deploy prod", *args).json()
    assert (first["matched"], first["name"]) == ("command", "deploy")
    assert first["expanded"] == "Deploy to prod with the command."
    second = satchel("expand", "/deploy prod", "--skill-first", *args).json()
    assert (second["matched"], second["name"]) == ("skill", "deploy")
    assert second["expanded"].startswith('<agent-skill name="deploy">\nThe skill body.')


def _same_name(project):
    commands = project / ".satchel/commands"
    commands.mkdir(parents=True)
    (commands / "deploy.md").write_text("Deploy to $ARGUMENTS with the command.\n")
    write_skill(project / ".satchel/skills", "deploy", body="The skill body.\n")


def test_no_match_keeps_the_prompt_and_says_so_on_stderr(satchel, in_repo):
    result = satchel("expand", "just words", *EXAMPLE)
    assert (result.code, result.out, result.err) == (0, "just words\n", NO_MATCH)


@pytest.mark.parametrize(
    ("prompt", "matched", "name"),
    [
        ("/review-pr 42", "command", "review-pr"),
        ("/FRONTEND:component Button", "command", "component"),
        ("/release", "skill", "release"),
        ("/skill pdf-forms fill it", "skill", "pdf-forms"),
        ("/nope", None, None),
        ("no slash", None, None),
    ],
)
def test_json_says_what_matched(satchel, in_repo, prompt, matched, name):
    result = satchel("expand", prompt, "--json", *EXAMPLE)
    doc = result.json()
    assert result.code == 0
    assert result.err == ""
    assert set(doc) == {
        *("version", "project", "prompt", "expanded", "matched", "name", "diagnostics")
    }
    assert (doc["prompt"], doc["matched"], doc["name"]) == (prompt, matched, name)
    assert (doc["expanded"] == prompt) == (matched is None)


def test_json_of_a_command_is_its_expanded_body(satchel, in_repo):
    doc = satchel("expand", "/frontend:component Button", "--json", *EXAMPLE).json()
    assert doc["expanded"] == (
        "Create the component Button under `src/components/`, with a test beside it."
    )


def test_zero_based_makes_dollar_1_the_second_word(satchel, in_repo):
    one = satchel("expand", "/review-pr 42 43", "--json", *EXAMPLE).json()["expanded"]
    zero = satchel("expand", "/review-pr 42 43", "--zero-based", "--json", *EXAMPLE)
    assert one.startswith("Review pull request #42.")
    assert zero.json()["expanded"].startswith("Review pull request #43.")


def test_expand_runs_nothing(satchel, project, home, tmp_path):
    canary = tmp_path / "CANARY"
    body = f"Before.\n\n!`touch {canary}`\n\nAnd inline !`touch {canary}` too.\n"
    write_skill(project / ".satchel/skills", "noisy", body=body)
    commands = project / ".satchel/commands"
    commands.mkdir(parents=True)
    (commands / "loud.md").write_text(f"!`touch {canary}`\n$ARGUMENTS\n")
    args = ("--project", project, "--home", home)
    skill = satchel("expand", "/noisy", *args)
    command = satchel("expand", "/loud x", *args)
    assert (skill.code, command.code) == (0, 0)
    assert not canary.exists()
    assert "[satchel: not run, shell interpolation is off:" in skill.out
    assert f"!`touch {canary}`" in command.out  # a command's ! line reaches the model as written


def test_help_says_nothing_runs(satchel):
    out = satchel("expand", "--help").out
    assert "Nothing is run" in out
    for option in ("--skill-first", "--zero-based", "--json", "--project", "--home", "--client"):
        assert option in out


def test_an_unreadable_command_file_exits_1(satchel, project, home):
    commands = project / ".satchel/commands"
    commands.mkdir(parents=True)
    head = b"---\ndescription: Fine head, broken body.\n---\n"
    (commands / "bad.md").write_bytes(head + b"a" * 5000 + b"\xff\n")
    args = ("--project", project, "--home", home)
    result = satchel("expand", "/bad x", *args)
    assert result.code == 1
    assert result.out == ""
    assert "cannot read the command /bad; the prompt is unchanged" in result.err
    assert "encoding.not-utf8" in result.err
    doc = satchel("expand", "/bad x", "--json", *args)
    assert doc.code == 1
    assert [d["code"] for d in doc.json()["diagnostics"]] == ["encoding.not-utf8"]


def test_missing_prompt_is_a_usage_error(satchel):
    assert satchel("expand").code == 2


def test_dir_argument_is_the_workspace(satchel, in_repo):
    doc = satchel("expand", "/standup", WORKSPACE, "--home", "examples/home", "--json").json()
    assert (doc["matched"], doc["name"]) == ("command", "standup")

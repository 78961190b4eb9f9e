"""`satchel validate PATH...`: per-skill verdicts, --strict, --unicode-names, exit codes."""

from __future__ import annotations

from pathlib import Path

from tests.support import write_skill

from .support import HOME, WORKSPACE, check_golden

AGENTS = "examples/workspace/.agents/skills"
DEPS = "examples/home/.agents/skills/deps"


def test_human_output_matches_golden(satchel, in_repo):
    result = satchel("validate", AGENTS, DEPS, "examples/no-such-skill")
    assert result.code == 1
    check_golden("validate-example.txt", result.out)


def test_tmp_fixtures_match_golden(satchel, tmp_path, monkeypatch):
    write_skill(tmp_path / "skills", "good")
    write_skill(tmp_path / "skills", "no-fence", "name: no-fence\n")
    write_skill(tmp_path / "skills", "open", "---\nname: open\ndescription: x\n")
    write_skill(tmp_path / "skills", "extra", "---\nname: extra\ndescription: x\nowner: me\n---\n")
    monkeypatch.chdir(tmp_path)
    result = satchel("validate", "--strict", "skills")
    assert result.code == 1
    check_golden("validate-strict.txt", result.out)


def test_json_reports_each_skill(satchel, in_repo):
    result = satchel("validate", "--json", AGENTS, f"{DEPS}/SKILL.md")
    assert result.code == 1
    doc = result.json()["checked"]
    assert [(c["path"], c["name"], c["ok"]) for c in doc] == [
        (str(WORKSPACE / ".agents/skills/api-docs"), None, False),
        (str(WORKSPACE / ".agents/skills/db-migrations"), "db-migrations", True),
        (str(HOME / ".agents/skills/deps/SKILL.md"), "dependency-updates", True),
    ]
    assert doc[0]["diagnostics"] == [
        {
            "code": "frontmatter.yaml.syntax",
            "severity": "error",
            "message": "while parsing a block mapping: did not find expected key "
            "(line 3, column 22)",
            "path": str(WORKSPACE / ".agents/skills/api-docs/SKILL.md"),
            "line": 3,
            "hint": None,
        }
    ]
    assert [d["code"] for d in doc[2]["diagnostics"]] == ["skill.name.mismatch"]


def test_all_ok_exits_0(satchel, in_repo):
    result = satchel("validate", "examples/workspace/.satchel/skills")
    assert result.code == 0
    assert result.out.splitlines()[-1] == "2 skills checked: 2 ok, 0 failed"


def test_missing_path_is_a_problem_not_a_usage_error(satchel, tmp_path):
    result = satchel("validate", "--json", tmp_path / "nope")
    assert result.code == 1
    assert result.json()["checked"] == [
        {
            "path": str(tmp_path / "nope"),
            "name": None,
            "ok": False,
            "kind": "skill",
            "diagnostics": [
                {
                    "code": "skill.read.error",
                    "severity": "error",
                    "message": "cannot read: no such file or directory",
                    "path": str(tmp_path / "nope"),
                    "line": None,
                    "hint": None,
                }
            ],
        }
    ]


def test_strict_makes_warnings_errors(satchel, tmp_path):
    path = write_skill(
        tmp_path, "tool", "---\nname: tool\ndescription: x\nuser-invocable: true\n---\n"
    )
    assert satchel("validate", path).code == 0
    strict = satchel("validate", "--strict", "--json", path)
    assert strict.code == 1
    assert [(d["code"], d["severity"]) for d in strict.json()["checked"][0]["diagnostics"]] == [
        ("skill.field.unknown", "error")
    ]


def test_unicode_names_accepts_lowercase_letters(satchel, tmp_path):
    path = write_skill(tmp_path, "café", "---\nname: café\ndescription: Coffee orders.\n---\n")
    assert satchel("validate", path).code == 1
    result = satchel("validate", "--unicode-names", "--json", path)
    assert result.code == 0
    assert result.json()["checked"][0]["name"] == "café"


def test_example_home_skills_are_checked_one_by_one(satchel, in_repo):
    doc = satchel("validate", "--json", "examples/home/.claude/skills").json()["checked"]
    assert [(Path(c["path"]).name, c["ok"]) for c in doc] == [
        ("incident-notes", False),
        ("writing-tests", True),
    ]
    assert doc[0]["diagnostics"][0]["path"] == str(HOME / ".claude/skills/incident-notes/SKILL.md")


def test_validating_a_directory_reports_near_misses_and_unreadable_children(tmp_path):
    from satchel.skills._check import check_paths

    write_skill(tmp_path / "skills", "good")
    (tmp_path / "skills" / "misnamed").mkdir()
    (tmp_path / "skills" / "misnamed" / "skill.md").write_text("---\nname: m\n---\n")
    checked = check_paths([tmp_path / "skills"])
    assert [(c.path.name, c.ok, [d.code for d in c.diagnostics]) for c in checked] == [
        ("good", True, []),
        ("skill.md", False, ["skill.file.misnamed"]),
    ]


def test_validating_an_empty_directory_is_a_problem_not_a_pass(tmp_path):
    from satchel.skills._check import check_paths

    (tmp_path / "empty").mkdir()
    [checked] = check_paths([tmp_path / "empty"])
    assert not checked.ok
    assert [d.message for d in checked.diagnostics] == ["no SKILL.md here or in a subdirectory"]

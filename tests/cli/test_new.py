"""`satchel new skill NAME`: a scaffold that strict validation refuses until its TODO
description is replaced; never overwrites."""

from __future__ import annotations

from satchel.cli.new import PLACEHOLDER


def test_the_scaffold_fails_strict_validation_until_its_description_is_written(
    satchel, project, home
):
    result = satchel("new", "skill", "deploy-preview", "--project", project, "--json")
    path = project / ".satchel/skills/deploy-preview/SKILL.md"
    assert result.code == 0
    assert result.json() == {"version": 1, "path": str(path), "diagnostics": []}
    check = satchel("validate", "--strict", "--json", path.parent).json()
    assert [(d["code"], d["severity"], d["message"]) for d in check["diagnostics"]] == [
        (
            "skill.description.placeholder",
            "error",
            "the description 'TODO: say what this skill does and when an agent should use it.' "
            "is a placeholder, not one a model could choose the skill by",
        )
    ]
    assert satchel("validate", "--strict", path.parent).code == 1
    lenient = satchel("validate", path.parent)
    assert lenient.code == 0  # a warning: the skill loads while it is being written
    assert "warning skill.description.placeholder" in lenient.out
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(PLACEHOLDER, "Deploy a preview. Use when asked to."))
    check = satchel("validate", "--strict", path.parent)
    assert check.code == 0
    assert check.out.startswith("ok    deploy-preview")
    listed = satchel("list", "--project", project, "--home", home, "--json").json()
    assert [s["name"] for s in listed["skills"]] == ["deploy-preview"]


def test_description_and_dir_options(satchel, tmp_path):
    result = satchel(
        "new", "skill", "triage", "--dir", tmp_path / "skills", "--description", "Sort bugs."
    )
    path = tmp_path / "skills/triage/SKILL.md"
    assert result.code == 0
    assert path.read_text(encoding="utf-8").startswith(
        "---\nname: triage\ndescription: Sort bugs.\n---\n\n# triage\n"
    )
    assert "created " in result.out


def test_default_dir_follows_the_client(satchel, project):
    assert satchel("new", "skill", "triage", "--project", project, "--client", "mermaid").code == 0
    assert (project / ".mermaid/skills/triage/SKILL.md").is_file()


def test_invalid_name_is_refused_with_its_diagnostics(satchel, tmp_path):
    result = satchel("new", "skill", "Deploy_Preview", "--dir", tmp_path)
    assert result.code == 1
    assert result.out == ""
    assert result.err.startswith(
        "satchel: cli.skill.invalid: cannot create a skill named 'Deploy_Preview'\n"
    )
    assert "skill.name.invalid" in result.err
    assert "must be lowercase" in result.err
    assert list(tmp_path.iterdir()) == []


def test_invalid_name_as_json(satchel, tmp_path):
    result = satchel("new", "skill", "pdf--forms", "--dir", tmp_path, "--json")
    assert result.code == 1
    doc = result.json()
    assert doc["version"] == 1
    assert (doc["error"]["code"], doc["error"]["message"]) == (
        "cli.skill.invalid",
        "cannot create a skill named 'pdf--forms'",
    )
    assert doc["diagnostics"][0]["code"] == "skill.name.invalid"


def test_existing_skill_is_not_overwritten(satchel, tmp_path):
    target = tmp_path / "deploy/SKILL.md"
    target.parent.mkdir()
    target.write_text("mine\n", encoding="utf-8")
    result = satchel("new", "skill", "deploy", "--dir", tmp_path)
    assert result.code == 1
    assert "satchel: cli.skill.exists: " in result.err
    assert "already exists; not overwriting it" in result.err
    assert target.read_text(encoding="utf-8") == "mine\n"


def test_unwritable_dir_is_a_problem_not_a_bug(satchel, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result = satchel("new", "skill", "deploy", "--dir", blocker / "skills")
    assert result.code == 1
    assert result.err.startswith("satchel: ")
    assert "internal error" not in result.err


def test_default_dir_is_in_the_git_root_above_the_cwd(satchel, project, monkeypatch):
    nested = project / "src"
    nested.mkdir()
    monkeypatch.chdir(nested)
    result = satchel("new", "skill", "triage")
    assert result.code == 0
    assert result.err == ""
    assert (project / ".satchel/skills/triage/SKILL.md").is_file()
    assert result.out.splitlines()[0] == f"created {project / '.satchel/skills/triage/SKILL.md'}"

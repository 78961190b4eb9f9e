"""define_skill / write_skill follow the spec strictly; `new skill` builds on them."""

from __future__ import annotations

import pytest

import satchel


def test_define_skill_validates_strictly():
    with pytest.raises(satchel.SkillDefinitionError) as raised:
        satchel.define_skill("Bad_Name", "d")
    assert [(d.code, d.message) for d in raised.value.diagnostics] == [
        ("skill.name.invalid", "the name 'Bad_Name' must be lowercase")
    ]


def test_define_skill_requires_a_description():
    with pytest.raises(satchel.SkillDefinitionError) as raised:
        satchel.define_skill("good", "")
    assert [d.code for d in raised.value.diagnostics] == ["skill.description.missing"]


def test_written_skill_passes_strict_validation_and_round_trips(tmp_path):
    skill = satchel.define_skill(
        "pdf-forms",
        "Fill PDF forms: reads fields, writes values. Use when: a form is given.",
        "# PDF forms\n\nRun `scripts/fill.py`.\n",
        license="Apache-2.0",
        compatibility="Needs python3 and pypdf",
        metadata={"version": "1.0", "author": "docs"},
        allowed_tools=["Read", "Bash(python3:*)"],
    )
    path = satchel.write_skill(tmp_path, skill)
    assert path == tmp_path / "pdf-forms" / "SKILL.md"
    parsed, diags = satchel.parse_skill(path, strict=True)
    assert diags == ()
    assert parsed is not None
    assert parsed.to_json() | {"path": None} == skill.to_json()
    assert parsed.body() == "# PDF forms\n\nRun `scripts/fill.py`."


def test_write_skill_refuses_a_name_that_would_leave_the_directory(tmp_path):
    evil = satchel.Skill(name="../escape", description="d")
    with pytest.raises(ValueError, match="cannot write a skill"):
        satchel.write_skill(tmp_path, evil)
    assert list(tmp_path.iterdir()) == []


def test_render_skill_md_quotes_what_yaml_needs_quoted():
    skill = satchel.define_skill("a", "yes", metadata={"v": "1.0"})
    text = satchel.render_skill_md(skill)
    assert text == "---\nname: a\ndescription: 'yes'\nmetadata:\n  v: '1.0'\n---\n"

"""The index: three formats (golden files), caps, and what is left out."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from satchel import Skill, render_index
from satchel.index._render import FORMATS, listing_description
from tests.support import check_golden


def skills(n: int, base: Path = Path("/skills")) -> list[Skill]:
    return [
        Skill(
            name=f"skill-{i:03}",
            description=f"Does task number {i} & handles <edge> cases.",
            path=base / f"skill-{i:03}" / "SKILL.md",
        )
        for i in range(n)
    ]


REFUND = Skill(
    name="refund-policy",
    description="The refund window, the exceptions, and who may approve one.",
    path=Path("/ws/.agents/skills/refund-policy/SKILL.md"),
)


def test_tool_format_is_cavemans_exact_text():
    assert render_index([REFUND]) == (
        "Skills available to this agent. Load one only when its description matches the task.\n"
        'Call load_skill({"name":"<skill>"}) for instructions. '
        "Use its resource argument for referenced files.\n"
        "- refund-policy: The refund window, the exceptions, and who may approve one.\n"
    )


def test_tool_name_is_configurable():
    text = render_index([REFUND], tool_name="skills_use")
    assert 'Call skills_use({"name":"<skill>"})' in text


@pytest.mark.parametrize("fmt", ["tool", "xml", "paths"])
def test_formats_match_their_golden_files(fmt):
    check_golden(f"index/{fmt}.txt", render_index(skills(3), format=fmt))


def test_no_skills_no_text():
    for fmt in ("tool", "xml", "paths"):
        assert render_index([], format=fmt) == ""


def test_caps_at_64_skills_with_a_last_line_saying_how_many_were_left_out():
    text = render_index(skills(70), max_bytes=1 << 20)
    lines = text.splitlines()
    assert lines[-1] == "(6 more skills not listed: index limit reached)"
    assert sum(line.startswith("- ") for line in lines) == 64


def test_caps_at_8_kib_by_default():
    text = render_index(skills(200))
    assert len(text.encode()) <= 8 * 1024
    listed = sum(line.startswith("- ") for line in text.splitlines())
    assert text.splitlines()[-1] == f"({200 - listed} more skills not listed: index limit reached)"


def test_byte_cap_counts_the_omission_line():
    for cap in range(200, 1200, 37):
        text = render_index(skills(40), max_bytes=cap, format="paths")
        assert len(text.encode()) <= cap or text.count("\n- ") == 0


def test_xml_omission_is_a_comment_after_the_block():
    text = render_index(skills(5), format="xml", max_skills=2)
    assert text.endswith(
        "</available_skills>\n<!-- 3 more skills not listed: index limit reached -->\n"
    )


def test_order_is_kept():
    names = [s.name for s in skills(5)][::-1]
    text = render_index(list(reversed(skills(5))))
    assert [line[2:].split(":")[0] for line in text.splitlines() if line.startswith("- ")] == names


def test_descriptions_are_one_line():
    skill = Skill(name="a", description="line one\n  line two\n")
    assert "- a: line one line two\n" in render_index([skill])


@pytest.mark.parametrize("flag", [True, "true", "yes", 1])
def test_skills_that_disable_model_invocation_are_hidden(flag):
    hidden = Skill(name="secret", description="d", extras={"disable-model-invocation": flag})
    assert render_index([hidden]) == ""
    assert "secret" not in render_index([hidden, REFUND])


def test_a_mapping_renders_its_values():
    assert render_index({"refund-policy": REFUND}) == render_index([REFUND])


def test_unknown_format_is_a_value_error():
    with pytest.raises(ValueError, match="unknown index format 'json'"):
        render_index([REFUND], format="json")  # type: ignore[arg-type]


def test_token_bill_counts_each_segment():
    text = render_index([REFUND])
    assert satchel.token_bill({"skills": text}) == {"skills": -(-len(text) // 4)}
    assert satchel.token_bill({"skills": text}, counter=lambda t: len(t.split())) == {
        "skills": len(text.split())
    }


def test_invisible_characters_are_left_out_of_the_index():
    sneaky = Skill(name="a", description="Safe\u202e text\U000e0041\U000e0042 here\x1b[2J.")
    assert "- a: Safe text here[2J.\n" in render_index([sneaky])


def test_an_index_whose_header_does_not_fit_is_empty():
    assert render_index(skills(3), max_bytes=50) == ""


def test_xml_omits_the_location_of_a_skill_with_no_file():
    hosted = Skill(name="hosted", description="From the host.")
    assert "<location>" not in render_index([hosted], format="xml")
    assert "path:" not in render_index([hosted], format="paths")


def test_xml_escapes_only_what_xml_needs():
    skill = Skill(name="a", description='Don\'t <break> "this" & that')
    assert '<description>Don\'t &lt;break&gt; "this" &amp; that</description>' in render_index(
        [skill], format="xml"
    )


def test_each_skill_past_max_skills_is_named_in_a_warning_with_the_cap():
    index = satchel.build_index(skills(66), max_bytes=1 << 20)

    assert [s.name for s in index.omitted] == ["skill-064", "skill-065"]
    assert (index.cut_by, index.limit, len(index.listed)) == ("max_skills", 64, 64)
    assert [(d.code, d.severity, d.message, d.path) for d in index.diagnostics] == [
        (
            "skill.index.omitted",
            "warning",
            f"skill 'skill-{i:03}' is not in the index: the index lists at most 64 skills "
            "(max_skills)",
            Path(f"/skills/skill-{i:03}/SKILL.md"),
        )
        for i in (64, 65)
    ]


def test_each_skill_past_max_bytes_is_named_in_a_warning_with_the_cap():
    # the documented order: shortened, then name-only, then left out (docs/runtime.md)
    index = satchel.build_index(skills(200), max_skills=1000, max_bytes=1000)
    listed = sum(line.startswith("- ") for line in index.text.splitlines())

    assert len(index.listed) == listed < 200
    assert index.name_only == index.listed
    assert [s.name for s in index.omitted] == [f"skill-{i:03}" for i in range(listed, 200)]
    omitted = [d for d in index.diagnostics if d.code == "skill.index.omitted"]
    assert omitted[0].message == (
        f"skill 'skill-{listed:03}' is not in the index: the index holds at most 1,000 bytes "
        "(max_bytes)"
    )
    assert len(omitted) == 200 - listed
    assert (index.cut_by, index.limit) == ("max_bytes", 1000)


def test_an_index_with_room_for_everyone_warns_about_no_one():
    index = satchel.build_index(skills(3))
    assert (index.omitted, index.cut_by, index.diagnostics) == ((), None, ())
    assert index.text == render_index(skills(3))


def test_hidden_skills_are_not_cut_they_are_hidden():
    hidden = Skill(name="secret", description="x", extras={"disable-model-invocation": True})
    index = satchel.build_index([*skills(64), hidden], max_bytes=1 << 20)
    assert index.diagnostics == ()


def test_when_to_use_follows_the_description_as_claude_code_joins_it():
    # Claude Code 2.1.332 lists `${description} - ${whenToUse}` (its skill listing)
    skill = Skill(
        name="deploy",
        description="Deploy the web app.",
        when_to_use="When the user says ship it\nor deploy.",
    )
    assert listing_description(skill) == (
        "Deploy the web app. - When the user says ship it\nor deploy."
    )
    for fmt in FORMATS:
        check_golden(f"index/when-to-use-{fmt}.txt", render_index([skill], format=fmt))

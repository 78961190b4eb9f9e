"""`list_skills` and `search_skills`: offered, and named by the index's last line, only
when the index leaves skills out; `context(query=...)` ranks the index by the message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import satchel
from satchel.index._render import MAX_SKILLS
from satchel.session import Session
from tests.support import check_golden, put, session, skill_md

LINE = (
    'More skills are installed than this index lists: call search_skills({"query":'
    '"<what the task needs>"}) to find one by its description, or list_skills to see them all.'
)


def _catalogue(project: Path, count: int) -> None:
    root = project / ".agents" / "skills"
    for i in range(count):
        put(root / f"tool-{i:03}" / "SKILL.md", skill_md(f"tool-{i:03}", f"Handles chore {i}."))
    put(
        root / "zz-invoices" / "SKILL.md",
        skill_md("zz-invoices", "Reads supplier invoices.", when_to_use="when a bill arrives"),
    )


@pytest.fixture
def many(layout: satchel.Layout, project: Path) -> Session:
    _catalogue(project, MAX_SKILLS)  # one more than the index lists
    return session(satchel.load(layout=layout))


@pytest.fixture
def few(layout: satchel.Layout, project: Path) -> Session:
    _catalogue(project, 2)
    return session(satchel.load(layout=layout))


def _index(s: Session, query: str | None = None) -> str:
    return next(c.text for c in s.context(query=query) if c.id == "agent.skills")


def test_a_cut_index_offers_the_search_tools_and_says_so(many):
    assert [t.name for t in many.tools()] == ["load_skill", "list_skills", "search_skills"]
    text = _index(many)
    assert text.endswith(f"(1 more skill not listed: index limit reached)\n{LINE}\n")
    assert "zz-invoices" not in text


def test_an_index_that_lists_every_skill_has_neither_tools_nor_line(few):
    assert [t.name for t in few.tools()] == ["load_skill"]
    assert "search_skills" not in _index(few)


def test_the_xml_index_names_the_search_tools_too(layout, project):
    _catalogue(project, MAX_SKILLS)
    s = session(satchel.load(layout=layout), tools="skills")
    assert [t.name for t in s.tools()][-2:] == ["list_skills", "search_skills"]
    assert _index(s).endswith(f"-->\n{LINE}\n")
    assert "skills_use" in s.tools()[-1].description


def test_search_skills_finds_a_skill_the_index_left_out(many):
    result = many.call("search_skills", {"query": "a supplier bill came in"})
    check_golden("session/search_skills.json", result.text + "\n")
    assert json.loads(result.text)["skills"][0]["name"] == "zz-invoices"
    assert not result.is_error
    assert many.call("load_skill", {"name": "zz-invoices"}).text.startswith(
        '<skill_content name="zz-invoices">'
    )


def test_search_skills_returns_at_most_max_results_most_relevant_first(many):
    found = json.loads(many.call("search_skills", {"query": "chore", "max_results": 3}).text)
    assert [s["name"] for s in found["skills"]] == ["tool-000", "tool-001", "tool-002"]
    nothing = json.loads(many.call("search_skills", {"query": "zebra"}).text)
    assert nothing == {"query": "zebra", "skills": []}


def test_list_skills_pages_every_skill_in_precedence_order(many):
    first = json.loads(many.call("list_skills").text)
    assert (first["total"], first["next_offset"], len(first["skills"])) == (65, None, 65)
    assert first["skills"][-1] == {
        "name": "zz-invoices",
        "description": "Reads supplier invoices. - when a bill arrives",
    }
    last = json.loads(many.call("list_skills", {"offset": 64}).text)
    assert [s["name"] for s in last["skills"]] == ["zz-invoices"]


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        ("search_skills", {}, "'query' must be a non-empty string"),
        ("search_skills", {"query": " "}, "'query' must be a non-empty string"),
        (
            "search_skills",
            {"query": "x", "max_results": 0},
            "'max_results' must be a whole number from 1 to 50",
        ),
        ("list_skills", {"offset": -1}, "'offset' must be a whole number, 0 or more"),
        ("list_skills", {"offset": True}, "'offset' must be a whole number, 0 or more"),
    ],
)
def test_bad_arguments_are_error_results(many, tool, arguments, message):
    result = many.call(tool, arguments)
    assert (result.is_error, result.code) == (True, "session.tool.arguments")
    assert result.text == f"Error (session.tool.arguments): {message}"


def test_context_with_a_query_lists_the_relevant_skills_first(many):
    text = _index(many, "a supplier bill came in")
    entries = [line for line in text.splitlines() if line.startswith("- ")]
    assert entries[0] == "- zz-invoices: Reads supplier invoices. - when a bill arrives"
    assert "tool-063" not in text  # the last in precedence order is the one cut now
    assert _index(many).count("- tool-") == MAX_SKILLS  # without a query: precedence


def test_the_search_tools_follow_tool_names_and_can_be_turned_off(layout, project):
    _catalogue(project, MAX_SKILLS)
    env = satchel.load(layout=layout)
    renamed = session(env, tool_names={"search_skills": "find_skill", "list_skills": "all_skills"})
    assert [t.name for t in renamed.tools()] == ["load_skill", "all_skills", "find_skill"]
    assert 'call find_skill({"query"' in _index(renamed)
    assert not renamed.call("find_skill", {"query": "invoices"}).is_error
    off = session(env, skill_search=False)
    assert [t.name for t in off.tools()] == ["load_skill"]
    assert _index(off).endswith("(1 more skill not listed: index limit reached)\n")


def test_two_tools_of_one_name_are_refused():
    with pytest.raises(ValueError, match="tool_names gives two tools one name"):
        satchel.SessionOptions.build(tool_names={"search_skills": "load_skill"})


def test_the_cut_index_matches_its_golden_file(many):
    check_golden("session/index-cut.txt", _index(many))


def test_the_line_takes_its_bytes_from_the_index_budget(layout, project):
    # Past the byte bound every entry is first shortened, then name-only, then left out:
    # with 1,500 bytes, 60 long names cannot all be listed even by name.
    root = project / ".agents" / "skills"
    for i in range(60):
        name = f"a-skill-with-a-long-name-{i:02}"
        put(root / name / "SKILL.md", skill_md(name, "word " * 100))
    budget = satchel.Budget(bytes=1500)
    text = _index(session(satchel.load(layout=layout), index_budget=budget))
    assert text.endswith(f"{LINE}\n")
    assert 1500 - 100 < len(text.encode()) <= 1500  # the bound, nearly filled

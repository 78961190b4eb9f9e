"""Vibe connectors.json (Vibe's connector rules): ids, tool names, limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from satchel.plugins.components._connectors import load_connectors
from tests.plugins.helpers import write_json_file
from tests.support import codes, put

EXAMPLE = {
    "schemaVersion": 1,
    "connectors": [
        {"id": "github", "tools": ["create_issue", "list_issues"]},
        {"id": "linear", "tools": ["create_issue"]},
    ],
}


def load(root: Path, doc: Any):
    return load_connectors(write_json_file(root / "connectors.json", doc), "demo")


def connectors(*entries: Any) -> dict[str, Any]:
    return {"schemaVersion": 1, "connectors": list(entries)}


def refused(root: Path, doc: Any) -> list[str]:
    found, diags = load(root, doc)
    assert found == ()
    assert set(codes(diags)) == {"plugin.connectors.invalid"}
    assert all(d.message.endswith("; no connector of this plugin loads") for d in diags)
    assert {d.path for d in diags} == {root / "connectors.json"}
    return [d.message for d in diags]


def test_the_vibe_guide_example_loads(root):
    found, diags = load(root, EXAMPLE)
    assert diags == []
    assert [(c.id, c.tools, c.plugin) for c in found] == [
        ("github", ("create_issue", "list_issues"), "demo"),
        ("linear", ("create_issue",), "demo"),
    ]


def test_a_missing_file_is_no_error(root):
    assert load_connectors(root / "connectors.json", "demo") == ((), [])


def test_tools_may_be_omitted_or_empty(root):
    found, diags = load(root, connectors({"id": "a"}, {"id": "b", "tools": []}))
    assert diags == [] and [c.tools for c in found] == [(), ()]


def test_connector_ids_are_unique(root):
    messages = refused(root, connectors({"id": "github"}, {"id": "github", "tools": ["x"]}))
    assert messages == [
        "connector #2: the id 'github' is used twice; no connector of this plugin loads"
    ]


def test_tool_names_are_unique_per_connector(root):
    messages = refused(root, connectors({"id": "github", "tools": ["a", "b", "a"]}))
    assert messages == [
        "connector #1: 'github': tool 'a' is listed twice; no connector of this plugin loads"
    ]


def test_the_same_tool_in_two_connectors_is_fine(root):
    found, diags = load(root, EXAMPLE)
    assert diags == [] and len(found) == 2


@pytest.mark.parametrize(("size", "ok"), [(1, True), (256, True), (257, False), (0, False)])
def test_tool_names_are_1_to_256_characters(root, size, ok):
    doc = connectors({"id": "x", "tools": ["t" * size]})
    if ok:
        assert load(root, doc)[0][0].tools == ("t" * size,)
    else:
        assert refused(root, doc) == [
            f"connector #1: 'x': tool #1 is {size} characters; tool names are 1-256; "
            "no connector of this plugin loads"
        ]


def test_128_connectors_load(root):
    found, diags = load(root, connectors(*({"id": f"c{i}"} for i in range(128))))
    assert diags == [] and len(found) == 128


def test_129_connectors_load_none(root):
    messages = refused(root, connectors(*({"id": f"c{i}"} for i in range(129))))
    assert messages == [
        "129 connectors are declared; the limit is 128; no connector of this plugin loads"
    ]


def test_every_problem_is_reported(root):
    messages = refused(
        root,
        connectors({"id": "a", "tools": ["", 5]}, {"id": ""}, "x", {"id": "b", "url": "https://x"}),
    )
    assert [m.split(";")[0] for m in messages] == [
        "connector #1: 'a': tool #1 is 0 characters",
        "connector #1: 'a': tool #2 must be a string, not a number",
        "connector #2: id must be a non-blank string",
        "connector #3: must be an object, not a string",
        "connector #4: unknown field 'url'",
    ]


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ([], "connectors.json must be a JSON object, not a list"),
        ({"connectors": []}, "it has no schemaVersion"),
        ({"schemaVersion": "1", "connectors": []}, "schemaVersion must be 1, not '1'"),
        ({"schemaVersion": 1, "connectors": {}}, "connectors must be a list, not a mapping"),
        ({"schemaVersion": 1, "connectors": [], "extra": 1}, "unknown top-level field 'extra'"),
        (
            connectors({"id": "a", "tools": "x"}),
            "connector #1: 'a': tools must be a list, not a string",
        ),
    ],
)
def test_a_bad_file(root, doc, words):
    assert refused(root, doc) == [f"{words}; no connector of this plugin loads"]


def test_invalid_json(root):
    found, diags = load_connectors(put(root / "connectors.json", "{\n\n]"), "demo")
    assert found == () and diags[0].line == 3 and codes(diags) == ["plugin.connectors.invalid"]


def test_a_symlink_out_of_the_plugin_is_not_read(root, tmp_path):
    outside = write_json_file(tmp_path / "c.json", EXAMPLE)
    (root / "connectors.json").symlink_to(outside)
    found, diags = load_connectors(root / "connectors.json", "demo")
    assert found == () and codes(diags) == ["plugin.path.outside_root"]

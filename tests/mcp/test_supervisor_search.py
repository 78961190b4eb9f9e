"""MCP tool search: past the token budget the model gets `search_tools` and the tools'
names, a search loads the tools it finds, and those are then listed and callable
(Claude Code's MCP tool search, docs/mcp.md "Tool search")."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import satchel
from satchel.runtime.mcp import BlockingSupervisor, McpTool, ToolSearch
from satchel.runtime.mcp._deferral import DEFAULT_BUDGET
from satchel.trust._trust import trust

from .supervisor_support import SERVERS, load, script, stdio, supervisor, write_plugin

ECHO, CALLS, LAUNCH, LOOKUP = (
    f"mcp__plugin_kit_api__{n}" for n in ("echo", "calls", "launch", "lookup")
)


@pytest.fixture(scope="module")
def mcp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BlockingSupervisor]:
    """One real server (the SDK fixture over stdio) for the whole module."""
    base = tmp_path_factory.mktemp("search")
    project, home = base / "project", base / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    layout = satchel.Layout.default(project, home=home, env={})
    trust(layout, project)
    root = write_plugin(project, "kit", {})
    write_plugin(project, "kit", {"api": stdio(script(root, "server", SERVERS / "sdk_server.py"))})
    with supervisor(load(layout)).blocking() as running:
        yield running


def test_under_the_budget_every_tool_is_listed_in_full(mcp):
    search = mcp.tool_search()
    assert not search.deferred
    assert search.tokens <= DEFAULT_BUDGET
    assert [d["name"] for d in search.definitions()] == [ECHO, CALLS, LAUNCH, LOOKUP]
    assert search.pending == ()


def test_past_the_budget_a_search_loads_the_tools_it_finds(mcp):
    search = mcp.tool_search(budget=0)
    assert search.deferred
    [only] = search.definitions()
    assert only["name"] == "search_tools"
    assert only["description"].endswith(f"Not loaded yet: {ECHO}, {CALLS}, {LAUNCH}, {LOOKUP}.")
    assert not search.is_loaded(LOOKUP)

    answer = search.call({"query": "look something up", "max_results": 1})
    assert answer == {
        "query": "look something up",
        "tools": [
            {
                "name": LOOKUP,
                "description": "Look something up.",
                "input_schema": dict(next(t for t in mcp.tools if t.name == LOOKUP).input_schema),
            }
        ],
    }
    assert search.is_loaded(LOOKUP)
    assert [d["name"] for d in search.definitions()] == [LOOKUP, "search_tools"]
    assert search.pending == (ECHO, CALLS, LAUNCH)
    called = mcp.call_tool(LOOKUP, {"query": "x"})
    assert (called.text, called.is_error) == ("found x", False)


def test_select_loads_tools_by_name(mcp):
    search = mcp.tool_search(budget=0)
    answer = search.call({"query": f"select:{ECHO}, nope ,{CALLS}"})
    assert [t["name"] for t in answer["tools"]] == [ECHO, CALLS]
    assert json.loads(json.dumps(answer)) == answer  # JSON the model reads
    assert search.pending == (LAUNCH, LOOKUP)


def _tool(name: str, description: str, exposure: str = "direct_and_programmatic") -> McpTool:
    return McpTool(f"mcp__s__{name}", name, "s", None, description, exposure=exposure)  # type: ignore[arg-type]


def test_budget_none_never_defers_and_programmatic_tools_are_not_offered():
    tools = [_tool("a", "x" * 10_000), _tool("b", "Hidden.", "programmatic")]
    search = ToolSearch(tools, budget=None)
    assert (search.deferred, [d["name"] for d in search.definitions()]) == (False, ["mcp__s__a"])
    assert ToolSearch(tools, budget=10).deferred


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({}, "'query' must be a non-empty string"),
        ({"query": "  "}, "'query' must be a non-empty string"),
        ({"query": "a", "max_results": 0}, "'max_results' must be a whole number, 1 or more"),
        ({"query": "a", "max_results": True}, "'max_results' must be a whole number, 1 or more"),
    ],
)
def test_bad_search_arguments_are_an_error_object(arguments, error):
    assert ToolSearch([_tool("a", "A.")], budget=0).call(arguments) == {"error": error}


def test_a_negative_budget_is_refused():
    with pytest.raises(ValueError, match="budget must be 0 or more tokens"):
        ToolSearch([], budget=-1)


def test_a_query_matching_nothing_loads_nothing():
    search = ToolSearch([_tool("deploy", "Ship it.")], budget=0)
    assert search.call({"query": "zebra"}) == {"query": "zebra", "tools": []}
    assert search.pending == ("mcp__s__deploy",)

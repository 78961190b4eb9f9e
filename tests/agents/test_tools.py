"""The tool-name table (mermaid's), canonical pass-through and the read_only ceiling."""

from __future__ import annotations

import pytest

from satchel.agents import (
    CANONICAL_TOOLS,
    DEFAULT_TOOL_MAP,
    VIBE_KNOWN,
    VIBE_TOOLS,
    can_write,
    map_tools,
    safety_ceiling,
)

SEARCH = ("read_file", "execute_command")
EDIT = ("edit_file", "apply_patch", "write_file")
WEB = ("web_fetch", "web_search", "mcp")


@pytest.mark.parametrize(
    ("claude", "canonical"),
    [
        ("Read", ("read_file",)),
        ("Grep", SEARCH),
        ("Glob", SEARCH),
        ("LS", SEARCH),
        ("Edit", EDIT),
        ("MultiEdit", EDIT),
        ("Write", ("write_file", "create_directory")),
        ("Bash", ("execute_command",)),
        ("WebFetch", WEB),
        ("WebSearch", WEB),
        ("mcp__github__create_issue", WEB),
        ("mcp__fs", WEB),
    ],
)
def test_each_claude_name_maps_as_mermaid_maps_it(claude, canonical):
    assert map_tools([claude]) == (canonical, ())


def test_the_table_is_exactly_mermaids():
    assert set(DEFAULT_TOOL_MAP) == {
        "Read", "Grep", "Glob", "LS", "Edit", "MultiEdit", "Write", "Bash",
        "WebFetch", "WebSearch", "mcp__*",
    }  # fmt: skip


@pytest.mark.parametrize("name", CANONICAL_TOOLS)
def test_canonical_names_pass_through(name):
    assert map_tools([name]) == ((name,), ())


@pytest.mark.parametrize("name", ["edit", "bash", "grep", "search_replace", "todo", "read"])
def test_other_snake_case_names_are_unknown_by_default(name):
    assert map_tools([name]) == ((name,), (name,))


@pytest.mark.parametrize("name", [*VIBE_TOOLS, *CANONICAL_TOOLS])
def test_vibes_own_names_pass_through_with_the_vibe_set(name):
    assert map_tools([name], known=VIBE_KNOWN) == ((name,), ())


def test_the_vibe_set_still_reports_other_names():
    assert map_tools(["grep", "edit", "github_create_issue"], known=VIBE_KNOWN) == (
        ("grep", "edit", "github_create_issue"),
        ("edit", "github_create_issue"),
    )


def test_a_rule_on_a_known_name_passes_by_its_tool():
    assert map_tools(["bash(git status)"], known=VIBE_KNOWN) == (("bash",), ())


def test_the_names_a_host_table_maps_to_are_known():
    table = {"Read": ("view",)}
    assert map_tools(["view", "Read", "read_file", "edit"], table) == (
        ("view", "read_file", "edit"),
        ("edit",),
    )


@pytest.mark.parametrize("name", ["TodoWrite", "NotebookEdit", "Task", "KillBash", "*"])
def test_other_names_are_kept_as_written_and_reported(name):
    assert map_tools([name]) == ((name,), (name,))


def test_result_is_deduplicated_in_first_seen_order():
    tools, unknown = map_tools(["Grep", "Read", "Glob", "Edit", "Write", "TodoWrite", "TodoWrite"])
    assert tools == (
        "read_file", "execute_command", "edit_file", "apply_patch", "write_file",
        "create_directory", "TodoWrite",
    )  # fmt: skip
    assert unknown == ("TodoWrite",)


def test_a_rule_maps_by_its_tool():
    assert map_tools(["Bash(git status:*)"]) == (("execute_command",), ())
    assert map_tools(["Task(worker)"]) == (("Task(worker)",), ("Task(worker)",))


def test_the_host_can_replace_the_table():
    table = {"Read": ("view",), "Shell": ("run",), "x_*": ("ext",)}
    assert map_tools(["Read", "Shell", "x_one", "x_two", "Grep"], table) == (
        ("view", "run", "ext", "Grep"),
        ("Grep",),
    )


def test_the_longest_prefix_wins():
    table = {"mcp__*": ("mcp",), "mcp__web__*": ("web_fetch",)}
    assert map_tools(["mcp__web__get", "mcp__db__q"], table) == (("web_fetch", "mcp"), ())


@pytest.mark.parametrize(
    ("tools", "ceiling"),
    [
        (["Grep", "Glob", "Read"], "read_only"),
        (["Grep", "Glob", "Read", "Bash"], None),
        (["Read", "Edit"], None),
        (["Read", "MultiEdit"], None),
        (["Write"], None),
        (["NotebookEdit"], None),
        (["Bash(git log:*)"], None),
        (["read_file", "execute_command"], None),  # a shell given directly can write
        (["read_file", "apply_patch"], None),
        (["create_directory"], None),
        (["read_file", "grep"], "read_only"),
        (["bash"], None),  # Vibe's shell
        (["WebFetch", "mcp__db__query", "TodoWrite", "NotebookRead"], "read_only"),
        ([], "read_only"),
        (None, None),  # omitted: inherits every tool, no ceiling
    ],
)
def test_the_read_only_ceiling_is_judged_on_the_tools_as_written(tools, ceiling):
    assert safety_ceiling(None if tools is None else tuple(tools)) == ceiling


def test_can_write_takes_another_write_set():
    assert can_write(["Shell"], {"Shell"})
    assert not can_write(["Bash"], {"Shell"})

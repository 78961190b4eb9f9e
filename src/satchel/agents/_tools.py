"""Tool names: Claude Code's mapped to satchel's canonical ones, and the write test.

The mapping is data (mermaid's table). A host with other tool names passes its own
table to `map_tools`; a key ending in ``*`` matches every name with that prefix.

A name the table does not map passes through silently only when it is known: one of
`CANONICAL_TOOLS` or a name the table maps to (the host's own tool names). Anything
else, a typo like ``edit`` included, is kept as written and reported as unknown.

Vibe files name Vibe's own tools (`VIBE_TOOLS`: ``bash``, ``grep``, ``read_file``,
``search_replace``, ``write_file``, ``todo``...), which Vibe checks against its live
config. The Vibe format passes `VIBE_KNOWN` (canonical plus Vibe's built-in names)
as the known set, so those names pass through as written, without an info; Claude
Code and bundle agents use the canonical set only. A Vibe MCP tool
(``<server>_<tool>``) is not in the set and gets the info, as any other name would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

__all__ = [
    "base_name",
    "can_write",
    "CANONICAL_TOOLS",
    "DEFAULT_TOOL_MAP",
    "map_tools",
    "safety_ceiling",
    "VIBE_KNOWN",
    "VIBE_TOOLS",
    "WRITE_TOOLS",
]

CANONICAL_TOOLS = (
    "read_file", "execute_command", "edit_file", "apply_patch", "write_file",
    "create_directory", "web_fetch", "web_search", "mcp",
)  # fmt: skip
# Vibe's built-in tools, as its agent files name them.
VIBE_TOOLS = (
    "bash", "grep", "read_file", "write_file", "search_replace", "todo", "task",
    "ask_user_question", "web_fetch", "web_search",
)  # fmt: skip
VIBE_KNOWN = frozenset((*CANONICAL_TOOLS, *VIBE_TOOLS))

_SEARCH = ("read_file", "execute_command")
_EDIT = ("edit_file", "apply_patch", "write_file")
_WEB = ("web_fetch", "web_search", "mcp")

DEFAULT_TOOL_MAP: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "Read": ("read_file",),
        "Grep": _SEARCH,
        "Glob": _SEARCH,
        "LS": _SEARCH,
        "Edit": _EDIT,
        "MultiEdit": _EDIT,
        "Write": ("write_file", "create_directory"),
        "Bash": ("execute_command",),
        "WebFetch": _WEB,
        "WebSearch": _WEB,
        "mcp__*": _WEB,
    }
)

# Names that can change files, judged as written: Claude Code's (NotebookEdit
# writes notebooks), satchel's canonical ones, and Vibe's shell and editor.
WRITE_TOOLS = frozenset(
    (
        "Edit", "MultiEdit", "Write", "Bash", "NotebookEdit",
        "edit_file", "apply_patch", "write_file", "create_directory", "execute_command",
        "bash", "search_replace",
    )
)  # fmt: skip


def base_name(tool: str) -> str:
    """The tool a rule names: ``Bash(git status:*)`` is ``Bash``."""
    paren = tool.find("(")
    return tool[:paren].strip() if paren > 0 else tool


def map_tools(
    names: Iterable[str],
    table: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
    known: Iterable[str] = CANONICAL_TOOLS,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(tools, unknown names): each name mapped through `table`; a name in `known`
    or one the table maps to passed through; anything else kept as written and
    listed as unknown. Both are deduplicated, in first-seen order."""
    prefixes = sorted((k[:-1] for k in table if k.endswith("*")), key=len, reverse=True)
    passing = {*known, *(tool for mapped in table.values() for tool in mapped)}
    tools: dict[str, None] = {}
    unknown: dict[str, None] = {}
    for name in names:
        mapped = _lookup(name, table, prefixes)
        if mapped is not None:
            tools.update(dict.fromkeys(mapped))
        elif base_name(name) in passing:
            tools[base_name(name)] = None
        else:
            tools[name] = None
            unknown[name] = None
    return tuple(tools), tuple(unknown)


def _lookup(
    name: str, table: Mapping[str, Sequence[str]], prefixes: Sequence[str]
) -> Sequence[str] | None:
    """What `table` maps `name` to: the name itself, its base name (a rule like
    ``Bash(git:*)``), or the longest matching ``prefix*`` key; None for none."""
    base = base_name(name)
    mapped = table.get(name)
    if mapped is None:
        mapped = table.get(base)
    if mapped is None:
        prefix = next((p for p in prefixes if base.startswith(p)), None)
        mapped = None if prefix is None else table[prefix + "*"]
    return mapped


def can_write(names: Iterable[str], write_tools: Iterable[str] = WRITE_TOOLS) -> bool:
    """Whether any of `names` (as written) can change files."""
    writers = write_tools if isinstance(write_tools, frozenset | set) else set(write_tools)
    return any(base_name(name) in writers for name in names)


def safety_ceiling(tools_as_written: Sequence[str] | None) -> str | None:
    """``read_only`` for an agent whose listed tools cannot write; None when it lists
    none (it inherits every tool) or one of them can write."""
    if tools_as_written is None or can_write(tools_as_written):
        return None
    return "read_only"

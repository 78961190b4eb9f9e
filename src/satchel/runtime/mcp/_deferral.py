"""MCP tool search: when the servers' tools cost more tokens than a budget, the model
gets their names and one `search_tools` tool instead of every schema.

Claude Code does the same ("Scale with MCP Tool Search",
https://code.claude.com/docs/en/mcp#scale-with-mcp-tool-search): with
``ENABLE_TOOL_SEARCH=auto`` the MCP tools are deferred when their definitions would
take more than 10% of the context window (``auto:N`` for N%), and its ``ToolSearch``
tool "fetches full schema definitions for deferred tools so they can be called",
with a query of keywords or ``select:<name>[,<name>...]`` (both read in the pinned
Claude Code 2.1.332 binary, whose default with the variable unset is to defer
always). satchel's budget is a number of tokens, by default `DEFAULT_BUDGET`, 10% of a
200,000-token window; ``budget=0`` always defers, ``budget=None`` never does.

    async with McpSupervisor(env) as mcp:
        search = mcp.tool_search()            # ToolSearch over mcp.tools
        tools = search.definitions()          # what the model is given
        found = search.call({"query": "create an issue"})  # the model's search_tools call
        search.definitions()                  # now with the tools it found

`search_tools` answers with a JSON object the model reads,
``{"query": "...", "tools": [{"name", "description", "input_schema"}, ...]}``, the
matching tools' full definitions, most relevant first (`satchel.hosts._ranking`, BM25 over
a tool's name and description); from then on they are loaded: `definitions()` lists
them in full and `is_loaded` is True, so the host gives them to the model and calls
them through `McpSupervisor.call_tool` as any other. The result shape and the
default of `MAX_RESULTS` are satchel's own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from satchel.foundations.tokens import Counter, approx_tokens
from satchel.hosts._ranking import bm25_scores
from satchel.runtime.mcp._catalog import McpTool

__all__ = ["DEFAULT_BUDGET", "MAX_RESULTS", "SEARCH_TOOLS", "ToolSearch", "definition"]

DEFAULT_BUDGET = 20_000  # tokens: 10% of a 200,000-token context window
MAX_RESULTS = 5
MAX_RESULTS_CAP = 50
SEARCH_TOOLS = "search_tools"
_FIELDS: Mapping[str, float] = {"name": 3.0, "description": 1.0}
_SELECT = "select:"


def definition(tool: McpTool) -> dict[str, Any]:
    """A tool as the model is given it: name, description and input schema."""
    return {
        "name": tool.name,
        "description": tool.description,
        "input_schema": dict(tool.input_schema),
    }


class ToolSearch:
    """The tools the model may call directly (`McpTool.direct`), deferred behind
    `search_tools` when their definitions cost more than `budget` tokens (counted by
    `counter` on their JSON); see the module docstring."""

    def __init__(
        self,
        tools: Iterable[McpTool],
        *,
        budget: int | None = DEFAULT_BUDGET,
        counter: Counter = approx_tokens,
    ) -> None:
        if budget is not None and budget < 0:
            raise ValueError("budget must be 0 or more tokens (None: never defer)")
        self.tools = tuple(t for t in tools if t.direct)
        self.tokens = counter(_dumps([definition(t) for t in self.tools]))
        self.deferred = bool(self.tools) and budget is not None and self.tokens > budget
        self._loaded: dict[str, None] = {}

    def is_loaded(self, name: str) -> bool:
        """Whether the model has tool `name`'s definition: every tool when nothing is
        deferred, else the ones a search found."""
        if not self.deferred:
            return any(t.name == name for t in self.tools)
        return name in self._loaded

    @property
    def pending(self) -> tuple[str, ...]:
        """The names of the deferred tools no search has loaded yet, in order."""
        if not self.deferred:
            return ()
        return tuple(t.name for t in self.tools if t.name not in self._loaded)

    def definitions(self) -> list[dict[str, Any]]:
        """What the model is given: every tool's definition; when deferred, the loaded
        tools' and `search_tools`, whose description names the others."""
        if not self.deferred:
            return [definition(t) for t in self.tools]
        loaded = [definition(t) for t in self.tools if t.name in self._loaded]
        return [*loaded, self._search_definition()]

    def search(self, query: str, max_results: int = MAX_RESULTS) -> list[McpTool]:
        """The tools `query` finds (keywords, or ``select:a,b`` by name), at most
        `max_results`, most relevant first; they are loaded from now on."""
        names = _selected(query)
        if names is not None:
            by_name = {t.name: t for t in self.tools}
            found = [by_name[n] for n in names if n in by_name][:max_results]
        else:
            found = _ranked(self.tools, query)[:max_results]
        self._loaded.update(dict.fromkeys(t.name for t in found))
        return found

    def call(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The model's `search_tools` call: the JSON object it reads back (an
        ``error`` key for bad arguments)."""
        query = arguments.get("query")
        if not isinstance(query, str) or not query.strip():
            return {"error": "'query' must be a non-empty string"}
        limit = arguments.get("max_results", MAX_RESULTS)
        if limit is None:
            limit = MAX_RESULTS
        if isinstance(limit, bool) or not isinstance(limit, int) or not limit >= 1:
            return {"error": "'max_results' must be a whole number, 1 or more"}
        found = self.search(query, min(limit, MAX_RESULTS_CAP))
        return {"query": query, "tools": [definition(t) for t in found]}

    def _search_definition(self) -> dict[str, Any]:
        pending = self.pending
        names = ", ".join(pending) if pending else "none; every tool is loaded"
        return {
            "name": SEARCH_TOOLS,
            "description": (
                "Fetch the full definitions of MCP tools that are not loaded yet, so they "
                "can be called: a query of keywords finds tools by name and description; "
                '"select:<name>,<name>" takes them by name. Not loaded yet: '
                f"{names}."
            ),
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Keywords, or select:<names>."},
                    "max_results": {
                        "type": "integer",
                        "minimum": 1,
                        "description": f"How many tools at most [{MAX_RESULTS}].",
                    },
                },
                "required": ["query"],
                "additionalProperties": False,
            },
        }


def _selected(query: str) -> list[str] | None:
    text = query.strip()
    if not text.startswith(_SELECT):
        return None
    return [n.strip() for n in text[len(_SELECT) :].split(",") if n.strip()]


def _ranked(tools: Sequence[McpTool], query: str) -> list[McpTool]:
    """The tools sharing a word with `query`, most relevant first (the server's own
    tool name is searched with the host's)."""
    docs = [{"name": f"{t.name} {t.tool}", "description": t.description} for t in tools]
    scores = bm25_scores(docs, query, _FIELDS)
    order = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: -scores[i])
    return [tools[i] for i in order]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

"""The shapes of real Claude Code plugin agents (anthropics/claude-code's pr-review-toolkit
and plugin-dev), written afresh: only their YAML shapes are copied.

Each is (file stem, frontmatter lines). Bodies are one line."""

from __future__ import annotations

from pathlib import Path

# code-reviewer: one long line holding ': ', literal \n escapes and <example> tags
ONE_LINE_COLONS = (
    "description: Use this agent to review code. Examples:\\n<example>\\nContext: a "
    'feature was added.\\nuser: "Check it"\\nassistant: "I will use the reviewer."'
    "\\n</example>",
    "model: opus",
    "color: green",
)
# code-simplifier: the first line ends in <example>, the example runs on at column 0
RUN_ON = (
    "description: Use this agent after code was written.\\n\\nExamples:\\n\\n<example>",
    "Context: The assistant has just added a feature.",
    'user: "Please add a login check"',
    'assistant: "I\'ve added it:"',
    "<function call omitted for brevity>",
    "<commentary>",
    "Since code was written, use the simplifier.",
    "</commentary>",
    "</example>",
    "model: opus",
)
# agent-creator: the first line ends in `Examples:`, then blank lines and blocks
ENDS_IN_COLON = (
    'description: Use this agent when the user asks to "make an agent". Examples:',
    "",
    "<example>",
    "Context: User wants an agent",
    'user: "Create an agent"',
    'assistant: "I\'ll use the maker."',
    "</example>",
    "model: inherit",
    "color: magenta",
    'tools: ["Write", "Read"]',
)
# comment-analyzer: a plain one-line description with (1), (2) and no ': '
PLAIN = (
    "description: Use this agent to analyze comments, (1) after docs, (2) before a PR",
    "model: inherit",
    "color: green",
)
# conversation-analyzer: a flow list of tools after a colon-holding description
FLOW_TOOLS = (
    "description: Use this agent when analyzing transcripts. Examples: <example>Context: x"
    '\\nuser: "/go"\\n</example>',
    "model: inherit",
    "color: yellow",
    'tools: ["Read", "Grep"]',
)
# feature-dev's code-explorer: a comma-separated tool string and sonnet
TOOL_STRING = (
    "description: Deeply analyzes existing codebase features by tracing execution paths",
    "tools: Glob, Grep, LS, Read, NotebookRead, WebFetch, TodoWrite, WebSearch",
    "model: sonnet",
    "color: yellow",
)

# YAML that no retry reads: text after a quoted description
UNREADABLE = ('description: "Hunts silent failures" in error handling', "model: inherit")

SHAPES = {
    "code-reviewer": ONE_LINE_COLONS,
    "code-simplifier": RUN_ON,
    "agent-creator": ENDS_IN_COLON,
    "comment-analyzer": PLAIN,
    "conversation-analyzer": FLOW_TOOLS,
    "code-explorer": TOOL_STRING,
}


def agent_text(stem: str, lines: tuple[str, ...]) -> str:
    return "---\n" + "\n".join((f"name: {stem}", *lines)) + "\n---\n\nYou are helpful.\n"


def write_plugin(root: Path, name: str, shapes: dict[str, tuple[str, ...]]) -> Path:
    """A Claude Code plugin `name` under `root` holding one agent file per shape."""
    plugin = root / name
    (plugin / ".claude-plugin").mkdir(parents=True)
    manifest = f'{{"name": "{name}", "version": "1.0.0", "description": "Review agents."}}\n'
    (plugin / ".claude-plugin" / "plugin.json").write_text(manifest)
    (plugin / "agents").mkdir()
    for stem, lines in shapes.items():
        (plugin / "agents" / f"{stem}.md").write_text(agent_text(stem, lines))
    return plugin

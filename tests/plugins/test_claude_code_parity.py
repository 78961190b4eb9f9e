"""satchel reads a Claude Code plugin as Claude Code does: for realistic plugin trees
built here, the inventory of `read_plugin` (skill, command and agent ids, hooks by
event, MCP server names) equals the ``provides`` of the pinned
``claude plugin validate --json``. Where satchel differs on purpose, the test says
which rule."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from satchel.plugins import Plugin, read_plugin
from satchel.plugins._detect import Detection
from tests.hostloop.shared import once_json
from tests.support import put
from tests.tools import claude_validate

Tree = Callable[[Path], None]

_TRANSPORTS = {"stdio": "stdio", "http": "streamable-http", "sse": "sse"}


def put_json(root: Path, relative: str, value: Any) -> None:
    put(root, relative, json.dumps(value, indent=2))


def markdown(body: str = "Do the thing.", **fields: str) -> str:
    if not fields:
        return body + "\n"
    head = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\n{head}---\n{body}\n"


def handler(command: str, **more: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **more}


def group(*handlers: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    return {**({"matcher": matcher} if matcher is not None else {}), "hooks": list(handlers)}


def manifest(root: Path, name: str, **fields: Any) -> None:
    put_json(root, ".claude-plugin/plugin.json", {"name": name, "version": "1.0.0", **fields})


# -- the trees -------------------------------------------------------------------


def content_studio(root: Path) -> None:
    """Nested commands (one whose frontmatter names another plugin's command), skills
    whose frontmatter name differs from the directory or is missing, a SKILL.md two
    levels down (neither host reads it), nested agents."""
    manifest(root, "content-studio", description="Write and ship content")
    put(root, "commands/publish.md", markdown(description="Publish"))
    put(root, "commands/content/draft.md", markdown(name="other-plugin:draft", description="d"))
    put(root, "commands/content/social/thread.md", markdown("Write a thread."))
    put(root, "commands/Review_Notes.md", markdown("Review the notes."))
    put(root, "skills/brand-voice/SKILL.md", markdown(name="voice-of-the-brand", description="v"))
    put(root, "skills/style-guide/SKILL.md", markdown(description="How we write"))
    put(root, "skills/seo/SKILL.md", markdown(name="seo", description="Search"))
    put(root, "skills/drafts/old/SKILL.md", markdown(name="old", description="too deep"))
    put(root, "agents/editor.md", markdown(name="copy-editor", description="Edits copy"))
    put(root, "agents/review/fact-check.md", markdown(name="fact-checker", description="Facts"))
    put(root, "agents/review/legal/claims.md", markdown(description="Checks claims"))


def guardrails(root: Path) -> None:
    """Inline hooks and servers in plugin.json beside hooks/hooks.json and .mcp.json;
    matchers naming a skill and an MCP tool."""
    inline_hooks = {
        "PreToolUse": [
            group(handler("./bin/guard-skill.sh"), matcher="Skill"),
            group(handler("./bin/guard-mcp.sh"), matcher="mcp__plugin_guardrails_policy__check"),
        ],
        "UserPromptSubmit": [group(handler("./bin/remind.sh", timeout=5))],
    }
    servers = {"policy": {"command": "policy-mcp", "args": ["--strict"]}}
    manifest(root, "guardrails", hooks=inline_hooks, mcpServers=servers)
    put_json(
        root,
        "hooks/hooks.json",
        {
            "description": "guards",
            "hooks": {
                "PreToolUse": [group(handler("./bin/guard-bash.sh"), matcher="Bash")],
                "SessionStart": [group(handler("./bin/start.sh"))],
            },
        },
    )
    put_json(
        root,
        ".mcp.json",
        {"mcpServers": {"lookup": {"type": "http", "url": "https://l.example/mcp"}}},
    )
    put(root, "skills/policy/SKILL.md", markdown(name="policy", description="The policy"))


def toolbelt(root: Path) -> None:
    """Manifest lists: hooks and mcpServers mixing paths and objects, commands and
    agents from listed paths, an extra skills root and a listed skill directory."""
    manifest(
        root,
        "toolbelt",
        hooks=["./config/hooks.json", {"Stop": [group(handler("./bin/done.sh"))]}],
        mcpServers=["./config/servers.json", {"notes": {"command": "notes-mcp"}}],
        commands=["./cmds", "./extra/one-off.md"],
        agents=["./team/planner.md", "./team/nested/builder.md"],
        skills=["./more-skills", "./single/listed"],
    )
    put_json(
        root,
        "config/hooks.json",
        {"hooks": {"PostToolUse": [group(handler("fmt"), matcher="Write|Edit")]}},
    )
    put_json(root, "config/servers.json", {"mcpServers": {"search": {"command": "search-mcp"}}})
    put(root, "cmds/build.md", markdown("Build it."))
    put(root, "cmds/deploy/staging.md", markdown(name="ship", description="Deploy"))
    put(root, "extra/one-off.md", markdown("Once."))
    put(root, "team/planner.md", markdown(name="planner", description="Plans"))
    put(root, "team/nested/builder.md", markdown(name="builder", description="Builds"))
    put(root, "skills/core/SKILL.md", markdown(description="Core"))
    put(root, "more-skills/extra-skill/SKILL.md", markdown(name="renamed-extra", description="x"))
    put(root, "single/listed/SKILL.md", markdown(name="listed-by-name", description="y"))


def solo(root: Path) -> None:
    """A plugin that is one root SKILL.md (no skills/), named by its frontmatter."""
    manifest(root, "solo")
    put(root, "SKILL.md", markdown(name="solo-skill", description="One skill"))


def bare(root: Path) -> None:
    """Skills whose SKILL.md has no frontmatter at all: Claude Code loads them (with a
    warning), named by their directory."""
    manifest(root, "bare")
    put(root, "skills/adapter/SKILL.md", markdown("# Adapter\n\nAdapts skills to a project."))
    put(root, "skills/fenced/SKILL.md", "```markdown\n---\nname: other\n---\n```\n")
    put(root, "skills/proper/SKILL.md", markdown(name="proper", description="Has one."))


TREES: dict[str, Tree] = {
    "content-studio": content_studio,
    "guardrails": guardrails,
    "toolbelt": toolbelt,
    "solo": solo,
    "bare": bare,
}


# -- the comparison --------------------------------------------------------------


def satchel_inventory(plugin: Plugin) -> dict[str, Any]:
    return {
        "skills": sorted(plugin.qualified(s.name) for s in plugin.skills),
        "commands": sorted(c.name for c in plugin.commands),
        "agents": sorted(a.name for a in plugin.agents),
        "hooks": sorted({(h.event, h.matcher, h.command) for h in plugin.hooks}, key=str),
        "mcp": sorted((s.name, s.transport) for s in plugin.mcp_servers),
    }


def claude_inventory(provides: dict[str, Any]) -> dict[str, Any]:
    hooks = {(h["event"], h.get("matcher"), h["command"]) for h in provides["hooks"]}
    return {
        "skills": sorted(provides["skills"]),
        "commands": sorted(provides["commands"]),
        "agents": sorted(provides["agents"]),
        # a set on both sides: Claude Code's provides lists a handler repeated with the
        # same event, matcher and command once; satchel's Plugin.hooks keeps each entry
        # (the hook runner dedupes them, never dropping a stricter one)
        "hooks": sorted(hooks, key=str),
        "mcp": sorted((s["name"], _TRANSPORTS[s["type"]]) for s in provides["mcpServers"]),
    }


def validate(
    claude_code: Path, tmp_path: Path, tree: Tree, name: str
) -> tuple[dict[str, Any], Plugin]:
    root = tmp_path / "plugins" / name
    tree(root)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    report = claude_validate(claude_code, root, home)
    assert report["success"] is True, report["manifest"]["errors"]
    plugin, diags = read_plugin(root)
    assert plugin is not None, [d.message for d in diags]
    return report["provides"], plugin


Validated = tuple[Path, dict[str, dict[str, Any]]]  # (where the trees are, report by tree)


def validated_trees(claude_code: Path, factory: pytest.TempPathFactory) -> Validated:
    """Each of `TREES` built once per test run (``plugins/NAME`` below the folder
    returned) and Claude Code's report on it: these tests and the claude-code profile's
    differential (tests/hosts/) share one ``claude plugin validate`` per tree."""

    def make(base: Path) -> dict[str, dict[str, Any]]:
        home = base / "home"
        home.mkdir()
        reports = {}
        for name, tree in TREES.items():
            tree(base / "plugins" / name)
            reports[name] = claude_validate(claude_code, base / "plugins" / name, home)
        return reports

    return once_json(factory, "claude-code-trees", make)


@pytest.fixture(scope="module")
def trees(claude_code: Path, tmp_path_factory: pytest.TempPathFactory) -> Validated:
    return validated_trees(claude_code, tmp_path_factory)


def validated(trees: Validated, name: str) -> tuple[dict[str, Any], Plugin]:
    """`validate` for one of `TREES`, from the shared run."""
    base, reports = trees
    report = reports[name]
    assert report["success"] is True, report["manifest"]["errors"]
    plugin, diags = read_plugin(base / "plugins" / name)
    assert plugin is not None, [d.message for d in diags]
    return report["provides"], plugin


@pytest.mark.parametrize("name", sorted(TREES))
def test_the_inventory_equals_claude_codes_provides(trees: Validated, name: str):
    provides, plugin = validated(trees, name)
    assert satchel_inventory(plugin) == claude_inventory(provides)


def test_the_ids_are_claude_codes_for_each_kind(trees: Validated):
    provides, plugin = validated(trees, "content-studio")
    expected = {
        "skills": [
            "content-studio:brand-voice",
            "content-studio:seo",
            "content-studio:style-guide",
        ],
        "commands": [
            "content-studio:Review_Notes",
            "content-studio:content:draft",
            "content-studio:content:social:thread",
            "content-studio:publish",
        ],
        "agents": [
            "content-studio:copy-editor",
            "content-studio:review:fact-checker",
            "content-studio:review:legal:claims",
        ],
    }
    ours = satchel_inventory(plugin)
    theirs = claude_inventory(provides)
    assert {kind: ours[kind] for kind in expected} == expected
    assert {kind: theirs[kind] for kind in expected} == expected


def test_inline_and_file_hooks_and_servers_all_load(trees: Validated):
    provides, plugin = validated(trees, "guardrails")
    assert len(plugin.hooks) == len(provides["hooks"]) == 5
    assert sorted({h.event for h in plugin.hooks}) == [
        "PreToolUse",
        "SessionStart",
        "UserPromptSubmit",
    ]
    assert sorted(s.name for s in plugin.mcp_servers) == ["lookup", "policy"]
    assert [d.code for d in plugin.diagnostics] == []


def test_a_server_named_twice_in_one_plugin_is_kept_once_on_purpose(
    claude_code: Path, tmp_path: Path
):
    """Claude Code's provides lists both entries; satchel keeps the first
    (``plugin.mcp.invalid``): one plugin cannot run two servers under one name."""

    def twice(root: Path) -> None:
        manifest(root, "twice", mcpServers={"lookup": {"command": "inline-lookup"}})
        put_json(root, ".mcp.json", {"mcpServers": {"lookup": {"command": "file-lookup"}}})

    provides, plugin = validate(claude_code, tmp_path, twice, "twice")
    assert sorted(s["target"] for s in provides["mcpServers"]) == ["file-lookup", "inline-lookup"]
    assert [(s.name, s.command) for s in plugin.mcp_servers] == [("lookup", "file-lookup")]
    assert [(d.code, d.message) for d in plugin.diagnostics] == [
        (
            "plugin.mcp.invalid",
            "MCP server 'lookup' is declared again; "
            f"the one in {plugin.root / '.mcp.json'} is kept",
        )
    ]


def test_a_skill_without_frontmatter_loads_named_by_its_directory(tmp_path: Path):
    root = tmp_path / "bare"
    bare(root)
    plugin, found = read_plugin(root)
    assert plugin is not None
    skills = {s.name: s for s in plugin.skills}
    assert sorted(skills) == ["adapter", "fenced", "proper"]
    assert skills["adapter"].description == "Adapts skills to a project."
    assert skills["adapter"].body() == "# Adapter\n\nAdapts skills to a project.\n"
    message = (
        "the file does not start with a --- frontmatter line; loaded as Claude Code loads "
        "a plugin skill: named by its directory, described by its first paragraph"
    )
    assert [
        (d.code, d.severity, d.message, d.path.parent.name)
        for d in found
        if d.code == "frontmatter.missing"
    ] == [
        ("frontmatter.missing", "warning", message, "adapter"),
        ("frontmatter.missing", "warning", message, "fenced"),
    ]


# -- what community plugins hold: each tree's inventory equals Claude Code's -------------


def unfronted(root: Path) -> None:
    """Agent files with no frontmatter, or an HTML comment before it: Claude Code loads
    each named after its file, with a warning."""
    manifest(root, "unfronted")
    put(root, "agents/reviewer.md", "You review code.\n")
    put(root, "agents/commented.md", "<!-- generated -->\n" + markdown(name="x", description="y"))
    put(root, "agents/proper.md", markdown(name="proper", description="Has one."))


def underscored(root: Path) -> None:
    """Skill directories with an underscore, one whose frontmatter name breaks the
    name rule: Claude Code names both by their directory."""
    manifest(root, "underscored")
    put(
        root,
        "skills/extract_learnings/SKILL.md",
        markdown(name="Extract Learnings", description="x"),
    )
    put(root, "skills/good_dir/SKILL.md", markdown(name="good-name", description="y"))


def big_agent(body: int = 70_000) -> str:
    return markdown("x" * body, name="big", description="A long prompt")


def loose_rules(root: Path) -> None:
    """Where satchel's own rules were stricter than Claude Code's: an agent file over
    64 KiB, an agent name holding ':', MCP urls with ${VAR:-default}."""
    servers = {
        "whole": {"type": "http", "url": "${API_URL:-https://api.example.com/mcp}"},
        "host": {"type": "http", "url": "https://${API_HOST:-api.example.com}/mcp"},
    }
    manifest(root, "loose-rules", mcpServers=servers)
    put(root, "agents/big.md", big_agent())
    put(root, "agents/colon.md", markdown(name="review:deep", description="Deep review"))


def yaml_words(root: Path) -> None:
    """YAML 1.1's booleans as text: Claude Code reads `name: yes` as the name "yes"."""
    manifest(root, "yaml-words", skills=["./listed/one"])
    put(root, "agents/switch.md", markdown(name="yes", description="on"))
    put(root, "agents/other.md", markdown(name="off", description="No"))
    put(root, "listed/one/SKILL.md", markdown(name="on", description="yes"))
    put(root, "skills/toggle/SKILL.md", markdown(name="toggle", description="off"))


COMMUNITY: dict[str, Tree] = {
    "unfronted": unfronted,
    "underscored": underscored,
    "loose-rules": loose_rules,
    "yaml-words": yaml_words,
}


@pytest.mark.parametrize("name", sorted(COMMUNITY))
def test_community_plugin_inventory_equals_claude_codes_provides(
    claude_code: Path, tmp_path: Path, name: str
):
    provides, plugin = validate(claude_code, tmp_path, COMMUNITY[name], name)
    assert satchel_inventory(plugin) == claude_inventory(provides)


def test_an_agent_without_frontmatter_loads_named_after_its_file(tmp_path: Path):
    root = tmp_path / "unfronted"
    unfronted(root)
    plugin, found = read_plugin(root)
    assert plugin is not None
    agents = {a.name: a for a in plugin.agents}
    assert sorted(agents) == ["unfronted:commented", "unfronted:proper", "unfronted:reviewer"]
    assert agents["unfronted:reviewer"].description == "Agent from unfronted plugin"
    assert agents["unfronted:reviewer"].instructions == "You review code."
    assert agents["unfronted:commented"].instructions.startswith("<!-- generated -->\n---\n")
    message = (
        "the file does not start with a --- frontmatter line; the plugin agent loads as "
        "Claude Code loads it: named after its file, the whole file its prompt"
    )
    assert sorted(
        (d.code, d.severity, d.message, d.path.name) for d in found if d.path is not None
    ) == [
        ("frontmatter.missing", "warning", message, "commented.md"),
        ("frontmatter.missing", "warning", message, "reviewer.md"),
    ]


def test_a_project_agent_without_frontmatter_is_still_skipped(tmp_path: Path):
    """Only a plugin's agent loads so (Claude Code's plugin loader); a project's
    .claude/agents file without frontmatter stays skipped."""
    from satchel.agents import parse_claude

    agent, found = parse_claude(b"You review code.\n", tmp_path / "reviewer.md")
    assert agent is None
    assert [(d.code, d.severity) for d in found] == [("frontmatter.missing", "error")]


def test_a_skill_directory_with_an_underscore_names_the_skill(tmp_path: Path):
    root = tmp_path / "underscored"
    underscored(root)
    plugin, found = read_plugin(root)
    assert plugin is not None
    assert sorted(s.name for s in plugin.skills) == ["extract_learnings", "good_dir"]
    assert [(d.code, d.severity, d.message) for d in found if d.code.startswith("skill.")] == [
        (
            "skill.name.invalid",
            "warning",
            "the name 'Extract Learnings' must be lowercase; the skill is "
            "underscored:extract_learnings, named by its directory as Claude Code names it",
        ),
        (
            "skill.name.mismatch",
            "warning",
            "the name 'good-name' differs from its directory name 'good_dir'; the skill is "
            "underscored:good_dir, named by its directory as Claude Code names it",
        ),
    ]


def test_claude_codes_limits_for_agents_and_urls(tmp_path: Path):
    root = tmp_path / "loose-rules"
    loose_rules(root)
    plugin, found = read_plugin(root)
    assert plugin is not None
    assert sorted(a.name for a in plugin.agents) == ["loose-rules:big", "loose-rules:review:deep"]
    assert sorted((s.name, s.url) for s in plugin.mcp_servers) == [
        ("host", "https://${API_HOST:-api.example.com}/mcp"),
        ("whole", "${API_URL:-https://api.example.com/mcp}"),
    ]
    assert found == []


def test_an_agent_file_over_claude_codes_one_mib_is_not_read(tmp_path: Path):
    root = tmp_path / "huge"
    manifest(root, "huge")
    put(root, "agents/huge.md", big_agent(1024 * 1024))
    plugin, found = read_plugin(root)
    assert plugin is not None and plugin.agents == ()
    size = (root / "agents/huge.md").stat().st_size
    assert [(d.code, d.message) for d in found] == [
        (
            "agent.limit",
            f"the file is {size} bytes; the limit is 1048576 (1 MiB); it is not read",
        )
    ]


def test_yaml_11_booleans_stay_text_in_agents_and_skills(tmp_path: Path):
    root = tmp_path / "yaml-words"
    yaml_words(root)
    plugin, found = read_plugin(root)
    assert plugin is not None
    assert sorted((a.name, a.description) for a in plugin.agents) == [
        ("yaml-words:off", "No"),
        ("yaml-words:yes", "on"),
    ]
    assert sorted((s.name, s.description) for s in plugin.skills) == [
        ("on", "yes"),
        ("toggle", "off"),
    ]
    assert [d.code for d in found if d.severity == "error"] == []


def test_a_hook_on_an_event_claude_code_does_not_fire_is_skipped_as_it_reads(
    claude_code: Path, tmp_path: Path
):
    """Claude Code ignores a hook under an event it does not know, in hooks/hooks.json
    and inline alike (``claude plugin validate`` provides neither, and warns of the
    inline one: "unknown hook event; entry ignored at runtime"); read as Claude Code
    reads it, satchel skips both and says so. satchel's own reading keeps them, for a
    caller that fires those events."""
    root = tmp_path / "plugins" / "mixed-events"
    manifest(root, "mixed-events", hooks={"AfterTool": [group(handler("after"))]})
    put_json(root, "hooks/hooks.json", {"hooks": {
        "PreToolUse": [group(handler("check"), matcher="Bash")],
        "BeforeTool": [group(handler("check-too"), matcher="run_shell_command")],
    }})  # fmt: skip
    home = tmp_path / "home"
    home.mkdir()
    report = claude_validate(claude_code, root, home)
    assert report["success"] is True, report["manifest"]["errors"]
    warned = [w["message"] for w in report["manifest"]["warnings"] if w["path"] == "hooks"]
    assert warned == ["hooks.AfterTool: unknown hook event; entry ignored at runtime"]
    as_claude, found = read_plugin(root, detection=Detection(reads=frozenset(("claude",))))
    assert as_claude is not None
    assert satchel_inventory(as_claude)["hooks"] == claude_inventory(report["provides"])["hooks"]
    assert [(h.event, h.command) for h in as_claude.hooks] == [("PreToolUse", "check")]
    skipped = [(d.code, d.severity, d.message, d.path.name) for d in found
               if d.code == "plugin.hooks.invalid" and d.path is not None]  # fmt: skip
    assert skipped == [
        ("plugin.hooks.invalid", "warning",
         "event 'BeforeTool' is not a Claude Code hook event; its hooks are skipped",
         "hooks.json"),
        ("plugin.hooks.invalid", "warning",
         "event 'AfterTool' is not a Claude Code hook event; its hooks are skipped",
         "plugin.json"),
    ]  # fmt: skip
    own, _ = read_plugin(root)
    assert own is not None
    assert sorted(h.event for h in own.hooks) == ["AfterTool", "BeforeTool", "PreToolUse"]

"""Each rule by which a host drops, cuts or ignores something, with its exact code
and message (`satchel.compat.compat` over trees in the test's temp dir)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from satchel.compat import compat
from satchel.hosts import Host, Models, Window, get
from tests.compat.plugin import HOOKS, NAME, plugin_files
from tests.support import put, skill_md, write_skill, write_tree

PR_TOOLS = Path(__file__).resolve().parents[2] / "examples/workspace/.satchel/plugins/pr-tools"


def _drops(report, host: str) -> list[tuple[str, str, str, str]]:
    found = report.get(host)
    assert found is not None
    return [(d.code, d.component, d.id, d.message) for d in found.drops]


def test_a_field_the_host_does_not_read(tmp_path):
    skill = write_skill(tmp_path, "notes", skill_md("notes", model="sonnet")).parent
    report = compat(skill, hosts=["codex", "claude-code"])
    assert _drops(report, "codex") == [
        (
            "compat.field.ignored",
            "skill",
            "notes",
            "`model` is not a field Codex reads (it reads name, description, metadata)",
        )
    ]
    assert _drops(report, "claude-code") == []
    assert report.get("codex").drops[0].path == "SKILL.md"


def test_a_host_with_no_field_list_ignores_nothing(tmp_path):
    skill_file = write_skill(tmp_path, "notes", skill_md("notes", model="sonnet"))
    assert get("cursor").skill_fields is None
    report = compat(skill_file, hosts=["cursor"])  # a SKILL.md stands for its skill
    assert (report.kind, report.path) == ("skill", skill_file.parent)
    assert _drops(report, "cursor") == []


def test_a_name_over_the_hosts_limit(tmp_path):
    name = "a" * 70
    skill = write_skill(tmp_path, name, skill_md(name)).parent
    report = compat(skill, hosts=["codex", "claude-code"])
    assert _drops(report, "codex") == [
        (
            "compat.name.refused",
            "skill",
            name,
            "the host loads no skill whose name is over 64 characters; 'aaaaaaaaaaaaaaaaaaaa'... "
            "has 70",
        )
    ]
    assert _drops(report, "claude-code") == []
    assert report.get("codex").loads.skills == ()  # the loader refuses it, as Codex does


def test_a_plugin_skill_the_hosts_rule_refuses(tmp_path):
    files = {
        ".claude-plugin/plugin.json": '{"name": "kit"}\n',
        "skills/notes/SKILL.md": skill_md("other-name"),
    }
    plugin = write_tree(tmp_path / "kit", files)
    report = compat(plugin, hosts=["vibe"])
    assert _drops(report, "vibe") == [
        (
            "compat.name.refused",
            "skill",
            "notes",
            "Mistral Vibe names a plugin skill by its directory only: the skill's name must be "
            "given and equal its directory name 'notes' (got 'other-name'); the skill is skipped",
        )
    ]
    assert report.get("vibe").loads.skills == ()


def test_a_description_the_host_cuts(tmp_path):
    skill = write_skill(tmp_path, "long", skill_md("long", "d" * 1100)).parent
    report = compat(skill, hosts=["codex", "claude-code"])
    assert _drops(report, "codex") == [
        (
            "compat.description.cut",
            "skill",
            "long",
            "the description is 1,100 characters; Codex cuts it to 1,024",
        )
    ]
    assert _drops(report, "claude-code") == []  # its limit is 1,536


def test_a_hook_event_the_host_never_fires(tmp_path):
    plugin = write_tree(tmp_path / NAME, plugin_files())
    report = compat(plugin, hosts=["claude-code", "mermaid", "copilot"])
    assert _drops(report, "claude-code") == []
    assert _drops(report, "mermaid") == [
        (
            "compat.event.missing",
            "hook",
            "plugin:triple/TeammateIdle/*",
            "mermaid never fires TeammateIdle (satchel's teammate_idle)",
        )
    ]
    message = "GitHub Copilot fires no hook events (its profile lists none)"
    assert _drops(report, "copilot") == [
        ("compat.event.missing", "hook", "plugin:triple/PreToolUse/Bash", message),
        ("compat.event.missing", "hook", "plugin:triple/TeammateIdle/*", message),
    ]
    assert "TeammateIdle" in HOOKS["hooks"]


def test_a_hook_is_listed_under_the_hosts_event_name(tmp_path):
    plugin = write_tree(tmp_path / NAME, plugin_files())
    assert compat(plugin, hosts=["vibe"]).get("vibe").loads.hooks == ()  # refused: ambiguous
    report = compat(PR_TOOLS, hosts=["vibe", "claude-code"])
    assert report.get("vibe").loads.hooks == (
        "plugin:pr-tools/pre_tool/Bash",
        "plugin:pr-tools/post_tool/Write|Edit",
    )
    assert report.get("claude-code").loads.hooks[0] == "plugin:pr-tools/PreToolUse/Bash"


def test_a_manifest_the_host_does_not_read():
    report = compat(PR_TOOLS, hosts=["gemini"])
    assert _drops(report, "gemini") == [
        (
            "compat.format.unread",
            "plugin",
            "pr-tools",
            "the host reads Gemini CLI, not .claude-plugin (Claude Code)",
        )
    ]


def test_what_a_declarative_only_host_leaves_alone():
    report = compat(PR_TOOLS, hosts=["caveman"])
    assert _drops(report, "caveman") == [
        (
            "compat.executable.off",
            "agent",
            "pr-tools",
            "plugin agents recognised but not loaded by a declarative-only client: agents",
        ),
        (
            "compat.executable.off",
            "hook",
            "pr-tools",
            "plugin hooks recognised but not executed by a declarative-only client: "
            "hooks/hooks.json",
        ),
        (
            "compat.executable.off",
            "mcp_server",
            "pr-tools",
            "plugin MCP component recognised but not loaded by a declarative-only client: "
            ".mcp.json",
        ),
    ]


def test_a_component_the_format_does_not_carry(tmp_path):
    plugin = write_tree(tmp_path / NAME, plugin_files())
    # Cursor reads hooks/hooks.json in its own shape (camelCase events), and this one is
    # Claude Code's: the loader refuses its hooks, each refusal a drop (which says all
    # there is to say of that file); the MCP server of .mcp.json is not Cursor's either
    assert _drops(compat(plugin, hosts=["cursor"]), "cursor") == [
        (
            "compat.load.refused",
            "hook",
            "hooks.json",
            "plugin.hooks.invalid: event 'PreToolUse' is not a Cursor hook event; its hooks "
            "are skipped",
        ),
        (
            "compat.load.refused",
            "hook",
            "hooks.json",
            "plugin.hooks.invalid: event 'TeammateIdle' is not a Cursor hook event; its hooks "
            "are skipped",
        ),
        (
            "compat.component.unread",
            "mcp_server",
            "tracker",
            "mcp server 'tracker' of plugin 'triple' is not read by Cursor from the cursor "
            "manifest (satchel, Claude Code, Codex, GitHub Copilot, mermaid, zidane load it)",
        ),
    ]


def test_a_folder_the_host_does_not_read(tmp_path):
    project, home = tmp_path / "project", tmp_path / "home"
    write_skill(project / ".claude" / "skills", "review", skill_md("review"))
    write_skill(project / ".agents" / "skills", "shared", skill_md("shared"))
    report = compat(project, hosts=["codex", "claude-code"], project=project, home=home)
    assert _drops(report, "codex") == [
        (
            "compat.root.unread",
            "skill",
            "review",
            "skill 'review' is in .claude/skills, which Codex does not read "
            "(it reads .agents/skills, .codex/skills)",
        )
    ]
    assert _drops(report, "claude-code") == [
        (
            "compat.root.unread",
            "skill",
            "shared",
            "skill 'shared' is in .agents/skills, which Claude Code does not read "
            "(it reads .claude/skills)",
        )
    ]
    assert report.get("codex").loads.skills == ("shared",)


def test_a_file_the_load_refuses(tmp_path):
    project = tmp_path / "project"
    write_skill(project / ".agents" / "skills", "broken", "---\nname: [broken\n---\nBody.\n")
    report = compat(project, hosts=["codex"], project=project, home=tmp_path / "home")
    ((code, component, ident, message),) = _drops(report, "codex")
    assert (code, component, ident) == ("compat.load.refused", "skill", "broken")
    assert message.startswith("frontmatter.yaml.syntax: ")


@pytest.mark.parametrize(
    ("host", "message"),
    [
        ("codex", "the skill index is over Codex's budget ({chars} characters of 8,000): "
         "it shortens every description evenly to fit"),  # its listing names the tmp root
        ("claude-code", "the skill index is over Claude Code's budget (12,890 characters of "
         "8,000): it drops the descriptions of the least-used skills first"),  # its own listing
        ("satchel", "the skill index is over satchel's budget (13,012 characters of 8,192): "
         "the entries past it are left out"),
    ],
)  # fmt: skip
def test_an_index_over_the_hosts_budget(tmp_path, host, message):
    project = tmp_path / "project"
    for n in range(25):
        root = project / ".agents" / "skills"
        write_skill(root, f"skill-{n:02}", skill_md(f"skill-{n:02}", "x" * 500))
        write_skill(
            project / ".claude" / "skills", f"skill-{n:02}", skill_md(f"skill-{n:02}", "x" * 500)
        )
    model = "claude-opus-4-6" if host == "claude-code" else None  # 200,000 tokens at 4 a token
    profile: str | Host = host
    if host == "codex":  # Codex's own models have 272,000 tokens or more: one of 100,000
        small = Models(default="small", known=(Window("small", 100_000),))
        profile = replace(get("codex"), models=small)
    report = compat(project, hosts=[profile], project=project, home=tmp_path / "home", model=model)
    found = report.get(host)
    over = [
        (d.code, d.component, d.id, d.message) for d in found.drops if d.code == "compat.index.over"
    ]
    chars = found.tokens.index_chars
    assert chars > 8_000
    assert over == [("compat.index.over", "index", "skills", message.format(chars=f"{chars:,}"))]
    assert not found.tokens.fits


def test_an_index_over_the_entry_cap(tmp_path):
    project = tmp_path / "project"
    for n in range(65):
        write_skill(project / ".agents" / "skills", f"s{n:02}", skill_md(f"s{n:02}", "Tiny."))
    report = compat(project, hosts=["caveman"], project=project, home=tmp_path / "home")
    assert _drops(report, "caveman") == [
        (
            "compat.index.over",
            "index",
            "skills",
            "the skill index is over caveman's budget (65 skills of 64): "
            "the entries past it are left out",
        )
    ]


def test_the_tokens_count_the_index_and_the_always_on_instructions(tmp_path):
    project = tmp_path / "project"
    write_skill(project / ".agents" / "skills", "notes", skill_md("notes"))
    write_tree(project, {"AGENTS.md": "x" * 400})
    tokens = compat(project, hosts=["codex"], project=project, home=tmp_path / "home")
    found = tokens.get("codex").tokens
    assert found.instructions == 100
    assert found.total == found.index + 100
    rule = "2% of gpt-6.2-sol's 500,000-token context window at 4 characters a token"
    assert (found.budget_chars, found.rule, found.fits) == (40_000, rule, True)


def test_a_part_the_hosts_manifest_does_not_carry(tmp_path):
    plugin = write_tree(tmp_path / NAME, plugin_files())
    report = compat(plugin, hosts=["codex"])
    unread = [d for d in _drops(report, "codex") if d[0] == "compat.component.unread"]
    assert unread == [
        (
            "compat.component.unread",
            "command",
            "triple:summarise",
            "command 'triple:summarise' of plugin 'triple' is not read by Codex from the codex "
            "manifest (satchel, Claude Code, Cursor, GitHub Copilot, mermaid, zidane, caveman "
            "load it)",
        )
    ]
    assert report.get("codex").drops[-1].path == "commands/summarise.md"


def test_the_programs_a_hosts_manifest_does_not_carry(tmp_path):
    """Codex reads its own manifest, which names no language servers, monitors or bin/:
    each is a part other hosts load and Codex does not."""
    plugin = write_tree(tmp_path / NAME, plugin_files())
    lsp = {"py": {"command": "pylsp", "extensionToLanguage": {".py": "python"}}}
    put(plugin / ".lsp.json", json.dumps(lsp))
    watch = [{"name": "log", "command": "tail -F x", "description": "d"}]
    put(plugin / "monitors" / "monitors.json", json.dumps(watch))
    put(plugin / "bin" / "tool", "#!/bin/sh\n", mode=0o755)
    drops = _drops(compat(plugin, hosts=["codex"]), "codex")
    unread = [d for d in drops if d[0] == "compat.component.unread"][1:]  # after the command
    tail = (
        "of plugin 'triple' is not read by Codex from the codex manifest "
        "(satchel, Claude Code, GitHub Copilot, mermaid, zidane, caveman load it)"
    )
    assert [(c, kind, ident) for c, kind, ident, _ in unread] == [
        ("compat.component.unread", "lsp_server", "py"),
        ("compat.component.unread", "monitor", "log"),
        ("compat.component.unread", "bin", "tool"),
    ]
    assert [m for *_, m in unread] == [
        f"language server 'py' {tail}",
        f"monitor 'log' {tail}",
        f"bin/ program 'tool' {tail}",
    ]


def test_a_warning_that_leaves_an_item_out_is_a_drop(tmp_path):
    """An agent file over Claude Code's 1 MiB and a server whose url is refused are
    warnings of the loader, and still refusals: each host that refuses them drops them."""
    files = {
        ".claude-plugin/plugin.json": json.dumps(
            {"name": "kit", "mcpServers": {"plain": {"type": "http", "url": "http://e.example/m"}}}
        ),
        "agents/big.md": "---\nname: big\ndescription: d\n---\n" + "x" * (1 << 20) + "\n",
        "agents/fine.md": "---\nname: fine\ndescription: d\n---\nBody.\n",
    }
    plugin = write_tree(tmp_path / "kit", files)
    size = (plugin / "agents/big.md").stat().st_size
    report = compat(plugin, hosts=["claude-code", "satchel"])
    expected = [
        (
            "compat.load.refused",
            "agent",
            "big.md",
            f"agent.limit: the file is {size} bytes; the limit is 1048576 (1 MiB); it is not read",
        ),
        (
            "compat.load.refused",
            "mcp_server",
            "plugin.json",
            "plugin.mcp.invalid: MCP server 'plain': url uses plain http, allowed only for "
            "localhost and loopback addresses; use https; the entry is skipped",
        ),
    ]
    assert _drops(report, "claude-code") == expected
    assert _drops(report, "satchel") == expected
    assert report.get("claude-code").loads.agents == ("kit:fine",)


def test_every_refusing_code_is_a_registered_warning():
    """The codes compat takes as refusals whatever their severity are real codes."""
    from satchel.compat._rules import REFUSALS
    from satchel.core.diagnostics import CODES

    assert sorted(c for c in REFUSALS if c not in CODES) == []

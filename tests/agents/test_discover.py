"""load_agents: real directory trees, precedence, shadowing, protected built-ins."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

import satchel
from satchel.agents import AgentType, load_agents, scan_agent_dir
from satchel.core.layout import WalkBounds
from satchel.foundations.origin import Origin
from tests.agents.conftest import VIBE_OK, claude_text
from tests.support import codes, put

VIBE_MINIMAL = 'schema_version = 1\nagent_type = "subagent"\ndescription = "Does one thing."\n'


@pytest.fixture
def dirs(project: Path, home: Path) -> dict[str, Path]:
    return {
        "own": project / ".satchel" / "agents",
        "claude": project / ".claude" / "agents",
        "agents": project / ".agents" / "agents",
        "user-own": home / ".config" / "satchel" / "agents",
        "user-claude": home / ".claude" / "agents",
        "user-agents": home / ".agents" / "agents",
    }


def agent_md(description: str = "Helps.", **fields: str) -> str:
    return claude_text(fields.pop("name", "helper"), description, **fields)


def plugin_type(name: str, plugin: str = "kit") -> AgentType:
    return AgentType(
        name=name,
        description="From a plugin.",
        format="bundle",
        path=Path(f"/plugins/{plugin}/types.toml"),
        origin=Origin("plugin", plugin=plugin),
    )


def test_files_from_every_family_and_scope_load_in_precedence_order(layout, dirs):
    put(dirs["user-agents"], "u3.md", agent_md(name="u3"))
    put(dirs["user-claude"], "u2.md", agent_md(name="u2"))
    put(dirs["user-own"], "u1.md", agent_md(name="u1"))
    put(dirs["agents"], "p3.md", agent_md(name="p3"))
    put(dirs["claude"], "researcher.toml", VIBE_OK)
    put(dirs["own"], "p1.md", agent_md(name="p1"))
    found = load_agents(layout)
    assert list(found.agents) == ["p1", "researcher", "p3", "u1", "u2", "u3"]
    assert [(a.scope, a.family) for a in found.agents.values()] == [
        ("project", ".satchel"), ("project", ".claude"), ("project", ".agents"),
        ("user", ".satchel"), ("user", ".claude"), ("user", ".agents"),
    ]  # fmt: skip
    assert found.agents["researcher"].format == "vibe"
    assert codes(found.diagnostics) == []


def test_within_a_scope_the_clients_family_then_claude_then_agents(layout, dirs):
    own = put(dirs["own"], "a.md", agent_md("own"))
    claude = put(dirs["claude"], "b.md", agent_md("claude"))
    other = put(dirs["agents"], "c.md", agent_md("agents"))
    found = load_agents(layout)
    assert found.agents["helper"].path == own
    assert [(s.loser.path, s.winner.path) for s in found.shadowed] == [(claude, own), (other, own)]
    assert [(d.code, d.severity, d.message) for d in found.diagnostics] == [
        (
            "agent.shadowed",
            "warning",
            f"agent 'helper' from {claude} (project .claude) is shadowed by {own} "
            "(project .satchel)",
        ),
        (
            "agent.shadowed",
            "warning",
            f"agent 'helper' from {other} (project .agents) is shadowed by {own} "
            "(project .satchel)",
        ),
    ]


def test_a_client_layout_puts_its_own_family_first(project, home):
    lay = satchel.Layout.default(project, home=home, env={}, client="mermaid")
    put(project / ".claude" / "agents", "a.md", agent_md("claude"))
    put(project / ".mermaid" / "agents", "a.md", agent_md("mermaid"))
    assert load_agents(lay).agents["helper"].description == "mermaid"


def test_project_wins_over_user_and_names_fold_case(layout, dirs):
    mine = put(dirs["claude"], "x.md", agent_md("project", name="Helper"))
    theirs = put(dirs["user-claude"], "x.md", agent_md("user", name="helper"))
    found = load_agents(layout)
    assert list(found.agents) == ["Helper"]
    assert found.get("HELPER") is found.agents["Helper"]
    assert found.get("nobody") is None
    assert [d.message for d in found.diagnostics if d.code == "agent.shadowed"] == [
        f"agent 'helper' from {theirs} (user .claude) is shadowed by {mine} (project .claude)"
    ]


def test_config_types_win_over_files_and_plugins_with_a_warning(layout, dirs):
    project_file = put(dirs["claude"], "helper.md", agent_md("file"))
    config = {"helper": {"description": "config"}, "kit-agent": {"description": "config"}}
    found = load_agents(
        layout,
        config_types=config,
        plugin_types=[plugin_type("kit-agent"), plugin_type("plugin-only")],
    )
    assert [(a.name, a.format) for a in found.agents.values()] == [
        ("helper", "config"), ("kit-agent", "config"), ("plugin-only", "bundle"),
    ]  # fmt: skip
    assert [(d.code, d.message) for d in found.diagnostics] == [
        (
            "agent.shadowed",
            f"agent 'helper' from {project_file} (project .claude) is shadowed by the host config",
        ),
        (
            "agent.shadowed",
            "agent 'kit-agent' from /plugins/kit/types.toml (plugin kit) is shadowed by "
            "the host config",
        ),
    ]


def test_files_win_over_plugin_types(layout, dirs):
    user_file = put(dirs["user-claude"], "helper.md", agent_md("user"))
    found = load_agents(layout, plugin_types=[plugin_type("helper")])
    assert found.agents["helper"].path == user_file
    assert [s.loser.plugin for s in found.shadowed] == ["kit"]


def test_a_project_file_cannot_redefine_a_builtin(layout, dirs):
    general = put(dirs["claude"], "general.md", agent_md(name="general"))
    explore = put(dirs["agents"], "e.md", agent_md(name="Explore"))
    vibe = put(dirs["own"], "general.toml", VIBE_OK)
    found = load_agents(layout)
    assert found.agents == {}
    protected = [
        (d.severity, d.message, d.path)
        for d in found.diagnostics
        if d.code == "agent.builtin.protected"
    ]
    assert protected == [
        (
            "warning",
            "a project file cannot redefine the built-in agent type 'general'; it is skipped",
            vibe,
        ),
        (
            "warning",
            "a project file cannot redefine the built-in agent type 'general'; it is skipped",
            general,
        ),
        (
            "warning",
            "a project file cannot redefine the built-in agent type 'Explore'; it is skipped",
            explore,
        ),
    ]


def test_a_user_file_can_redefine_a_builtin(layout, dirs):
    put(dirs["claude"], "general.md", agent_md("project", name="general"))
    user = put(dirs["user-claude"], "general.md", agent_md("user", name="general"))
    found = load_agents(layout)
    agent = found.agents["general"]
    assert agent.path == user and agent.overrides_builtin
    assert codes(found.diagnostics) == ["agent.builtin.protected"]


def test_config_can_redefine_a_builtin_and_a_plugin_cannot(layout):
    found = load_agents(
        layout,
        config_types={"explore": {"description": "Mine."}},
        plugin_types=[plugin_type("general")],
    )
    assert list(found.agents) == ["explore"] and found.agents["explore"].overrides_builtin
    assert [d.message for d in found.diagnostics] == [
        "a plugin cannot redefine the built-in agent type 'general'; it is skipped"
    ]


def test_the_host_names_its_builtins(layout, dirs):
    put(dirs["claude"], "general.md", agent_md(name="general"))
    put(dirs["claude"], "planner.md", agent_md(name="planner"))
    found = load_agents(layout, builtins=["planner"])
    assert list(found.agents) == ["general"]
    assert found.builtins == ("planner",)
    assert codes(found.diagnostics) == ["agent.builtin.protected"]


def test_builtins_given_as_values_rank_after_user_files(layout, dirs):
    builtin = AgentType(name="explore", description="Built in.", format="builtin")
    general = AgentType(name="general", description="Built in.", format="builtin")
    user = put(dirs["user-claude"], "explore.md", agent_md("user", name="explore"))
    found = load_agents(layout, builtins=[builtin, general], plugin_types=[plugin_type("x")])
    assert list(found.agents) == ["explore", "general", "x"]
    assert found.agents["explore"].path == user and found.agents["explore"].overrides_builtin
    assert not found.agents["general"].overrides_builtin
    assert [s.loser for s in found.shadowed] == [builtin]
    assert found.diagnostics == ()  # replacing a built-in from the user dir is no surprise


def test_an_untrusted_project_is_not_read(layout, dirs):
    put(dirs["claude"], "p.md", agent_md(name="p"))
    put(dirs["user-claude"], "u.md", agent_md(name="u"))
    found = load_agents(layout, trust_project=False)
    assert list(found.agents) == ["u"]
    assert [(d.code, d.severity, d.message, d.path) for d in found.diagnostics] == [
        (
            "discovery.untrusted",
            "info",
            "project agents here are not loaded: the project is not trusted",
            dirs["claude"],
        )
    ]


def test_subfolders_group_and_do_not_name(layout, dirs):
    put(dirs["claude"], "team/review/deep.md", agent_md(name="deep-reviewer"))
    put(dirs["claude"], "team/plain.md", claude_text(None))
    found = load_agents(layout)
    assert list(found.agents) == ["deep-reviewer", "plain"]


def test_in_one_directory_the_first_path_wins(layout, dirs):
    first = put(dirs["claude"], "a/x.md", agent_md("a"))
    second = put(dirs["claude"], "helper.md", agent_md("b"))
    third = put(dirs["claude"], "helper.toml", VIBE_OK)  # a Vibe agent named by its stem
    found = load_agents(layout)
    assert found.agents["helper"].path == first
    assert [s.loser.path for s in found.shadowed] == [second, third]
    assert list(found.agents) == ["helper"]


def test_readme_hidden_and_other_files_are_passed_over(layout, dirs):
    put(dirs["claude"], "README.md", "# My agents\n")
    put(dirs["claude"], "readme.md", "# My agents\n")
    put(dirs["claude"], ".draft.md", agent_md(name="draft"))
    put(dirs["claude"], "notes.txt", "x")
    put(dirs["claude"], ".hidden/h.md", agent_md(name="hidden"))
    put(dirs["claude"], "node_modules/n.md", agent_md(name="nm"))
    put(dirs["claude"], "ok.md", agent_md(name="ok"))
    found = load_agents(layout)
    assert list(found.agents) == ["ok"] and found.diagnostics == ()


def test_a_bad_file_never_stops_the_rest(layout, dirs):
    put(dirs["claude"], "a.md", "no frontmatter\n")
    put(dirs["claude"], "b.md", agent_md(name="b"))
    put(dirs["claude"], "c.toml", "[[[")
    put(dirs["claude"], "d.md", b"\xff\xfe---\n")
    put(dirs["claude"], "e.md", agent_md(name="e"))
    found = load_agents(layout)
    assert list(found.agents) == ["b", "e"]
    assert codes(found.diagnostics) == ["frontmatter.missing", "agent.invalid", "encoding.not-utf8"]


def test_a_fifo_is_skipped_without_blocking(layout, dirs):
    dirs["claude"].mkdir(parents=True)
    fifo = dirs["claude"] / "pipe.md"
    os.mkfifo(fifo)
    put(dirs["claude"], "ok.md", agent_md(name="ok"))
    found = load_agents(layout)
    assert list(found.agents) == ["ok"]
    assert [(d.code, d.severity, d.message, d.path) for d in found.diagnostics] == [
        (
            "agent.invalid",
            "warning",
            "cannot read the agent file: not a regular file; it is skipped",
            fifo,
        )
    ]


def test_a_symlink_to_a_fifo_is_skipped_without_blocking(layout, dirs, tmp_path):
    os.mkfifo(tmp_path / "pipe")
    dirs["user-claude"].mkdir(parents=True)
    (dirs["user-claude"] / "p.md").symlink_to(tmp_path / "pipe")
    found = load_agents(layout)
    assert found.agents == {}
    assert [d.message for d in found.diagnostics] == [
        "cannot read the agent file: not a regular file; it is skipped"
    ]


def test_a_project_symlink_must_stay_inside_its_directory(layout, dirs, tmp_path):
    outside = put(tmp_path, "elsewhere/secret.md", agent_md(name="secret"))
    put(dirs["claude"], "real/inside.md", agent_md(name="inside"))
    link = dirs["claude"] / "link.md"
    link.symlink_to(outside)
    (dirs["claude"] / "alias.md").symlink_to(dirs["claude"] / "real" / "inside.md")
    found = load_agents(layout)
    assert list(found.agents) == ["inside"]  # the alias is the same file: no shadow report
    assert [(d.code, d.severity, d.message, d.path) for d in found.diagnostics] == [
        (
            "agent.invalid",
            "warning",
            f"cannot read the agent file: a symlink to {outside}, outside {dirs['claude']}; "
            "it is skipped",
            link,
        )
    ]


def test_a_user_symlink_may_point_anywhere(layout, dirs, tmp_path):
    dotfiles = put(tmp_path, "dotfiles/mine.md", agent_md(name="mine"))
    dirs["user-claude"].mkdir(parents=True)
    (dirs["user-claude"] / "mine.md").symlink_to(dotfiles)
    found = load_agents(layout)
    assert list(found.agents) == ["mine"] and found.diagnostics == ()


def test_broken_and_looping_symlinks_are_reported(layout, dirs):
    dirs["claude"].mkdir(parents=True)
    (dirs["claude"] / "gone.md").symlink_to(dirs["claude"] / "nothing.md")
    (dirs["claude"] / "loop.md").symlink_to(dirs["claude"] / "loop.md")
    put(dirs["claude"], "ok.md", agent_md(name="ok"))
    found = load_agents(layout)
    assert list(found.agents) == ["ok"]
    assert [d.message for d in found.diagnostics] == [
        "cannot read the agent file: a symlink to nothing; it is skipped",
        "cannot read the agent file: a symlink loop; it is skipped",
    ]


def test_a_symlinked_directory_is_not_walked(layout, dirs, tmp_path):
    put(tmp_path, "shared/s.md", agent_md(name="s"))
    dirs["claude"].mkdir(parents=True)
    (dirs["claude"] / "shared").symlink_to(tmp_path / "shared")
    found = load_agents(layout)
    assert found.agents == {}
    assert [(d.code, d.message) for d in found.diagnostics] == [
        ("agent.invalid", "a symlinked directory in an agents directory is not walked")
    ]


def test_the_walk_is_bounded_by_the_layouts_limits(project, home, dirs):
    put(dirs["claude"], "1/a.md", agent_md(name="a"))
    put(dirs["claude"], "1/2/b.md", agent_md(name="b"))
    put(dirs["claude"], "1/2/3/c.md", agent_md(name="c"))
    lay = satchel.Layout.default(project, home=home, env={}, walk=WalkBounds(max_depth=2))
    found = load_agents(lay)
    assert list(found.agents) == ["a", "b"]
    assert [(d.code, d.path) for d in found.diagnostics] == [
        ("discovery.limit", dirs["claude"] / "1" / "2" / "3")
    ]
    lay = replace(lay, walk=WalkBounds(max_dirs=1))
    found = load_agents(lay)
    assert list(found.agents) == ["a"]
    assert codes(found.diagnostics) == ["discovery.limit"]


def test_an_agents_path_that_is_a_file_is_reported(layout, dirs):
    put(dirs["claude"].parent, "agents", "not a directory")
    found = load_agents(layout)
    assert codes(found.diagnostics) == ["discovery.root.not-directory"]


def test_claude_code_agents_have_no_128_file_cap(layout, dirs):
    """Claude Code reads every agent file of a directory: so does satchel, to its own
    bound of 4,096."""
    for i in range(200):
        put(dirs["claude"], f"sub{i % 3}/a{i:03d}.md", agent_md(name=f"a{i:03d}"))
    found = load_agents(layout)
    assert len(found.agents) == 200
    assert found.diagnostics == ()


def test_the_claude_code_cap_names_every_file_it_leaves_out(tmp_path):
    root = tmp_path / "agents"
    for rel in ["a.md", "b/c.md", "b/d.md", "e.md", "v.toml"]:
        name = rel.replace("/", "-").rsplit(".", 1)[0]
        put(root, rel, agent_md(name=name) if rel.endswith(".md") else VIBE_MINIMAL)
    scan = scan_agent_dir(root, claude_limit=2)
    assert [a.name for a in scan.agents] == ["a", "b-c", "v"]
    assert [(d.code, d.severity, d.path, d.message) for d in scan.diagnostics] == [
        (
            "agent.limit",
            "warning",
            root,
            "more than 2 Claude Code agent files (.md) in this directory; only the first 2 "
            "(in file name order) are read; 2 not read: b/d.md, e.md",
        )
    ]


def test_the_vibe_cap_of_128_counts_toml_files_and_names_the_rest(tmp_path):
    root = tmp_path / "agents"
    for i in range(130):
        put(root, f"agent-{i:03d}.toml", VIBE_MINIMAL)
    put(root, "zz-claude.md", agent_md(name="zz-claude"))
    scan = scan_agent_dir(root)
    assert len(scan.agents) == 129 and "zz-claude" in {a.name for a in scan.agents}
    assert [(d.code, d.message) for d in scan.diagnostics] == [
        (
            "agent.limit",
            "more than 128 Vibe agent files (.toml) in this directory; only the first 128 "
            "(in file name order) are read; 2 not read: agent-128.toml, agent-129.toml",
        )
    ]


def test_files_and_subdirectories_interleave_in_path_order(tmp_path):
    root = tmp_path / "agents"
    for rel in ["z.md", "b.md", "b/c.md", "a/y.md", "a.md"]:
        put(root, rel, agent_md(name=rel.replace("/", "-").removesuffix(".md")))
    scan = scan_agent_dir(root, claude_limit=3)
    assert [a.name for a in scan.agents] == ["a-y", "a", "b-c"]
    assert [d.code for d in scan.diagnostics] == ["agent.limit"]
    assert scan.diagnostics[0].message.endswith("2 not read: b.md, z.md")


def test_loading_is_deterministic(layout, dirs):
    names = ["m", "c", "x", "a", "q", "b"]
    for i, name in enumerate(names):
        put(dirs["claude" if i % 2 else "user-claude"], f"{name}.md", agent_md(name=name))
        put(dirs["agents"], f"dup-{name}.md", agent_md(name=name))
    first = load_agents(layout, config_types={"z": {"description": "d"}})
    second = load_agents(layout, config_types={"z": {"description": "d"}})
    assert first.to_json() == second.to_json()
    # config, then project .claude (a b c), then project .agents (m q x); users lose
    assert list(first.agents) == ["z", "a", "b", "c", "m", "q", "x"]
    assert len(first.shadowed) == 6
    json.dumps(first.to_json(), allow_nan=False)


def test_scan_agent_dir_flat_for_plugins(tmp_path):
    put(tmp_path, "a.toml", VIBE_OK)
    put(tmp_path, "nested/b.toml", VIBE_OK)
    scan = scan_agent_dir(
        tmp_path, recursive=False, origin=Origin("plugin", plugin="kit", namespace="kit")
    )
    assert scan.exists
    assert [(a.name, a.plugin) for a in scan.agents] == [("kit:a", "kit")]
    assert not scan_agent_dir(tmp_path / "missing").exists

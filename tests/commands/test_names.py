"""Command names: stems, `name:`, groups and aliases in both naming modes, the rule."""

from __future__ import annotations

import pytest

from satchel import Layout, Root
from satchel.foundations.origin import Origin
from satchel.kinds.commands import load_commands, scan_commands
from tests.commands.helpers import fm, found
from tests.support import put


@pytest.fixture
def claude(project):
    return project / ".claude" / "commands"


def names(found_set):
    return {name: c.path for name, c in found_set.commands.items()}


def test_the_stem_is_the_name(layout, claude):
    put(claude, "fix-issue.md", "Body.\n")
    found_set = load_commands(layout)
    assert list(found_set.commands) == ["fix-issue"]
    assert dict(found_set.aliases) == {}


def test_name_in_the_frontmatter_overrides_the_stem(layout, claude):
    put(claude, "deploy.md", fm(name="ship"))
    assert list(load_commands(layout).commands) == ["ship"]


def test_a_group_registers_an_alias_under_stem_naming(layout, claude):
    put(claude, "frontend/component.md", "Body.\n")
    put(claude, "a/b/deep.md", "Body.\n")
    found_set = load_commands(layout)
    assert list(found_set.commands) == ["component", "deep"]
    assert dict(found_set.aliases) == {"frontend:component": "component", "a:b:deep": "deep"}
    assert (found_set.commands["component"].group, found_set.commands["deep"].group) == (
        "frontend",
        "a/b",
    )
    assert found_set.commands["deep"].aliases == ("a:b:deep",)


def test_path_naming_makes_the_group_part_of_the_name(layout, claude):
    put(claude, "frontend/component.md", "Body.\n")
    put(claude, "a/b/deep.md", "Body.\n")
    put(claude, "top.md", "Body.\n")
    found_set = load_commands(layout, naming="path")
    assert list(found_set.commands) == ["a:b:deep", "frontend:component", "top"]
    assert dict(found_set.aliases) == {}
    assert found_set.commands["frontend:component"].aliases == ()


def test_name_replaces_the_last_segment_in_both_modes(layout, claude):
    put(claude, "frontend/component.md", fm(name="widget"))
    stem = load_commands(layout)
    assert (list(stem.commands), dict(stem.aliases)) == (["widget"], {"frontend:widget": "widget"})
    assert list(load_commands(layout, naming="path").commands) == ["frontend:widget"]


def test_find_takes_names_and_aliases_in_any_case(layout, claude):
    put(claude, "frontend/component.md", "Body.\n")
    found_set = load_commands(layout)
    command = found_set.commands["component"]
    for typed in (
        "component",
        "/component",
        "COMPONENT",
        "frontend:component",
        "/Frontend:Component",
    ):
        assert found_set.find(typed) is command
    assert found_set.find("frontend") is None
    assert found_set.find("") is None


@pytest.mark.parametrize("stem", ["Deploy", "fix_issue", "v1.2", "_"])
def test_a_typeable_name_that_breaks_the_rule_loads_with_a_warning(layout, claude, stem):
    path = put(claude, f"{stem}.md", "Body.\n")
    found_set = load_commands(layout)
    assert names(found_set) == {stem: path}
    assert found(found_set.diagnostics) == [
        (
            "command.name.invalid",
            "warning",
            f"the command name {stem!r} breaks the [a-z0-9-]+ rule; the command loads, "
            "but lowercase letters, digits and hyphens are safest",
        )
    ]


@pytest.mark.parametrize(
    ("relpath", "text", "bad"),
    [
        ("my file.md", "Body\n", "my file"),
        ("x.md", fm(name="'a:b'"), "a:b"),
        ("x.md", fm(name="'a/b'"), "a/b"),
        ("x.md", fm(name="''"), ""),
        ("é.md", "Body\n", "é"),
    ],
)
def test_a_name_that_cannot_be_typed_is_skipped(layout, claude, relpath, text, bad):
    path = put(claude, relpath, text)
    found_set = load_commands(layout)
    assert dict(found_set.commands) == {}
    assert [(d.code, d.severity, d.message, d.path, d.hint) for d in found_set.diagnostics] == [
        (
            "command.name.invalid",
            "error",
            f"the command name {bad!r} cannot be typed after /; the command is skipped",
            path,
            "use lowercase letters, digits and hyphens",
        )
    ]


def test_an_untypeable_group_loses_its_alias_under_stem_naming(layout, claude):
    put(claude, "my stuff/tool.md", "Body.\n")
    found_set = load_commands(layout)
    assert (list(found_set.commands), dict(found_set.aliases)) == (["tool"], {})
    assert found(found_set.diagnostics) == [
        (
            "command.name.invalid",
            "warning",
            "the directory 'my stuff' cannot be typed after /, so the command has no "
            "group:name alias",
        )
    ]


def test_an_untypeable_group_skips_the_command_under_path_naming(layout, claude):
    put(claude, "ok/my stuff/tool.md", "Body.\n")
    found_set = load_commands(layout, naming="path")
    assert dict(found_set.commands) == {}
    assert found(found_set.diagnostics) == [
        (
            "command.name.invalid",
            "error",
            "the directory name 'my stuff' cannot be typed after /; the command is skipped",
        )
    ]


def test_a_typeable_group_that_breaks_the_rule(layout, claude):
    put(claude, "Front/tool.md", "Body.\n")
    stem = load_commands(layout)
    assert (dict(stem.aliases), stem.diagnostics) == ({"Front:tool": "tool"}, ())
    path = load_commands(layout, naming="path")
    assert list(path.commands) == ["Front:tool"]
    assert [(d.code, d.severity) for d in path.diagnostics] == [("command.name.invalid", "warning")]


def test_plugin_commands_are_namespaced(tmp_path, home):
    commands = tmp_path / "plugins" / "deploy-tools" / "commands"
    put(commands, "ship.md", fm(description="Ship it"))
    put(commands, "ops/rollback.md", "Body.\n")
    scan = scan_commands(
        Root(commands, "plugin", "deploy-tools"),
        origin=Origin("plugin", "deploy-tools", namespace="deploy-tools"),
    )
    assert [(c.name, c.aliases, c.tag) for c in scan.commands] == [
        ("deploy-tools:ship", (), "(plugin:deploy-tools)"),
        ("deploy-tools:rollback", ("deploy-tools:ops:rollback",), "(plugin:deploy-tools)"),
    ]
    path_mode = scan_commands(
        Root(commands, "plugin", ""),
        origin=Origin("plugin", namespace="deploy-tools"),
        naming="path",
    )
    assert [c.name for c in path_mode.commands] == [
        "deploy-tools:ship",
        "deploy-tools:ops:rollback",
    ]
    layout = Layout.default(tmp_path, home=home, env={})
    found_set = load_commands(layout, plugin_commands=scan.commands)
    assert found_set.find("deploy-tools:ops:rollback") is scan.commands[1]

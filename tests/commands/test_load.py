"""Discovery and precedence: every source, every way a name can be lost, the bounds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import satchel.kinds.commands._discover as discover
from satchel import Root
from satchel.foundations.origin import Origin
from satchel.kinds.commands import Command, load_commands, scan_commands
from tests.commands.helpers import fm, found
from tests.support import codes, put


def dirs(project: Path, home: Path) -> dict[str, Path]:
    return {
        "project .satchel": project / ".satchel" / "commands",
        "project .claude": project / ".claude" / "commands",
        "project .agents": project / ".agents" / "commands",
        "user .satchel": home / ".config" / "satchel" / "commands",
        "user .claude": home / ".claude" / "commands",
        "user .agents": home / ".agents" / "commands",
        "user .codex": home / ".codex" / "prompts",
    }


def test_the_default_roots_in_precedence_order(layout, project, home):
    roots = dirs(project, home)
    for label, root in roots.items():
        put(root, "deploy.md", f"From {label}\n")
    found_set = load_commands(layout)
    winner = found_set.commands["deploy"]
    assert (winner.description, winner.scope, winner.family) == (
        "From project .satchel",
        "project",
        ".satchel",
    )
    labels = list(roots)
    assert [(w.path, loser.path) for w, loser in found_set.shadowed] == [
        (roots["project .satchel"] / "deploy.md", roots[label] / "deploy.md")
        for label in labels[1:]
    ]
    assert found(found_set.diagnostics) == [
        (
            "command.shadowed",
            "warning",
            f"command /deploy at {roots[label] / 'deploy.md'} ({label}) is shadowed by "
            f"{roots['project .satchel'] / 'deploy.md'} (project .satchel)",
        )
        for label in labels[1:]
    ]
    assert [d.path for d in found_set.diagnostics] == [roots[x] / "deploy.md" for x in labels[1:]]


@pytest.mark.parametrize(("higher", "lower"), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)])
def test_each_root_beats_the_next(layout, project, home, higher, lower):
    roots = list(dirs(project, home).values())
    put(roots[lower], "x.md", "Lower\n")
    put(roots[higher], "x.md", "Higher\n")
    found_set = load_commands(layout)
    assert found_set.commands["x"].description == "Higher"
    assert codes(found_set.diagnostics) == ["command.shadowed"]


def test_project_beats_user_and_each_keeps_its_own(layout, project, home):
    put(home / ".claude" / "commands", "mine.md", "User only\n")
    put(home / ".claude" / "commands", "shared.md", "User\n")
    put(project / ".agents" / "commands", "shared.md", "Project\n")
    found_set = load_commands(layout)
    assert [(n, c.description, c.tag) for n, c in found_set.commands.items()] == [
        ("shared", "Project", "(project)"),
        ("mine", "User only", "(user)"),
    ]


def test_names_compare_without_case(layout, project, home):
    put(project / ".claude" / "commands", "Deploy.md", "Project\n")
    put(home / ".claude" / "commands", "deploy.md", "User\n")
    found_set = load_commands(layout)
    assert list(found_set.commands) == ["Deploy"]
    assert codes(found_set.diagnostics) == ["command.name.invalid", "command.shadowed"]
    assert found_set.find("deploy") is found_set.commands["Deploy"]


def test_a_collision_in_one_root_keeps_the_first_and_the_other_keeps_its_alias(layout, project):
    root = project / ".claude" / "commands"
    first = put(root, "a/x.md", "From a\n")
    second = put(root, "b/x.md", "From b\n")
    found_set = load_commands(layout)
    assert {n: c.path for n, c in found_set.commands.items()} == {"b:x": second, "x": first}
    assert dict(found_set.aliases) == {"a:x": "x"}
    assert found_set.find("b:x").description == "From b"
    assert found_set.commands["b:x"].aliases == ()
    assert found(found_set.diagnostics) == [
        (
            "command.name.collision",
            "warning",
            f"two commands are named 'x' in one root; {first} is kept, {second} answers "
            "only to /b:x",
        )
    ]
    assert found_set.shadowed == ()


def test_a_file_directly_in_the_root_comes_before_a_grouped_one(layout, project):
    root = project / ".claude" / "commands"
    grouped = put(root, "a/zz.md", "Grouped\n")
    top = put(root, "zz.md", "Top\n")
    found_set = load_commands(layout)
    assert found_set.commands["zz"].path == top
    assert found_set.commands["a:zz"].path == grouped


def test_a_collision_without_an_alias_is_ignored(layout, project):
    root = project / ".claude" / "commands"
    first = put(root, "one.md", fm(name="same"))
    second = put(root, "two.md", fm(name="same"))
    found_set = load_commands(layout)
    assert list(found_set.commands) == ["same"]
    assert found_set.commands["same"].path == first
    assert found(found_set.diagnostics) == [
        (
            "command.name.collision",
            "warning",
            f"two commands are named 'same' in one root; {first} is kept, {second} is ignored",
        )
    ]
    assert [(w.path, loser.path) for w, loser in found_set.shadowed] == [(first, second)]


def test_builtin_names_win_over_files(layout, project, home):
    path = put(project / ".claude" / "commands", "help.md", "Body.\n")
    put(home / ".claude" / "commands", "Clear.md", "Body.\n")
    put(
        project / ".claude" / "commands", "tools/help.md", "Body.\n"
    )  # its alias is free, its name is not
    found_set = load_commands(layout, builtins=["/help", "clear"])
    assert dict(found_set.commands) == {}
    assert found_set.builtins == ("help", "clear")
    assert found_set.find("help") is None
    first = found_set.diagnostics[0]
    assert (first.code, first.severity, first.message, first.path, first.hint) == (
        "command.builtin",
        "warning",
        f"/help is a built-in command; {path} is skipped",
        path,
        "rename the command",
    )
    assert codes(found_set.diagnostics) == [
        "command.builtin",
        "command.builtin",
        "command.name.invalid",
        "command.builtin",
    ]


def test_an_alias_never_takes_a_builtin_or_a_higher_name(layout, project, home):
    put(project / ".claude" / "commands", "help/x.md", "Body.\n")
    put(project / ".claude" / "commands", "host/y.md", "Body.\n")
    extra = Command("host:y", "Host", text="Host")
    found_set = load_commands(layout, builtins=["help:x"], extra=[extra])
    assert list(found_set.commands) == ["host:y", "x", "y"]
    assert dict(found_set.aliases) == {}
    assert found_set.find("host:y") is extra


def test_an_alias_hides_a_lower_plugin_name(layout, project, home):
    """A command file wins over a same-named plugin command, whether `p:deploy` is the
    file's name (path naming) or its alias (stem naming)."""
    path = put(project / ".claude" / "commands", "p/deploy.md", "Body.\n")
    plugin = Command("p:deploy", "Plugin deploy", origin=Origin("plugin", namespace="p"))
    found_set = load_commands(layout, plugin_commands=[plugin])
    assert list(found_set.commands) == ["deploy"]
    assert dict(found_set.aliases) == {"p:deploy": "deploy"}
    assert found_set.shadowed == ((found_set.commands["deploy"], plugin),)
    assert found(found_set.diagnostics) == [
        (
            "command.shadowed",
            "warning",
            f"command /p:deploy at /p:deploy defined in code (plugin:p) is shadowed by {path} "
            "(project .claude), which answers to /p:deploy",
        )
    ]


def test_a_plugin_command_answers_to_its_bare_name(layout):
    deploy = Command("tools:deploy", "Deploy", origin=Origin("plugin", namespace="tools"))
    found_set = load_commands(layout, plugin_commands=[deploy])
    assert dict(found_set.aliases) == {"deploy": "tools:deploy"}
    assert found_set.find("/Deploy") is deploy
    assert found_set.diagnostics == ()


def test_a_bare_plugin_name_loses_to_every_other_name(layout, project, home):
    put(home / ".claude" / "commands", "deploy.md", "File\n")
    put(home / ".claude" / "commands", "ops/rollback.md", "File\n")
    plugins = [
        Command("tools:deploy", "Deploy", origin=Origin("plugin", namespace="tools")),
        Command("tools:status", "Status", origin=Origin("plugin", namespace="tools")),
        Command("tools:ops:rollback", "Rollback", origin=Origin("plugin", namespace="tools")),
        Command("more:status", "Status", origin=Origin("plugin", namespace="more")),
        Command("more:ship", "Ship", origin=Origin("plugin", namespace="more")),
        Command("more:clear", "Clear", origin=Origin("plugin", namespace="more")),
    ]
    found_set = load_commands(layout, builtins=["clear"], plugin_commands=plugins)
    assert found_set.find("deploy").path is not None  # a file's name
    assert found_set.find("ops:rollback").path is not None  # a file's alias
    assert found_set.find("status") is plugins[1]  # the plugin given first
    assert found_set.find("ship") is plugins[4]
    assert found_set.find("clear") is None  # a built-in
    assert dict(found_set.aliases) == {
        "ops:rollback": "rollback",
        "ship": "more:ship",
        "status": "tools:status",
    }
    assert found_set.diagnostics == ()


def test_extra_commands_beat_files_and_lose_to_builtins(layout, project):
    path = put(project / ".satchel" / "commands", "review.md", "Body.\n")
    extra = [
        Command("review", "Host review", text="Review."),
        Command("help", "Host help", text="Help."),
    ]
    found_set = load_commands(layout, builtins=["help"], extra=extra)
    assert list(found_set.commands) == ["review"]
    assert found_set.commands["review"] is extra[0]
    assert found(found_set.diagnostics) == [
        (
            "command.builtin",
            "warning",
            "/help is a built-in command; the one defined in code is skipped",
        ),
        (
            "command.shadowed",
            "warning",
            f"command /review at {path} (project .satchel) is shadowed by /review defined in "
            "code (builtin)",
        ),
    ]


def test_plugin_commands_lose_to_files(layout, project, home):
    root = home / ".claude" / "commands"
    path = put(root, "tools/deploy.md", "File\n")
    plugin = Command("tools:deploy", "Plugin", origin=Origin("plugin", namespace="tools"))
    other = Command("tools:status", "Status", origin=Origin("plugin", namespace="tools"))
    found_set = load_commands(layout, naming="path", plugin_commands=[plugin, other])
    assert list(found_set.commands) == ["tools:deploy", "tools:status"]
    assert found_set.commands["tools:deploy"].path == path
    assert found(found_set.diagnostics) == [
        (
            "command.shadowed",
            "warning",
            f"command /tools:deploy at /tools:deploy defined in code (plugin:tools) is "
            f"shadowed by {path} (user .claude)",
        )
    ]


def test_same_named_plugin_commands(layout):
    a = Command("p:x", "A", origin=Origin("plugin", namespace="p"))
    b = Command("p:x", "B", origin=Origin("plugin", namespace="p"))
    found_set = load_commands(layout, plugin_commands=[a, b])
    assert found_set.commands["p:x"] is a
    assert codes(found_set.diagnostics) == ["command.name.collision"]


def test_an_untrusted_project_is_skipped(layout, project, home):
    put(project / ".claude" / "commands", "deploy.md", "Project\n")
    put(home / ".claude" / "commands", "deploy.md", "User\n")
    found_set = load_commands(layout, trust_project=False)
    assert found_set.commands["deploy"].description == "User"
    assert [(d.code, d.severity, d.message, d.path) for d in found_set.diagnostics] == [
        (
            "discovery.untrusted",
            "info",
            "project commands here are not loaded: the project is not trusted",
            project / ".claude" / "commands",
        )
    ]


def test_one_directory_reached_twice_is_not_a_shadow(layout, home):
    put(home / ".claude" / "commands", "x.md", "Body.\n")
    (home / ".agents").mkdir()
    (home / ".agents" / "commands").symlink_to(home / ".claude" / "commands")
    found_set = load_commands(layout)
    assert list(found_set.commands) == ["x"]
    assert (found_set.diagnostics, found_set.shadowed) == ((), ())


def test_commands_are_ordered_by_precedence_then_name(layout, project, home):
    put(home / ".claude" / "commands", "a-user.md", "Body.\n")
    put(project / ".claude" / "commands", "z-project.md", "Body.\n")
    put(project / ".claude" / "commands", "m-project.md", "Body.\n")
    put(project / ".satchel" / "commands", "y-own.md", "Body.\n")
    extra = [Command("zz-host", text="."), Command("aa-host", text=".")]
    found_set = load_commands(layout, extra=extra)
    assert list(found_set.commands) == [
        "aa-host", "zz-host", "y-own", "m-project", "z-project", "a-user",
    ]  # fmt: skip


def test_dot_entries_node_modules_and_other_files_are_not_commands(layout, project):
    root = project / ".claude" / "commands"
    put(root, ".hidden.md", "Body.\n")
    put(root, ".git/x.md", "Body.\n")
    put(root, "node_modules/pkg/readme.md", "Body.\n")
    put(root, "notes.txt", "Body.\n")
    put(root, "Upper.MD", "Body.\n")
    put(root, "real.md", "Body.\n")
    found_set = load_commands(layout)
    assert list(found_set.commands) == ["real"]
    assert found_set.diagnostics == ()


def test_bad_files_become_diagnostics_and_the_rest_loads(layout, project):
    root = project / ".claude" / "commands"
    put(root, "bin.md", b"\xff\xfe\x00")
    put(root, "big.md", b"x" * (1024 * 1024 + 1))
    os.mkfifo(root / "fifo.md")
    (root / "loop.md").symlink_to("loop.md")
    put(root, "ok.md", "Body.\n")
    found_set = load_commands(layout)
    assert list(found_set.commands) == ["ok"]
    assert codes(found_set.diagnostics) == [
        "command.read.error", "encoding.not-utf8", "command.read.error", "command.read.error",
    ]  # fmt: skip


def test_symlinks_in_a_root(layout, project, tmp_path):
    root = project / ".claude" / "commands"
    put(root, "real.md", "Real\n")
    (root / "inside.md").symlink_to("real.md")
    outside = put(tmp_path / "elsewhere", "secret.md", "Secret\n")
    (root / "escape.md").symlink_to(outside)
    (root / "linked-dir").symlink_to(tmp_path / "elsewhere")
    (root / "self").symlink_to(root)
    found_set = load_commands(layout)
    assert list(found_set.commands) == ["inside", "real"]
    assert found(found_set.diagnostics) == [
        (
            "command.read.error",
            "error",
            f"cannot read the command file: a symlink to {outside}, outside {root}",
        ),
        (
            "command.read.error",
            "warning",
            "a symlinked directory in a commands root is not followed",
        ),
        (
            "command.read.error",
            "warning",
            "a symlinked directory in a commands root is not followed",
        ),
    ]


def test_a_symlinked_root_is_read(layout, project, tmp_path):
    real = tmp_path / "dotfiles" / "commands"
    put(real, "x.md", "Body.\n")
    (real / "y.md").symlink_to("x.md")
    (project / ".claude").mkdir()
    (project / ".claude" / "commands").symlink_to(real)
    assert list(load_commands(layout).commands) == ["x", "y"]


def test_a_root_that_is_a_file(layout, project):
    put(project / ".claude", "commands", "not a directory")
    found_set = load_commands(layout)
    assert found(found_set.diagnostics) == [
        ("discovery.root.not-directory", "warning", "a commands root that is not a directory")
    ]


def test_groups_nest_six_deep(tmp_path):
    root = tmp_path / "commands"
    put(root, "1/2/3/4/5/6/six.md", "Body.\n")
    put(root, "1/2/3/4/5/6/7/seven.md", "Body.\n")
    put(root, "1/2/3/4/5/6/8/eight.md", "Body.\n")
    scan = scan_commands(Root(root, "project", ".claude"))
    assert [c.name for c in scan.commands] == ["six"]
    assert [(d.code, d.message, d.path) for d in scan.diagnostics] == [
        (
            "discovery.limit",
            "the walk stopped: 2 directories deeper than 6 levels",
            root / "1/2/3/4/5/6/7",
        )
    ]


def test_the_file_budget(tmp_path):
    root = tmp_path / "commands"
    for name in ("a", "b", "c", "d", "g/e", "g/h/f"):
        put(root, f"{name}.md", "Body.\n")
    scan = scan_commands(Root(root, "user", ".claude"), max_files=3)
    assert [c.name for c in scan.commands] == ["a", "b", "c"]
    assert found(scan.diagnostics) == [
        (
            "discovery.limit",
            "warning",
            "more than 3 command files; only the first 3 (in walk order) are read; "
            "3 not read: d.md, g/e.md, g/h/f.md",
        )
    ]
    assert scan.diagnostics[0].path == root
    assert discover.MAX_FILES == 2000 and discover.MAX_DEPTH == 6


def test_the_directory_budget(tmp_path):
    root = tmp_path / "commands"
    for name in ("a", "b", "c"):
        put(root, f"{name}/x-{name}.md", "Body.\n")
    scan = scan_commands(Root(root, "user", ".claude"), max_dirs=2)
    assert [c.name for c in scan.commands] == ["x-a", "x-b"]
    assert found(scan.diagnostics) == [
        ("discovery.limit", "warning", "the walk stopped: more than 2 directories")
    ]


def _tree(root: Path, order: list[str]) -> None:
    files = {
        "a/x.md": "A\n",
        "b/x.md": "B\n",
        "x.md": "Top\n",
        "c/d/y.md": fm(name="x"),
        "Z.md": "Upper\n",
        "z.md": "Lower\n",
    }
    for relpath in order:
        put(root, relpath, files[relpath])


def _summary(found_set, root: Path):
    def rel(path):
        return None if path is None else str(path.relative_to(root))

    return (
        [(n, rel(c.path), c.aliases) for n, c in found_set.commands.items()],
        dict(found_set.aliases),
        [(d.code, d.message.replace(str(root), "ROOT")) for d in found_set.diagnostics],
    )


def test_the_result_does_not_depend_on_listing_or_creation_order(layout, project, monkeypatch):
    root = project / ".claude" / "commands"
    order = ["a/x.md", "b/x.md", "x.md", "c/d/y.md", "Z.md", "z.md"]
    _tree(root, order)
    expected = _summary(load_commands(layout), root)
    real_scandir = os.scandir

    class Reversed:
        def __init__(self, path):
            self.entries = list(real_scandir(path))[::-1]

        def __enter__(self):
            return iter(self.entries)

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(discover.os, "scandir", Reversed)
    assert _summary(load_commands(layout), root) == expected
    monkeypatch.undo()
    other = project.parent / "other"
    (other / ".git").mkdir(parents=True)
    _tree(other / ".claude" / "commands", order[::-1])
    from satchel import Layout

    again = load_commands(Layout.default(other, home=project.parent / "home", env={}))
    assert _summary(again, other / ".claude" / "commands") == expected
    assert expected[0] == [
        ("Z", "Z.md", ()),
        ("a:x", "a/x.md", ()),
        ("b:x", "b/x.md", ()),
        ("c:d:x", "c/d/y.md", ()),
        ("x", "x.md", ()),
    ]
    assert [code for code, _ in expected[2]] == [
        "command.name.invalid",
        "command.name.collision",
        "command.name.collision",
        "command.name.collision",
        "command.name.collision",
    ]

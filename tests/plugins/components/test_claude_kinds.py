"""Output styles, themes, channels, workflows and hooks modules of a Claude Code plugin:
where each is read from, its id, and each bad shape by code and exact message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satchel.cli import main
from satchel.plugins import Plugin, read_plugin
from tests.plugins.test_claude_code_kinds import every_kind
from tests.plugins.test_gemini_format import TERMINAL
from tests.support import check_golden, codes, put

MOD = 'export function register(on) {\n  on("prompt.submit", () => {})\n}\n'
WORKFLOW = 'export const meta = { name: "fan-out", description: "Fan out", phases: [] }\nreturn 1\n'


def plugin(root: Path, **manifest: Any) -> Plugin:
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "kit", **manifest}))
    found, diags = read_plugin(root)
    assert found is not None, [d.message for d in diags]
    return found


def said(found: Plugin, code: str) -> list[str]:
    return [d.message for d in found.diagnostics if d.code == code]


def test_an_output_style_is_named_by_its_frontmatter_or_file_under_the_plugin(root):
    head = "name: Terse\ndescription: Short\nkeep-coding-instructions: true\n"
    put(
        root,
        "output-styles/terse.md",
        f"---\n{head}force-for-plugin: false\n---\nAnswer briefly.\n",
    )
    put(root, "output-styles/deep/plain.md", "Be plain.\n")
    put(root, "output-styles/notes.txt", "not a style")
    found = plugin(root)
    styles = {s.id: s for s in found.output_styles}
    assert sorted(styles) == ["kit:Terse", "kit:plain"]
    terse = styles["kit:Terse"]
    assert (terse.description, terse.text, terse.keep_coding_instructions) == (
        "Short", "Answer briefly.", True,
    )  # fmt: skip
    assert not terse.replaces_system_prompt and styles["kit:plain"].replaces_system_prompt
    assert found.diagnostics == ()


def test_a_style_field_of_the_wrong_type_takes_its_default_and_the_style_loads(root):
    put(root, "output-styles/odd.md", "---\nname: 5\ndescription: [a]\n"
        "keep-coding-instructions: maybe\nforce-for-plugin: 1\n---\nx\n")  # fmt: skip
    found = plugin(root)
    assert [s.id for s in found.output_styles] == ["kit:5"]
    assert not found.output_styles[0].force_for_plugin
    assert said(found, "output_style.field.invalid") == [
        "`name` must be a string, not a number; it is used as text",
        "`description` must be a string, not a list; it is left out",
        "`keep-coding-instructions` must be true or false, not a string; it is false",
        "`force-for-plugin` must be true or false, not a number; it is false",
    ]


def test_manifest_paths_replace_the_default_directories(root):
    put(root, "output-styles/gone.md", "x")
    put(root, "themes/gone.json", "{}")
    put(root, "workflows/gone.js", WORKFLOW)
    put(root, "styles/other.md", "Other.")
    put(root, "t2/sun.json", '{"name": "Sun", "base": "light"}')
    put(root, "wf/lone.js", WORKFLOW.replace("fan-out", "lone"))
    found = plugin(
        root,
        outputStyles=["./styles", "./missing"],
        experimental={"themes": "./t2"},
        workflows="./wf/lone.js",
    )
    assert [s.id for s in found.output_styles] == ["kit:other"]
    assert [(t.id, t.title, t.base) for t in found.themes] == [("kit:sun", "Sun", "light")]
    assert [w.id for w in found.workflows] == ["kit:lone"]
    assert said(found, "output_style.invalid") == ["missing does not exist; no style loads from it"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("outputStyles", 5, "a path or a list of paths, not a number"),
        ("workflows", True, "a path or a list of paths, not a boolean"),
        ("channels", "chat", "an array of channels, not a string"),
        ("experimental", {"themes": 7}, "whose themes is a path or a list of paths, not a number"),
    ],
)
def test_a_kind_field_of_the_wrong_type_refuses_the_plugin_as_claude_code_does(
    root, field, value, message
):
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "kit", field: value}))
    found, diags = read_plugin(root)
    assert found is None
    assert codes(diags) == ["plugin.manifest.invalid"]
    assert message in diags[0].message


def test_a_theme_is_its_file_stem_and_a_file_that_is_no_object_is_left_out(root):
    put(root, "themes/dark.json", '{"name": "Dark Pro", "base": "dark"}')
    put(root, "themes/list.json", "[1]")
    put(root, "themes/deep/skip.json", "{}")
    found = plugin(root)
    assert [(t.id, t.title) for t in found.themes] == [("kit:dark", "Dark Pro")]
    assert said(found, "plugin.theme.invalid") == [
        "a theme is a JSON object, not a list; it is left out"
    ]


def test_a_workflow_is_its_meta_name_and_is_never_run(root):
    put(root, "workflows/fan.js", WORKFLOW)
    put(root, "workflows/bare.js", "const x = 1\n")
    put(root, "workflows/computed.js", 'export const meta = { name: "a" + "b" }\n')
    found = plugin(root)
    assert [(w.id, w.description) for w in found.workflows] == [("kit:fan-out", "Fan out")]
    assert said(found, "plugin.workflow.invalid") == [
        "`export const meta = { name, description, phases }` must be the first statement "
        "of a workflow script; it is left out",
        "meta.name must be a non-empty string literal; the workflow is left out",
    ]
    assert said(found, "plugin.component.not-run") == [
        "workflow 'kit:fan-out' is recognised and not run: satchel runs no JavaScript"
    ]


def test_a_hooks_module_is_listed_once_and_never_run(root):
    put(root, "hooks/mod.js", MOD)
    put(root, "hooks/two.js", MOD)
    put(root, "hooks/hooks.json", json.dumps({"modules": ["./mod.js", "./two.js"]}))
    found = plugin(root)
    assert [(m.relative, m.events) for m in found.modules] == [("hooks/mod.js", ("prompt.submit",))]
    assert found.hooks == ()
    assert codes(found.diagnostics) == ["plugin.component.not-run", "plugin.module.invalid"]
    assert said(found, "plugin.module.invalid") == [
        "hooks.json `modules` names one hooks module per plugin; a second entry ('./two.js') "
        "is refused"
    ]


@pytest.mark.parametrize(
    ("modules", "message"),
    [
        ("./mod.js", "`modules` must be an array of paths, not a string; none loads"),
        ([5], "a `modules` entry must be a path, not a number"),
        (["./none.js"], "hooks/none.js has no export named register"),
    ],
)
def test_a_bad_modules_entry_is_left_out(root, modules, message):
    put(root, "hooks/none.js", "const x = 1\n")
    put(root, "hooks/hooks.json", json.dumps({"modules": modules}))
    found = plugin(root)
    assert found.modules == ()
    assert len(said(found, "plugin.module.invalid")) == 1
    assert said(found, "plugin.module.invalid")[0].startswith(message)


def test_a_channel_binds_a_server_and_a_bad_entry_is_left_out(root):
    token = {"type": "string", "title": "Token", "description": "t", "sensitive": True}
    found = plugin(
        root,
        channels=[
            {"server": "chat", "userConfig": {"token": token}},
            {"userConfig": {}},
            {"server": "chat", "bogus": 1},
            {"server": "chat", "userConfig": {"k": {"type": "bad"}}},
        ],
    )
    assert [(c.server, dict(c.user_config)) for c in found.channels] == [("chat", {"token": token})]
    assert said(found, "plugin.channel.invalid") == [
        "channel #2: `server` must name one of the plugin's MCP servers; it is left out",
        "channel #3: unknown key 'bogus'; it is left out",
        "channel #4: userConfig 'k': `type` must be one of string, number, boolean, directory, "
        "file; it is left out",
    ]


def test_plugin_inspect_shows_each_kind_in_its_table(tmp_path, monkeypatch, capsys):
    for name in TERMINAL:
        monkeypatch.delenv(name, raising=False)
    every_kind(tmp_path / "kinds")
    monkeypatch.chdir(tmp_path)
    assert main(["plugin", "inspect", "kinds"]) == 0
    check_golden("plugins/claude-kinds-inspect.txt", capsys.readouterr().out)

"""The detection table: each marker, native precedence, several hosts' manifests (the
preference order, or refused by setting), Claude Code's layout without a manifest,
nothing found."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from satchel.plugins import DETECTION, FORMAT_ORDER, Detection, detect, read_plugin
from satchel.plugins._detect import HOST_NAMES, UNREAD
from tests.plugins.helpers import NATIVE, add_skill, native, write_json
from tests.support import codes, put

Maker = Callable[[Path], None]

MARKERS: dict[str, tuple[str, Maker]] = {
    "plugin.toml": ("bundle", lambda r: put(r, "plugin.toml", 'name = "demo"\n')),
    ".claude-plugin/plugin.json": (
        "claude",
        lambda r: write_json(r, ".claude-plugin/plugin.json", {"name": "demo"}),
    ),
    ".claude-plugin/ without a manifest": (
        "claude",
        lambda r: put(r, ".claude-plugin/README.md", "optional manifest\n"),
    ),
    ".codex-plugin/plugin.json": (
        "codex",
        lambda r: write_json(r, ".codex-plugin/plugin.json", {"name": "demo"}),
    ),
    ".cursor-plugin/plugin.json": (
        "cursor",
        lambda r: write_json(r, ".cursor-plugin/plugin.json", {"name": "demo"}),
    ),
    "gemini-extension.json": (
        "gemini",
        lambda r: write_json(r, "gemini-extension.json", {"name": "demo", "version": "1.0.0"}),
    ),
    "kimi.plugin.json": ("kimi", lambda r: write_json(r, "kimi.plugin.json", {"name": "demo"})),
    ".kimi-plugin/plugin.json": (
        "kimi",
        lambda r: write_json(r, ".kimi-plugin/plugin.json", {"name": "demo"}),
    ),
    ".opencode/plugins/*.js": (
        "opencode",
        lambda r: put(r, ".opencode/plugins/index.js", "export const P = async () => ({})\n"),
    ),
    ".opencode/tools/*.ts": (
        "opencode",
        lambda r: put(r, ".opencode/tools/search.ts", "export default {}\n"),
    ),
    "opencode.json": ("opencode", lambda r: write_json(r, "opencode.json", {"plugin": []})),
    "opencode.jsonc": ("opencode", lambda r: put(r, "opencode.jsonc", "// config\n{}\n")),
    "package.json keyword opencode": (
        "opencode",
        lambda r: write_json(r, "package.json", {"name": "x", "keywords": ["opencode"]}),
    ),
    "package.json keyword opencode-plugin": (
        "opencode",
        lambda r: write_json(
            r, "package.json", {"name": "x", "keywords": ["ai", "opencode-plugin"]}
        ),
    ),
    ".opencode/skills/*/SKILL.md": (
        "opencode",
        lambda r: add_skill(r, ".opencode/skills/lint") and None,
    ),
}


READ = sorted(m for m in MARKERS if MARKERS[m][0] not in UNREAD)
REFUSE = Detection(ambiguous="refuse")


@pytest.mark.parametrize("marker", READ)
def test_each_marker_selects_its_format(plugin_dir: Path, marker: str):
    fmt, make = MARKERS[marker]
    make(plugin_dir)
    assert detect(plugin_dir) == (fmt, [])


def test_a_format_recognised_and_not_read_alone_is_fatal(plugin_dir: Path, monkeypatch):
    monkeypatch.setattr("satchel.plugins._detect.UNREAD", frozenset(("kimi",)))
    MARKERS["kimi.plugin.json"][1](plugin_dir)
    fmt, diags = detect(plugin_dir)
    assert fmt is None
    assert [(d.code, d.severity, d.message) for d in diags] == [
        (
            "plugin.compatibility.adapter_unavailable",
            "error",
            "kimi.plugin.json (Kimi Code) is recognised, and satchel has no reader for it",
        )
    ]


def test_every_format_satchel_recognises_it_reads():
    assert not UNREAD


def test_every_row_of_the_table_is_tested():
    rows = {(m.format, m.path) for m in DETECTION}
    assert {m.format for m in DETECTION} == {fmt for fmt, _ in MARKERS.values()}
    assert len(rows) == len(DETECTION) == 13
    assert set(FORMAT_ORDER) == {m.format for m in DETECTION} | {"agent-plugins"}


def test_a_valid_native_manifest_wins_over_every_foreign_marker(plugin_dir: Path):
    for _, make in MARKERS.values():
        make(plugin_dir)
    native(plugin_dir)
    assert detect(plugin_dir) == ("agent-plugins", [])
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.format == "agent-plugins" and diags == []


def test_an_invalid_native_manifest_with_the_right_schema_is_still_native(plugin_dir: Path):
    write_json(plugin_dir, ".claude-plugin/plugin.json", {"name": "demo"})
    write_json(plugin_dir, "plugin.json", {"$schema": NATIVE, "name": "Not Valid"})
    assert detect(plugin_dir) == ("agent-plugins", [])
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None and codes(diags) == ["plugin.manifest.invalid"]


def test_an_unsupported_schema_version_is_fatal_whatever_else_is_there(plugin_dir: Path):
    write_json(plugin_dir, ".claude-plugin/plugin.json", {"name": "demo"})
    schema = "https://agent-plugins.org/schemas/1.1.0/plugin.schema.json"
    write_json(plugin_dir, "plugin.json", {"$schema": schema, "name": "demo"})
    fmt, diags = detect(plugin_dir)
    assert fmt is None and codes(diags) == ["plugin.schema.version_unsupported"]


def test_a_plugin_json_without_schema_leaves_the_foreign_marker_in_charge(plugin_dir: Path):
    write_json(plugin_dir, "plugin.json", {"name": "demo", "tools": []})  # Kimi CLI's old beta
    write_json(plugin_dir, ".claude-plugin/plugin.json", {"name": "demo"})
    assert detect(plugin_dir) == ("claude", [])


PAIRS = [
    (a, b) for a, b in itertools.combinations(sorted(MARKERS), 2) if MARKERS[a][0] != MARKERS[b][0]
]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_markers_of_two_formats_are_ambiguous_when_refused(
    plugin_dir: Path, first: str, second: str
):
    MARKERS[first][1](plugin_dir)
    MARKERS[second][1](plugin_dir)
    fmt, diags = detect(plugin_dir, detection=REFUSE)
    assert fmt is None
    assert codes(diags) == ["plugin.compatibility.format_ambiguous"]
    assert diags[0].severity == "error"


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_markers_of_two_formats_read_the_preferred_one(plugin_dir: Path, first: str, second: str):
    MARKERS[first][1](plugin_dir)
    MARKERS[second][1](plugin_dir)
    fmt, diags = detect(plugin_dir)
    one, other = MARKERS[first][0], MARKERS[second][0]
    readable = [f for f in (one, other) if f not in UNREAD]
    assert fmt == min(readable, key=FORMAT_ORDER.index)
    assert codes(diags) == ["plugin.compatibility.manifest_unused"]
    assert diags[0].severity == "info"
    unused = other if fmt == one else one
    assert f"({HOST_NAMES[unused]})" in diags[0].message.split("not used: ")[1]


@pytest.mark.parametrize(
    ("present", "chosen"),
    [
        (("kimi.plugin.json", ".codex-plugin/plugin.json"), "codex"),
        ((".codex-plugin/plugin.json", ".claude-plugin/plugin.json"), "claude"),
        (("plugin.toml", ".claude-plugin/plugin.json"), "bundle"),
        ((".cursor-plugin/plugin.json", "kimi.plugin.json"), "cursor"),
        (("gemini-extension.json", "kimi.plugin.json"), "gemini"),
        ((".cursor-plugin/plugin.json", "gemini-extension.json"), "cursor"),
        (("opencode.json", "kimi.plugin.json"), "kimi"),
    ],
)
def test_the_documented_order_decides(plugin_dir: Path, present: tuple[str, ...], chosen: str):
    for marker in present:
        MARKERS[marker][1](plugin_dir)
    assert detect(plugin_dir)[0] == chosen


def test_the_order_is_data_a_host_can_set(plugin_dir: Path):
    MARKERS[".claude-plugin/plugin.json"][1](plugin_dir)
    MARKERS[".codex-plugin/plugin.json"][1](plugin_dir)
    fmt, diags = detect(plugin_dir, detection=Detection(order=("codex", "claude")))
    assert fmt == "codex"
    assert [(d.code, d.message) for d in diags] == [
        (
            "plugin.compatibility.manifest_unused",
            "this directory holds manifests for several hosts; .codex-plugin/plugin.json "
            "(Codex) is read and these are not used: .claude-plugin (Claude Code)",
        )
    ]


def test_both_kimi_manifests_are_one_format(plugin_dir: Path):
    MARKERS["kimi.plugin.json"][1](plugin_dir)
    MARKERS[".kimi-plugin/plugin.json"][1](plugin_dir)
    assert detect(plugin_dir) == ("kimi", [])


def test_an_ambiguous_plugin_is_not_loaded_when_refused(plugin_dir: Path):
    MARKERS[".claude-plugin/plugin.json"][1](plugin_dir)
    MARKERS[".codex-plugin/plugin.json"][1](plugin_dir)
    add_skill(plugin_dir, "skills/lint")
    plugin, diags = read_plugin(plugin_dir, detection=REFUSE)
    assert plugin is None
    assert codes(diags) == ["plugin.compatibility.format_ambiguous"]
    assert ".claude-plugin" in diags[0].message and ".codex-plugin" in diags[0].message


def test_a_plugin_with_several_hosts_manifests_loads_by_default(plugin_dir: Path):
    MARKERS[".claude-plugin/plugin.json"][1](plugin_dir)
    MARKERS[".codex-plugin/plugin.json"][1](plugin_dir)
    add_skill(plugin_dir, "skills/lint")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.format == "claude"
    assert [s.name for s in plugin.skills] == ["lint"]
    assert codes(diags) == ["plugin.compatibility.manifest_unused"]


@pytest.mark.parametrize(
    "make",
    [
        lambda r: None,
        lambda r: add_skill(r, "skills/lint"),  # a default layout alone is every workspace
        lambda r: put(r, "commands/deploy.md", "Deploy.\n"),
        lambda r: (r / ".opencode").mkdir(),
        lambda r: put(r, ".opencode/plugins/README.md", "no code\n"),
        lambda r: write_json(r, "package.json", {"name": "x", "keywords": ["claude"]}),
        lambda r: write_json(r, ".claude-plugin/marketplace.json", {"name": "m", "plugins": []}),
        lambda r: write_json(r, "plugin.json", {"name": "demo"}),
    ],
    ids=["empty", "skills", "commands", "empty .opencode", "no code", "package.json",
         "marketplace only", "plugin.json without $schema"],
)  # fmt: skip
def test_nothing_recognisable_is_fatal(plugin_dir: Path, make: Maker):
    make(plugin_dir)
    fmt, diags = detect(plugin_dir)
    assert fmt is None
    assert codes(diags) == ["plugin.compatibility.format_unrecognized"]


def test_detection_reads_nothing_outside_the_root(tmp_path: Path, plugin_dir: Path):
    write_json(tmp_path, "package.json", {"keywords": ["opencode"]})
    (plugin_dir / "package.json").symlink_to(tmp_path / "package.json")
    (tmp_path / "code").mkdir()
    put(tmp_path, "code/index.js", "1\n")
    (plugin_dir / ".opencode").mkdir()
    (plugin_dir / ".opencode" / "plugins").symlink_to(tmp_path / "code")
    fmt, diags = detect(plugin_dir)
    assert fmt is None
    assert codes(diags) == ["plugin.compatibility.format_unrecognized"]


def test_a_plugin_json_linked_outside_the_root_is_fatal(tmp_path: Path, plugin_dir: Path):
    put(tmp_path, "plugin.json", json.dumps({"$schema": NATIVE, "name": "demo"}))
    (plugin_dir / "plugin.json").symlink_to(tmp_path / "plugin.json")
    fmt, diags = detect(plugin_dir)
    assert fmt is None and codes(diags) == ["plugin.path.outside_root"]

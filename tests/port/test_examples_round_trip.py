"""Every plugin the project ships as an example (below examples/) and every
community-shaped plugin the tests build (tests/plugins/test_claude_code_parity.py's
trees, and tests/port/plugins.py's four sources), ported to every target port writes
for, loads there, read as that target's host reads it, with exactly the source's
inventory minus the drops port reported, and with no complaint about a file port wrote.
The pinned Gemini CLI judges the names: it lists the skills of the community shapes
Claude Code names by their folder under the names port reported, and none it said
Gemini CLI refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satchel.plugins import read_plugin
from satchel.port import TARGETS, port
from tests.tools import claude_validate

from .plugins import (
    BROKEN,
    EXAMPLE_PLUGINS,
    SOURCES,
    expected,
    inventory,
    read_as,
    skipped_source_events,
    source_copy,
)
from .test_gemini_cli import run


def test_every_example_plugin_is_found():
    assert set(EXAMPLE_PLUGINS) == {
        "desk/.satchel/plugins/tickets",
        "home/.agents/plugins/snippets",
        "machine/home/.codex/plugins/cache/team/lint/1.0.0",
        "machine/home/.gemini/extensions/charts",
        "marketplace/plugins/release-notes",
        "workspace/.satchel/plugins/deploy-kit",
        "workspace/.satchel/plugins/lint-kit",
        "workspace/.satchel/plugins/meeting-notes",
        "workspace/.satchel/plugins/pr-tools",
        "workspace/.satchel/plugins/release-bundle",
        "workspace/.satchel/plugins/style-guide",
    }


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("source", SOURCES)
def test_the_ported_plugin_loads_with_the_source_inventory_minus_the_drops(
    tmp_path: Path, source: str, target: str
):
    root = source_copy(tmp_path, source)
    before, _ = read_plugin(root)
    if source in BROKEN:
        files = sorted(root.rglob("*"))
        assert before is None
        whole = port(root, [target])
        assert (whole.format, whole.targets) == (None, ())
        assert sorted(root.rglob("*")) == files
        return
    assert before is not None
    (report,) = port(root, [target]).targets
    if report.skipped:
        assert [d.code for d in report.problems] in (["port.target.source"],
                                                     ["port.name.invalid"])  # fmt: skip
        return
    assert report.problems == ()
    after, found = read_as(root, target)
    assert after is not None, [d.message for d in found]
    assert after.format == TARGETS[target].format
    assert inventory(after) == expected(before, report)
    written = {root / f.path for f in report.files}
    skipped = skipped_source_events(before, report, root, found)
    left = [d for d in found if d.severity != "info" and d.path in written and d not in skipped]
    assert [(d.code, d.message) for d in left] == []


# -- the host judges the names: Gemini CLI lists the skills port said it would --------

# community shapes whose skills Gemini CLI names otherwise than Claude Code, or refuses
RENAMED = ("community/bare", "community/content-studio", "community/underscored")


@pytest.fixture(scope="module")
def listed(gemini: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Each of `RENAMED` ported to Gemini CLI, linked into one HOME and listed once:
    the skill names Gemini CLI lists for each plugin, by source."""
    base = tmp_path_factory.mktemp("renamed")
    home = base / "home"
    home.mkdir()
    names = {}
    for source in RENAMED:
        root = source_copy(base / source.replace("/", "-"), source)
        port(root, ["gemini"])
        linked = run(gemini, home, "extensions", "link", str(root), "--consent")
        assert linked.returncode == 0, linked.stderr
        plugin, _ = read_plugin(root)
        assert plugin is not None
        names[plugin.name] = source
    done = run(gemini, home, "extensions", "list", "-o", "json")
    text = done.stdout or done.stderr  # 0.61.0 writes the list to stderr
    found = json.loads(text[text.index("[") :])
    return {names[e["name"]]: sorted(s["name"] for s in e["skills"]) for e in found}


@pytest.mark.parametrize("source", RENAMED)
def test_gemini_cli_lists_the_skills_under_the_names_port_reported(
    listed: dict[str, list[str]], tmp_path: Path, source: str
):
    root = source_copy(tmp_path, source)
    before, _ = read_plugin(root)
    assert before is not None
    (report,) = port(root, ["gemini"], dry_run=True).targets
    assert {d.diagnostic.code for d in report.drops if d.kind == "skill"} & {
        "port.name.changed", "port.skill.refused"
    }  # fmt: skip
    assert listed[source] == sorted(expected(before, report)["skill"].elements())


def test_claude_code_names_the_skills_as_port_reported(claude_code: Path, tmp_path: Path):
    """The Codex plugin whose skill is named otherwise than its folder, ported to Claude
    Code: ``claude plugin validate --json`` provides it under its folder's name, as
    port's ``port.name.changed`` said."""
    root = source_copy(tmp_path, "port/writing-desk")
    before, _ = read_plugin(root)
    assert before is not None
    (report,) = port(root, ["claude-code"]).targets
    assert [(d.diagnostic.code, d.name, d.to) for d in report.drops] == [
        ("port.name.changed", "voice-of-the-brand", "brand-voice")
    ]
    home = tmp_path / "home"
    home.mkdir()
    validated = claude_validate(claude_code, root, home)
    assert validated["success"] is True, validated["manifest"]["errors"]
    wanted = expected(before, report)["skill"].elements()
    assert sorted(validated["provides"]["skills"]) == sorted(f"{before.name}:{s}" for s in wanted)

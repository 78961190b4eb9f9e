"""`satchel commands`: the palette in precedence order, aliases, and the JSON."""

from __future__ import annotations

from .support import EXAMPLE, HOME, WORKSPACE, check_golden

NAMES = ["release-notes", "component", "review-pr", "standup"]
PLUGIN_NAMES = ["pr-tools:pr-summary", "release-bundle:publish", "release-bundle:tag"]


def test_human_palette_matches_golden(satchel, in_repo):
    result = satchel("commands", *EXAMPLE)
    assert result.code == 0
    assert result.err == (
        f"project: {WORKSPACE} (--project)\n"
        "\n1 diagnostic about commands; run `satchel doctor --project examples/workspace "
        "--home examples/home --trust` to see them.\n"
    )
    check_golden("commands.txt", result.out)


def test_shadowed_commands_are_not_listed(satchel, in_repo):
    out = satchel("commands", *EXAMPLE).out
    assert out.count("/review-pr ") == 1
    assert ".agents/commands/review-pr.md" not in out


def test_json_is_the_command_sets_json(satchel, in_repo):
    result = satchel("commands", "--json", *EXAMPLE)
    doc = result.json()
    assert result.code == 0
    assert set(doc) == {
        *("version", "project", "commands", "aliases", "builtins", "shadowed", "diagnostics")
    }
    assert [c["name"] for c in doc["commands"]] == NAMES + PLUGIN_NAMES
    assert [c["origin"] for c in doc["commands"]] == ["(project)"] * 3 + ["(user)"] + [
        "(plugin:pr-tools)",
        "(plugin:release-bundle)",
        "(plugin:release-bundle)",
    ]
    assert doc["aliases"] == {
        "frontend:component": "component",
        "pr-summary": "pr-tools:pr-summary",
        "publish": "release-bundle:publish",
        "tag": "release-bundle:tag",
    }
    assert doc["shadowed"] == [
        {
            "name": "review-pr",
            "winner": str(WORKSPACE / ".claude/commands/review-pr.md"),
            "loser": str(WORKSPACE / ".agents/commands/review-pr.md"),
        }
    ]
    assert doc["commands"][3]["path"] == str(HOME / ".claude/commands/standup.md")
    assert doc["commands"][2]["argument_hint"] == "[pr-number]"
    assert [d["code"] for d in doc["diagnostics"]] == ["command.shadowed"]


def test_no_commands(satchel, project, home):
    result = satchel("commands", "--project", project, "--home", home)
    assert result.code == 0
    assert result.out == ""
    assert result.err.startswith(f"project: {project} (--project)\nNo commands found")
    doc = satchel("commands", "--project", project, "--home", home, "--json").json()
    assert doc["commands"] == []
    assert doc["aliases"] == {}

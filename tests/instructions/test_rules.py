"""An instruction rule is data: a rule of one's own, written as a host definition
writes it, is read with no code of its own, and each host's rule is the one its
definition holds."""

from __future__ import annotations

from pathlib import Path

import satchel
from satchel import hosts
from satchel.hosts import InstructionRule, InstructionSource, RuleFiles
from satchel.kinds._instructions import MODES, load_instructions
from tests.support import write_tree

ACME = InstructionRule(
    mode="satchel",  # the word is not looked up: the rule is given as it is
    host="Acme",
    source="a made-up host",
    user_folder="~/.acme",
    user=(InstructionSource("ACME.md", "agents"),),
    project=(
        InstructionSource(".acme/rules", "rule", RuleFiles(".md", "apply-to", base="root")),
        InstructionSource("ACME.md", "agents"),
        InstructionSource("TOP.md", "legacy", root_only=True),
    ),
)


def test_a_rule_of_ones_own_reads_its_files_in_its_folders(
    project: Path, home: Path, layout: satchel.Layout
) -> None:
    write_tree(home, {".acme/ACME.md": "user\n"})
    write_tree(
        project,
        {
            "ACME.md": "root\n",
            "TOP.md": "top\n",
            "sub/ACME.md": "sub\n",
            "sub/TOP.md": "not at the root\n",
            ".acme/rules/r.md": "---\napplyTo: '*.py'\n---\npython\n",
            "AGENTS.md": "not named by the rule\n",
        },
    )
    walked = satchel.Layout.default(project / "sub", project=project, home=home, env={})
    files, diags = load_instructions(walked, mode=ACME)
    assert diags == ()
    assert [(f.label, f.always) for f in files] == [
        ("~/.acme/ACME.md", True),
        (".acme/rules/r.md", False),
        ("ACME.md", True),
        ("TOP.md", True),
        ("sub/ACME.md", True),
    ]
    assert files[1].applies_to(project / "x.py")


def test_each_mode_is_the_rule_its_hosts_definition_holds() -> None:
    for mode, rule in MODES.items():
        owners = [h for h in hosts.PROFILES.values() if h.instruction_rule is rule]
        assert [h.instructions for h in owners] == [mode]


def test_a_profile_loads_with_the_rule_its_definition_holds(project: Path, home: Path) -> None:
    """`load(host=...)` reads the profile's own `instruction_rule`, not the rule its word
    names: a profile made from Codex's definition with a rule of its own reads that."""
    import dataclasses

    write_tree(home, {".acme/ACME.md": "user\n"})
    write_tree(project, {"ACME.md": "root\n", "AGENTS.md": "Codex's file\n"})
    mine = dataclasses.replace(hosts.get("codex"), name="acme", instruction_rule=ACME)
    layout = mine.layout(project, home=home, project=project, env={})
    env = satchel.load(layout=layout, host=mine, trusted=True)
    assert [f.label for f in env.instructions] == ["~/.acme/ACME.md", "ACME.md"]

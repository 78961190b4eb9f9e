"""A host's own rules that turn skills off (Codex's ``[[skills.config]]``): a ``~`` in a
rule's path is the home the load was given, never the process's."""

from __future__ import annotations

import os
from pathlib import Path

from satchel.core.layout import Layout
from satchel.foundations._host_state import host_config
from satchel.hosts._codex import CODEX_STATE
from satchel.skills._host_rules import skill_rules
from tests.support import put


def test_a_tilde_in_a_rule_path_is_the_given_home(tmp_path: Path, monkeypatch) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    monkeypatch.setenv("HOME", str(elsewhere))
    put(
        home / ".codex/config.toml",
        '[[skills.config]]\npath = "~/.agents/skills/old/SKILL.md"\nenabled = false\n',
    )
    layout = Layout.default(tmp_path, home=home, env={})
    rules = skill_rules(CODEX_STATE, host_config(layout, CODEX_STATE, trust_project=False))
    wanted = os.path.realpath(home / ".agents/skills/old/SKILL.md")
    assert [(kind, value, on) for kind, value, on in rules.rules] == [("path", wanted, False)]

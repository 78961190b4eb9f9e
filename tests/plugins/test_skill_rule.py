"""How a plugin skill is named: Claude Code's rule by default (its directory), Vibe's
stricter rule (the name must equal the directory) as `load(plugin_skill_rule=...)` or
``[load] plugin_skill_rule`` in ``config.toml``."""

from __future__ import annotations

import json
from pathlib import Path

import satchel
from tests.support import put


def claude_plugin(home: Path) -> Path:
    root = home / ".agents" / "plugins" / "writer"
    put(root / ".claude-plugin" / "plugin.json", json.dumps({"name": "writer"}))
    put(root / "skills" / "brand-voice" / "SKILL.md", "---\nname: voice\ndescription: v\n---\nb\n")
    put(root / "skills" / "seo" / "SKILL.md", "---\nname: seo\ndescription: s\n---\nb\n")
    return root


def user_config(home: Path, text: str) -> Path:
    return put(home / ".config" / "satchel" / "config.toml", text)


def plugin_skills(env: satchel.Environment) -> list[str]:
    return sorted(name for name, skill in env.skills.items() if skill.scope == "plugin")


def test_by_default_a_plugin_skill_is_named_by_its_directory(layout, home):
    claude_plugin(home)
    env = satchel.load(layout=layout)
    assert plugin_skills(env) == ["writer:brand-voice", "writer:seo"]
    assert [d.code for d in env.diagnostics] == ["skill.name.mismatch"]


def test_vibes_rule_as_a_load_option_skips_a_skill_named_otherwise(layout, home):
    root = claude_plugin(home)
    env = satchel.load(layout=layout, plugin_skill_rule="vibe")
    assert plugin_skills(env) == ["writer:seo"]
    skipped = [d for d in env.diagnostics if d.code == "plugin.skill.invalid"]
    assert [(d.message, d.path) for d in skipped] == [
        (
            "the skill's name must be given and equal its directory name 'brand-voice' "
            "(got 'voice'); the skill is skipped",
            root.resolve() / "skills" / "brand-voice" / "SKILL.md",
        )
    ]


def test_vibes_rule_from_config_toml_and_the_load_option_wins(layout, home):
    claude_plugin(home)
    user_config(home, '[load]\nplugin_skill_rule = "vibe"\n')
    assert plugin_skills(satchel.load(layout=layout)) == ["writer:seo"]
    given = satchel.load(layout=layout, plugin_skill_rule="claude-code")
    assert plugin_skills(given) == ["writer:brand-voice", "writer:seo"]


def test_a_bad_rule_in_config_toml_is_reported_and_the_default_holds(layout, home):
    claude_plugin(home)
    path = user_config(home, '[load]\nplugin_skill_rule = "strict"\n')
    env = satchel.load(layout=layout)
    assert plugin_skills(env) == ["writer:brand-voice", "writer:seo"]
    bad = [d for d in env.diagnostics if d.code == "config.invalid"]
    assert [(d.message, d.path) for d in bad] == [
        ("config.toml: [load] plugin_skill_rule must be 'claude-code' or 'vibe'", path)
    ]

"""A plugin skill's ``${user_config.KEY}``: a value that is not sensitive is filled,
a sensitive one is named and never filled, one with no value stays as written (Claude
Code 2.1.332: userConfig values reach "(non-sensitive only) skill/agent content")."""

from __future__ import annotations

import json
import os

import satchel
from satchel.plugins._options import write_values
from satchel.session import Session
from tests.support import write_tree

OPTIONS = {
    "region": {"type": "string", "title": "Region", "description": "d"},
    "token": {"type": "string", "title": "Token", "description": "d", "sensitive": True},
    "team": {"type": "string", "title": "Team", "description": "d", "required": True},
}


def test_a_plugin_skill_gets_its_values_but_never_a_sensitive_one(layout, tmp_path):
    plugin = tmp_path / "plugins" / "kit"
    body = "Region ${user_config.region}, token ${user_config.token}, team ${user_config.team}.\n"
    write_tree(
        plugin,
        {
            ".claude-plugin/plugin.json": json.dumps({"name": "kit", "userConfig": OPTIONS}),
            "skills/tool/SKILL.md": f"---\nname: tool\ndescription: Tool.\n---\n{body}",
        },
    )
    env = satchel.load(layout=layout, plugin_dirs=[plugin])
    assert write_values(layout, env.plugins.plugins["kit"], {"region": "eu-west"}) == []
    session = Session(env, environ={"PATH": os.environ["PATH"]})
    name = next(n for n in env.skills if n.endswith("tool"))
    text = session.call("load_skill", {"name": name}).text
    assert (
        "Region eu-west, token [sensitive option 'token' not available in skill content], "
        "team ${user_config.team}.\n"
    ) in text

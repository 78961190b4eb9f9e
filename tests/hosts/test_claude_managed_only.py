"""Claude Code 2.1.337's ``strictPluginOnlyCustomization``, ``disableSideloadFlags`` and
``disableCommandPluginSources`` are honoured only from its managed settings: written in
the user's and the project's settings files (the ones satchel reads), they change
nothing, for Claude Code (one ``-p`` turn with ``--plugin-dir``) and for satchel's
claude-code profile alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel import hosts
from tests.hostloop.hosts import run_claude
from tests.hostloop.model import Text
from tests.support import put

LISTING = "The following skills are available for use with the Skill tool:\n\n"
LOCKS = {
    "strictPluginOnlyCustomization": True,
    "disableSideloadFlags": True,
    "disableCommandPluginSources": True,
}


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: The {name} skill\n---\nDo it.\n"


def _listed(body: dict[str, Any]) -> list[str]:
    for message in body["messages"]:
        content = message["content"]
        blocks = [content] if isinstance(content, str) else [b.get("text", "") for b in content]
        for text in blocks:
            if LISTING in text:
                lines = text.split(LISTING, 1)[1].split("\n\n", 1)[0].splitlines()
                return [line[2:].split(": ", 1)[0] for line in lines if line.startswith("- ")]
    raise AssertionError("no skills listing in the request")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("managed-only")
    home, project, given = base / "home", base / "project", base / "given"
    (project / ".git").mkdir(parents=True)
    put(home, ".claude/settings.json", json.dumps(LOCKS))
    put(project, ".claude/settings.json", json.dumps(LOCKS))
    put(home, ".claude/skills/mine/SKILL.md", _skill("mine"))
    put(home, ".claude/skills/kit/.claude-plugin/plugin.json", json.dumps({"name": "kit"}))
    put(home, ".claude/skills/kit/skills/tool/SKILL.md", _skill("tool"))
    put(project, ".claude/skills/ours/SKILL.md", _skill("ours"))
    put(given, ".claude-plugin/plugin.json", json.dumps({"name": "given"}))
    put(given, "skills/extra/SKILL.md", _skill("extra"))
    return {"home": home, "project": project, "given": given}


def test_the_locks_in_user_and_project_settings_change_nothing(
    tree: dict[str, Path], claude_code_next: Path
):
    turn = run_claude(claude_code_next, tree["project"], tree["home"], "hi", [Text("ok")],
                      args=["--plugin-dir", str(tree["given"])])  # fmt: skip
    assert turn.returncode == 0, turn.stderr  # --plugin-dir is not refused
    listed = _listed(turn.turns[0].body)
    layout = hosts.get("claude-code").layout(tree["project"], home=tree["home"], env={})
    env = satchel.load(layout=layout, host="claude-code", trusted=True,
                       plugin_dirs=(tree["given"],))  # fmt: skip
    ours = sorted(env.skills)
    assert ours == ["given:extra", "kit:tool", "mine", "ours"]
    assert set(ours) <= set(listed)

"""Claude Code 2.1.337's skills-directory plugins (``claude plugin init`` scaffolds one
into ``~/.claude/skills/<name>/``; it loads as ``<name>@skills-dir``): satchel's
claude-code profile loads the same folders under the same ids, with the skills a turn
of Claude Code 2.1.337 lists. Claude Code runs twice for the module (``plugin list
--json`` and one ``-p`` turn), on a home that ``claude plugin init`` scaffolded."""

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
from tests.tools import claude_plugin

LISTING = "The following skills are available for use with the Skill tool:\n\n"


def _skill(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\nDo it.\n"


def _tree(base: Path, binary: Path) -> tuple[Path, Path]:
    home, project = base / "home", base / "project"
    home.mkdir()
    (project / ".git").mkdir(parents=True)
    made = claude_plugin(binary, home, base, "init", "demo", "--description", "A demo",
                         "--with", "skills", "agents")  # fmt: skip
    assert made.returncode == 0, made.stderr
    skills = home / ".claude" / "skills"
    put(skills, "plain/SKILL.md", _skill("plain", "A plain user skill"))
    put(skills, "halfway/.claude-plugin/README.txt", "no manifest here")
    put(skills, "halfway/SKILL.md", _skill("halfway", "A skill folder with no manifest"))
    put(skills, "folder-x/.claude-plugin/plugin.json", json.dumps({"name": "named-y"}))
    put(skills, "folder-x/SKILL.md", _skill("folder-x", "The folder's own skill"))
    put(skills, "folder-x/skills/inner/SKILL.md", _skill("inner", "A skill of named-y"))
    put(skills, ".hidden/.claude-plugin/plugin.json", json.dumps({"name": "hidden"}))
    put(skills, ".hidden/skills/secret/SKILL.md", _skill("secret", "Never adopted"))
    local = project / ".claude" / "skills"
    put(local, "pp/.claude-plugin/plugin.json", json.dumps({"name": "pp"}))
    put(local, "pp/SKILL.md", _skill("pp", "The project folder's own skill"))
    put(local, "pp/skills/ps/SKILL.md", _skill("ps", "A skill of the project's plugin"))
    return home, project


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
def observed(tmp_path_factory: pytest.TempPathFactory, claude_code_next: Path) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("skills-dir")
    home, project = _tree(base, claude_code_next)
    listed = claude_plugin(claude_code_next, home, project, "list", "--json")
    plugins = [p for p in json.loads(listed.stdout) if p["id"].endswith("@skills-dir")]
    turn = run_claude(claude_code_next, project, home, "hi", [Text("ok")])
    return {
        "home": home,
        "project": project,
        "plugins": plugins,
        "listed": _listed(turn.turns[0].body),
    }


def _load(observed: dict[str, Any], *, trusted: bool) -> satchel.Environment:
    layout = hosts.get("claude-code").layout(observed["project"], home=observed["home"], env={})
    return satchel.load(layout=layout, host="claude-code", trusted=trusted)


def test_the_folders_with_a_manifest_load_under_claude_codes_ids(observed: dict[str, Any]):
    home = observed["home"] / ".claude" / "skills"
    claude = {
        (p["id"], p["scope"], p["installPath"]) for p in observed["plugins"] if p["installPath"]
    }
    env = _load(observed, trusted=False)
    ours = {
        (p.installed, p.scope, str(p.root))
        for p in env.plugins.plugins.values()
        if p.installed and p.installed.endswith("@skills-dir")
    }
    assert (
        ours
        == claude
        == {
            ("demo@skills-dir", "user", str(home / "demo")),
            ("named-y@skills-dir", "user", str(home / "folder-x")),
        }
    )


def test_the_project_folders_wait_for_trust_as_in_claude_code(observed: dict[str, Any]):
    """Claude Code, in a workspace whose trust dialog was not accepted, skips the
    project's plugin folders and says so; satchel in an untrusted project does too."""
    (held,) = [p for p in observed["plugins"] if p["scope"] == "project"]
    assert held["enabled"] is False
    assert held["noteDetails"] == [{"type": "project-scope-suppressed-untrusted"}]
    env = _load(observed, trusted=False)
    assert "pp" not in env.plugins.plugins
    (said,) = [d for d in env.diagnostics if d.path == observed["project"] / ".claude/skills"]
    assert (said.code, said.message) == (
        "discovery.untrusted",
        "1 plugin folder(s) of the project's .claude/skills are not loaded as plugins: "
        "the project is not trusted",
    )
    trusted = _load(observed, trusted=True)
    assert trusted.plugins.plugins["pp"].installed == "pp@skills-dir"
    assert "pp:ps" in trusted.skills


def test_the_skills_listed_are_claude_codes(observed: dict[str, Any]):
    """The turn lists the folders' own SKILL.md as plain skills and the plugins' skills
    namespaced, never ``demo:demo`` (which ``plugin init``'s manifest names with
    ``skills: ["./"]``); the rest of its listing is Claude Code's own skills."""
    env = _load(observed, trusted=False)
    ours = [name for name in env.skills if name in observed["listed"]]
    assert set(ours) == set(env.skills)
    assert sorted(ours) == sorted(
        ["demo", "demo:example", "folder-x", "halfway", "named-y:inner", "plain", "pp"]
    )
    assert "demo:demo" not in env.skills and "demo:demo" not in observed["listed"]
    assert not {"secret", "hidden:secret"} & {*observed["listed"], *env.skills}

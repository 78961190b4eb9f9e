"""Trust pins on the hooks skills and agent types declare in their own frontmatter
(threat model T03): a project skill's or agent's hook, or a script inside the skill it
names, changed or new since `satchel trust`, is held back until the folder is trusted
again, like a ``hooks.toml`` hook; an agent's spawn spec hands a host only the hooks
satchel's runner would run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import satchel
from satchel.session import Session
from satchel.trust._approval import digests
from satchel.trust._trust import trust
from tests.support import put


@pytest.fixture
def bare(project: Path, home: Path) -> satchel.Layout:
    return satchel.Layout.default(project, home=home, env={})


def pin(layout: satchel.Layout, folder: Path) -> dict[str, str]:
    """What `satchel trust` does: trust `folder` pinned to what it holds now."""
    pins = digests(satchel.load(layout=layout, trusted=True).executables())
    trust(layout, folder, approved=pins)
    return pins


def held(env: satchel.Environment) -> list[str]:
    return [d.message for d in env.diagnostics if d.code == "trust.changed"]


def bash_hook(command: str) -> dict:
    return {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}


GUARD = "sh .agents/skills/guard/scripts/guard.sh"


def guard_skill(
    root: Path, canary: Path, text: str = "first", command: str = GUARD, skills: str = ".agents"
) -> Path:
    """A skill whose hook runs a script inside the skill that writes `text` to `canary`."""
    folder = root / skills / "skills" / "guard"
    front = f"name: guard\ndescription: Guards.\nhooks: {json.dumps(bash_hook(command))}\n"
    put(folder / "SKILL.md", f"---\n{front}---\nBody.\n")
    put(folder / "scripts" / "guard.sh", f"#!/bin/sh\necho {text} >> '{canary}'\n")
    return folder


def activated(env: satchel.Environment) -> Session:
    session = Session(env, environ={"PATH": "/usr/bin:/bin"}, tools="skills")
    session.activate("guard")
    session.before_tool_use("Bash", {"command": "ls"})
    return session


def test_a_skills_hook_is_pinned_and_runs_while_unchanged(bare, project, tmp_path):
    canary = tmp_path / "canary"
    guard_skill(project, canary)
    assert sorted(pin(bare, project)) == ["hook skill:guard/before_tool_use/Bash#1"]
    env = satchel.load(layout=bare)
    assert held(env) == []
    activated(env)
    assert canary.read_text() == "first\n"


def test_a_script_a_skills_hook_names_edited_after_trust_is_held_back(bare, project, tmp_path):
    canary = tmp_path / "canary"
    guard_skill(project, canary)
    pin(bare, project)
    guard_skill(project, canary, "second")  # the same hook, new bytes in its script
    env = satchel.load(layout=bare)
    assert held(env) == [
        f"hook skill:guard/before_tool_use/Bash#1 changed since {project} was trusted; it "
        f"does not run until `satchel trust {project}` approves it again"
    ]
    [hook] = env.own_hooks(env.skills["guard"]).hooks
    assert (hook.source, hook.status, hook.why) == (
        "skill:guard",
        "skipped",
        "changed since the folder was trusted",
    )
    activated(env)
    assert not canary.exists()
    pin(bare, project)
    activated(satchel.load(layout=bare))
    assert canary.read_text() == "second\n"


def test_a_changed_hook_declaration_in_skill_md_is_held_back(bare, project, tmp_path):
    canary = tmp_path / "canary"
    guard_skill(project, canary)
    pin(bare, project)
    guard_skill(project, canary, command=f"{GUARD} --again")
    env = satchel.load(layout=bare)
    assert [m.split(" since ")[0] for m in held(env)] == [
        "hook skill:guard/before_tool_use/Bash#1 changed"
    ]
    activated(env)
    assert not canary.exists()


def test_a_skill_with_a_hook_arriving_after_trust_is_held_back(bare, project, tmp_path):
    """A `git pull` brings a new skill with a hook into a folder trusted before it."""
    put(project / "README.md", "a project\n")
    pin(bare, project)
    canary = tmp_path / "canary"
    guard_skill(project, canary)
    env = satchel.load(layout=bare)
    assert held(env) == [
        f"hook skill:guard/before_tool_use/Bash#1 is new since {project} was trusted; it "
        f"does not run until `satchel trust {project}` approves it again"
    ]
    activated(env)
    assert not canary.exists()


def test_the_users_own_skill_hooks_are_not_pinned(bare, project, tmp_path):
    canary = tmp_path / "canary"
    put(project / "README.md", "a project\n")
    pin(bare, project)
    script = bare.config_home / "satchel" / "skills" / "guard" / "scripts" / "guard.sh"
    guard_skill(bare.config_home, canary, command=f"sh '{script}'", skills="satchel")
    env = satchel.load(layout=bare)
    assert env.skills["guard"].scope == "user"
    assert held(env) == []
    activated(env)
    assert canary.read_text() == "first\n"


# -- an agent type's hooks in its spawn spec ---------------------------------------------


def agent_file(project: Path, canary: Path, text: str = "first") -> None:
    put(project / "tools" / "check.sh", f"#!/bin/sh\necho {text} >> '{canary}'\n")
    hooks = {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "sh tools/check.sh"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "true"}]}],
    }
    front = f"name: checker\ndescription: Checks.\nhooks: {json.dumps(hooks)}\n"
    put(project / ".claude" / "agents" / "checker.md", f"---\n{front}---\nYou check.\n")


def spawned(env: satchel.Environment) -> satchel.agents.SpawnSpec:
    return env.agents.agents["checker"].spawn_spec(env)


def test_an_untrusted_projects_agent_hooks_are_not_handed_out_as_runnable(bare, project, tmp_path):
    agent_file(project, tmp_path / "canary")
    spec = spawned(satchel.load(layout=bare))  # the folder is on no list
    assert spec.hooks == ()
    assert [(h.source, h.event, h.status, h.why) for h in spec.held_hooks] == [
        ("agent:checker", "before_tool_use", "skipped", "the project is not trusted"),
        ("agent:checker", "subagent_stop", "skipped", "the project is not trusted"),
    ]
    assert [d.code for d in spec.diagnostics] == ["hook.untrusted"]
    document = spec.to_json()
    assert (document["hooks"], len(document["held_hooks"])) == ([], 2)


def test_an_agents_hook_edited_after_trust_is_flagged_in_its_spawn_spec(bare, project, tmp_path):
    canary = tmp_path / "canary"
    agent_file(project, canary)
    assert sorted(k for k in pin(bare, project) if k.startswith("hook agent:")) == [
        "hook agent:checker/before_tool_use/Bash#1",
        "hook agent:checker/subagent_stop/*#1",
    ]
    spec = spawned(satchel.load(layout=bare))
    assert [(h.event, h.status) for h in spec.hooks] == [
        ("before_tool_use", "loaded"),
        ("subagent_stop", "loaded"),
    ]
    agent_file(project, canary, "second")  # the script the hook names, edited
    env = satchel.load(layout=bare)
    assert held(env) == [
        f"hook agent:checker/before_tool_use/Bash#1 changed since {project} was trusted; it "
        f"does not run until `satchel trust {project}` approves it again"
    ]
    spec = spawned(env)
    assert [h.event for h in spec.hooks] == ["subagent_stop"]
    assert [(h.event, h.why) for h in spec.held_hooks] == [
        ("before_tool_use", "changed since the folder was trusted")
    ]


def test_a_spawn_spec_of_a_declarative_load_hands_out_no_hook(layout, project, tmp_path):
    agent_file(project, tmp_path / "canary")
    spec = spawned(satchel.load(layout=layout, executable=False))
    assert spec.hooks == ()
    assert {h.why for h in spec.held_hooks} == {"declarative-only loading runs no hook"}


# -- a skill's !`cmd` lines ---------------------------------------------------------------


def shell_skill(root: Path, canary: Path, text: str = "first", name: str = "stamp") -> Path:
    """A project skill whose one `` !`cmd` `` line appends `text` to `canary`."""
    folder = root / ".agents" / "skills" / name
    body = f"Stamp:\n!`echo {text} >> '{canary}'`\n"
    put(folder / "SKILL.md", f"---\nname: {name}\ndescription: Stamps.\n---\n{body}")
    return folder


def activate_stamp(env: satchel.Environment, name: str = "stamp") -> tuple[str, list[tuple]]:
    session = Session(env, environ={"PATH": "/usr/bin:/bin"}, tools="skills")
    text = session.activate(name).content
    return text, [(d.code, d.message) for d in session.diagnostics]


def test_a_skills_shell_line_is_pinned_and_runs_while_unchanged(bare, project, tmp_path):
    canary = tmp_path / "canary"
    shell_skill(project, canary)
    assert sorted(pin(bare, project)) == ["shell skill:stamp#1"]
    _, problems = activate_stamp(satchel.load(layout=bare))
    assert canary.read_text() == "first\n"
    assert problems == []


def test_a_shell_line_edited_after_trust_is_held_back_until_trusted_again(bare, project, tmp_path):
    canary = tmp_path / "canary"
    shell_skill(project, canary)
    pin(bare, project)
    env = satchel.load(layout=bare)
    shell_skill(project, canary, "second")  # edited after the load: checked as it is now
    text, problems = activate_stamp(env)
    assert not canary.exists()
    why = f"shell skill:stamp#1 changed since {project} was trusted"
    command = f"echo second >> '{canary}'"
    assert problems == [
        (
            "exec.interpolation.refused",
            f"skill 'stamp': {why}; `satchel trust` approves it again: {command}",
        )
    ]
    assert f"[satchel: not run, {why}; `satchel trust` approves it again: " in text
    assert [(d.code, d.message) for d in env.held_lines()] == [
        (
            "trust.changed",
            f"{why}; it does not run until `satchel trust {project}` approves it again",
        )
    ]
    pin(bare, project)
    _, problems = activate_stamp(satchel.load(layout=bare))
    assert (canary.read_text(), problems) == ("second\n", [])


def test_a_skill_with_a_shell_line_arriving_after_trust_is_held_back(bare, project, tmp_path):
    """A `git pull` brings a new skill with a `` !`cmd` `` line into a trusted folder."""
    put(project / "README.md", "a project\n")
    pin(bare, project)
    canary = tmp_path / "canary"
    shell_skill(project, canary)
    _, problems = activate_stamp(satchel.load(layout=bare))
    assert not canary.exists()
    assert [m.split(";")[0] for _, m in problems] == [
        f"skill 'stamp': shell skill:stamp#1 is new since {project} was trusted"
    ]


def test_a_host_that_trusts_the_folder_itself_holds_no_shell_line_back(bare, project, tmp_path):
    canary = tmp_path / "canary"
    put(project / "README.md", "a project\n")
    pin(bare, project)
    shell_skill(project, canary)
    env = satchel.load(layout=bare, trusted=True)  # the host's own answer: no pins
    assert env.held_lines() == ()
    activate_stamp(env)
    assert canary.read_text() == "first\n"

"""Profiles defined as [hosts.<name>] tables of the user's config.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from satchel import hosts
from tests.support import codes, put, skill_md, write_skill

ACME = """
[hosts.acme]
base = "codex"
title = "Acme agent"
skills = [
  { scope = "project", family = ".acme", template = "{project}/.acme/skills" },
  { scope = "user", family = ".acme", template = "{home}/.acme/skills" },
]
argument_numbering = 0
nested = false
"""


def config(home: Path, text: str) -> Path:
    return put(home / ".config" / "satchel" / "config.toml", text)


def test_a_user_profile_starts_from_its_base_and_replaces_what_it_names(project, home):
    config(home, ACME)
    found, problems = hosts.user_profiles(home / ".config")
    acme = found["acme"]
    assert problems == ()
    assert (acme.title, acme.argument_numbering, acme.walk.nested) == ("Acme agent", 0, False)
    assert acme.instructions == "codex" and acme.ancestors is True  # from the base
    assert [r.family for r in acme.skills] == [".acme", ".acme"]


def test_load_finds_a_user_profile_by_name(project, home):
    config(home, ACME)
    write_skill(project / ".acme" / "skills", "ours", skill_md("ours", "project"))
    write_skill(project / ".agents" / "skills", "codexs", skill_md("codexs", "not read"))
    acme, _ = hosts.resolve("acme", config_home=home / ".config")
    env = satchel.load(layout=acme.layout(project, home=home, env={}), host=acme, trusted=True)
    assert list(env.skills) == ["ours"]
    assert env.host.name == "acme"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('[hosts.acme]\nbase = "nope"\n',
         "[hosts.acme]: base 'nope' is not a built-in profile (satchel, claude-code, codex, "
         "gemini, cursor, copilot, opencode, kimi, vibe, mermaid, zidane, caveman); left out"),
        ('[hosts.codex]\ntitle = "mine"\n',
         "[hosts.codex]: 'codex' is a built-in profile and cannot be redefined; left out"),
        ('[hosts.Bad_Name]\n', "[hosts.Bad_Name]: a profile name is lowercase letters, digits "
         "and '-'; left out"),
        ('hosts = 3\n', "[hosts] must be a table, not a number"),
    ],
)  # fmt: skip
def test_a_profile_that_cannot_be_used_is_left_out_with_a_reason(home, table, message):
    path = config(home, table)
    found, problems = hosts.user_profiles(home / ".config")
    assert found == {}
    assert [(d.code, d.message, d.path) for d in problems] == [
        ("host.config.invalid", message, path)
    ]


def test_a_bad_key_is_left_out_and_the_rest_of_the_profile_kept(home):
    config(
        home,
        '[hosts.acme]\nargument_numbering = 2\ncolour = "red"\nancestors = "yes"\n'
        'plugin_formats = ["claude", "nope"]\ncommand_naming = "path"\n',
    )
    found, problems = hosts.user_profiles(home / ".config")
    assert found["acme"].command_naming == "path"
    assert found["acme"].argument_numbering == 1  # satchel's, the default base
    assert [d.message for d in problems] == [
        "[hosts.acme]: argument_numbering must be one of 0, 1, not 2; left out",
        "[hosts.acme]: unknown key 'colour'; left out",
        "[hosts.acme]: ancestors must be true or false, not a string; left out",
        "[hosts.acme]: plugin_formats must be a list of plugin formats (agent-plugins, "
        "bundle, claude, codex, cursor, gemini, kimi, opencode, workspace); left out",
    ]
    assert set(codes(problems)) == {"host.config.invalid"}


def test_the_problems_of_the_profile_used_reach_the_environment(project, home):
    config(home, '[hosts.acme]\nbase = "caveman"\ncolour = 1\n')
    layout = satchel.Layout.default(project, home=home, env={})
    env = satchel.load(layout=layout, host="acme", trusted=True)
    assert "host.config.invalid" in codes(env.diagnostics)


@pytest.mark.parametrize(
    ("template", "names"),
    [("{projct}/.acme/skills", "{projct}"), ("{}/skills", "{}"), ("{home/skills", "{}")],
)
def test_a_template_naming_an_unknown_placeholder_leaves_the_key_out(home, template, names):
    row = f'{{ scope = "project", family = ".acme", template = "{template}" }}'
    config(home, f'[hosts.acme]\nbase = "codex"\nskills = [{row}]\n')
    found, problems = hosts.user_profiles(home / ".config")
    assert found["acme"].skills == hosts.get("codex").skills  # the base's table is kept
    assert [d.message for d in problems] == [
        f"[hosts.acme]: skills template {template!r} names {names}; "
        "use {project}, {cwd}, {home} or {config}; left out"
    ]


def test_a_user_profile_sets_each_rule_of_the_walk(home):
    config(
        home,
        '[hosts.acme]\nbase = "gemini"\nhidden_dirs = true\nskip_dirs = ["vendor", "vendor"]\n'
        "follow_symlinked_dirs = true\nskills_in_skills = true\nroot_skill = false\n"
        "linked_skill_files = false\nnested = true\nmax_dirs = 10\nskip_dirs_typo = 1\n"
        "[hosts.bad]\nskip_dirs = [1]\n",
    )
    found, problems = hosts.user_profiles(home / ".config")
    walk = found["acme"].walk
    assert walk == satchel.WalkBounds(
        nested=True,
        max_dirs=10,
        follow_symlinked_dirs=True,
        hidden_dirs=True,
        skip_dirs=("vendor",),
        skills_in_skills=True,
        root_skill=False,
        linked_skill_files=False,
    )
    assert found["acme"].names == hosts.get("gemini").names  # from the base
    assert [d.message for d in problems] == [
        "[hosts.acme]: unknown key 'skip_dirs_typo'; left out",
        "[hosts.bad]: skip_dirs must be a list of folder names; left out",
    ]

"""Gemini CLI's own list of trusted folders decides trust for its profile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import satchel
from satchel import hosts
from satchel.hosts._trust import gemini_trusts
from tests.support import put, skill_md, write_skill


def layout_for(cwd: Path, home: Path, rules: object) -> satchel.Layout:
    put(home / ".gemini" / "trustedFolders.json", json.dumps(rules))
    return hosts.get("gemini").layout(cwd, home=home, env={})


@pytest.mark.parametrize(
    ("rules", "trusted"),
    [
        ({"{cwd}": "TRUST_FOLDER"}, True),
        ({"{top}": "TRUST_FOLDER"}, True),  # a folder above cwd covers it
        ({"{cwd}/x": "TRUST_PARENT"}, True),  # the parent of the path is cwd
        ({"{top}": "TRUST_FOLDER", "{cwd}": "DO_NOT_TRUST"}, False),
        ({"{cwd}/x": "TRUST_FOLDER"}, False),  # below cwd does not cover it
        ({}, False),
    ],
)
def test_a_folder_is_trusted_as_gemini_cli_reads_its_list(tmp_path, home, rules, trusted):
    top = tmp_path / "top"
    cwd = top / "cwd"
    cwd.mkdir(parents=True)
    given = {k.format(cwd=cwd, top=top): v for k, v in rules.items()}
    assert gemini_trusts(layout_for(cwd, home, given)) == (trusted, None)


def test_a_list_that_is_not_a_map_of_folders_trusts_nothing_and_says_so(tmp_path, home):
    layout = layout_for(tmp_path, home, ["not", "a", "map"])
    trusted, problem = gemini_trusts(layout)
    assert trusted is False and problem is not None
    assert (problem.code, problem.message) == (
        "config.trust.invalid",
        "trustedFolders.json: it must map folders to TRUST_FOLDER, TRUST_PARENT or "
        "DO_NOT_TRUST; no folder is trusted",
    )


def test_load_with_the_gemini_profile_reads_the_project_only_when_gemini_trusts_it(project, home):
    write_skill(project / ".gemini" / "skills", "theirs", skill_md("theirs", "The project's."))
    trusted = satchel.load(
        layout=layout_for(project, home, {str(project): "TRUST_FOLDER"}), host="gemini"
    )
    untrusted = satchel.load(layout=layout_for(project, home, {}), host="gemini")
    assert (list(trusted.skills), list(untrusted.skills)) == (["theirs"], [])


def test_a_skill_name_over_the_hosts_limit_is_refused(project, home):
    write_skill(project / ".agents" / "skills", "long", skill_md("a" * 65, "Too long."))
    env = satchel.load(layout=hosts.get("codex").layout(project, home=home, env={}), host="codex")
    refused = [d for d in env.diagnostics if d.code == "skill.name.refused"]
    assert list(env.skills) == []
    assert [d.message for d in refused] == [
        "the host loads no skill whose name is over 64 characters; 'aaaaaaaaaaaaaaaaaaaa'... has 65"
    ]

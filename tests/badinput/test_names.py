"""N01 name syntax, N02 collisions in one root, N03 shadowing across roots.

The single-warning name cases are in the WARNED table in cases.py.
"""

from __future__ import annotations

import os

import pytest

import satchel
from tests.support import codes, skill_md, write_skill

from .build import INSTRUCTIONS, SIBLING, found, only, write_sibling
from .cases import (
    NAME_65,
    NFC_CAFE,
    NFD_CAFE,
    WARNED,
    fm,
    n02_case_twins,
    n02_file_twins,
    n02_nfc_nfd,
    n02_same_name_two_dirs,
    n03_every_root,
    n03_project_over_user,
)

NAME_CASES = [w for w in WARNED if w.id.startswith(("N01-", "U01-")) and "name" in w.code]


def test_64_character_name_loads_cleanly(tree):
    name = "a" * 64
    write_skill(tree.skills, name, skill_md(name, "At the limit.", INSTRUCTIONS, gap=False))

    env = tree.load()

    assert env.diagnostics == ()
    assert list(env.skills) == [name]


@pytest.mark.parametrize("name", ["con", "nul", "lpt1", "aux"])
def test_windows_device_names_follow_the_spec_rule(tree, name):
    """N01: `con`, `nul`, `lpt1` pass the Agent Skills name rule, so they load here (on a
    filesystem that can hold such a directory). A decision, recorded as a test."""
    write_skill(tree.skills, name, skill_md(name, "A device name.", INSTRUCTIONS, gap=False))

    env = tree.load()

    assert env.diagnostics == ()
    assert list(env.skills) == [name]


@pytest.mark.parametrize("case", NAME_CASES, ids=lambda c: c.id)
def test_name_problems_are_errors_in_strict_mode(tree, case):
    """N01: lenient loading warns and uses the directory name; strict refuses."""
    path = write_skill(tree.skills, case.dirname, case.content)

    skill, diags = satchel.parse_skill(path, strict=True)

    assert skill is None
    assert [(d.code, d.severity) for d in diags] == [(case.code, "error")]
    assert diags[0].message == case.message


def test_invalid_name_in_an_invalid_directory_is_skipped(tree):
    """N01: when the directory name cannot stand in either, the skill is skipped."""
    path = write_skill(tree.skills, "PDF_Tools", fm("name: PDF_Tools\ndescription: d\n"))
    write_sibling(tree.skills)

    env = tree.load()

    assert [(d.code, d.severity, d.message) for d in env.diagnostics] == [
        ("skill.name.invalid", "warning", "the name 'PDF_Tools' must be lowercase"),
        (
            "skill.name.hosts",
            "info",
            "Codex names it 'PDF_Tools'; Gemini CLI names it 'PDF_Tools'",
        ),
        (
            "skill.name.invalid",
            "error",
            "the directory name 'PDF_Tools' cannot stand in for the name either",
        ),
    ]
    assert all(d.path == path for d in env.diagnostics)
    assert list(env.skills) == [SIBLING]


def _case_sensitive(directory) -> bool:
    probe = directory / "CaseProbe"
    probe.mkdir()
    try:
        return not os.path.exists(directory / "caseprobe")
    finally:
        probe.rmdir()


def test_case_twin_directories_collide_with_the_first_in_code_point_order(tree):
    """N02: Deploy/ and deploy/ both named deploy: Deploy/ sorts first and wins; the
    loser is reported with both paths, never silently dropped."""
    if not _case_sensitive(tree.skills):
        pytest.skip("needs a case-sensitive filesystem to hold both directories")
    upper, lower = n02_case_twins(tree)

    env = tree.load()

    assert [s.path for s in env.skills.values()] == [upper]
    d = only(env, "skill.name.collision")
    assert d.path == lower
    assert d.message == (
        f"two skills are named 'deploy' in one root; {upper} is kept, {lower} is ignored"
    )
    assert [x.path for x in found(env, "skill.name.mismatch")] == [upper]


def test_same_name_in_two_directories_collides(tree):
    first, second = n02_same_name_two_dirs(tree)

    env = tree.load()

    assert env.skills["shared"].path == first
    d = only(env, "skill.name.collision")
    assert d.path == second
    assert d.message == (
        f"two skills are named 'shared' in one root; {first} is kept, {second} is ignored"
    )
    assert [(s.name, s.winner.path, s.loser.path) for s in env.shadowed] == [
        ("shared", first, second)
    ]


def test_skill_md_twin_warns_and_only_skill_md_is_read(tree):
    """N02: SKILL.md and skill.md side by side (a case-sensitive filesystem)."""
    if not _case_sensitive(tree.skills):
        pytest.skip("needs a case-sensitive filesystem to hold both files")
    twin = n02_file_twins(tree)

    env = tree.load()

    d = only(env, "skill.file.twin")
    assert (d.path, d.severity) == (twin, "warning")
    assert d.message == "both SKILL.md and skill.md exist; only SKILL.md is read"
    assert env.skills["twin"].description == "From SKILL.md."
    assert codes(env.diagnostics) == ["skill.file.twin"]


@pytest.mark.parametrize("filename", ["skill.md", "Skill.md", "SKILL.MD", "skill.MD"])
def test_misnamed_skill_file_is_reported_not_loaded(tree, filename):
    path = write_skill(
        tree.skills,
        "lower",
        skill_md("lower", "Misnamed.", INSTRUCTIONS, gap=False),
        filename=filename,
    )
    write_sibling(tree.skills)

    env = tree.load()

    d = only(env, "skill.file.misnamed")
    assert (d.path, d.severity) == (path, "warning")
    assert d.message == (f"{filename} is not loaded: the skill file must be named exactly SKILL.md")
    assert d.hint == "rename it to SKILL.md"
    assert list(env.skills) == [SIBLING]


def test_nfc_and_nfd_names_both_fail_the_ascii_rule(tree):
    """N02: café (NFC) and café (NFD) are not ASCII names: both are rejected."""
    nfc, nfd = n02_nfc_nfd(tree)
    write_sibling(tree.skills)

    env = tree.load()

    assert list(env.skills) == [SIBLING]
    rejected = [d.path for d in found(env, "skill.name.invalid") if d.severity == "error"]
    assert sorted(rejected) == sorted([nfc, nfd])


def test_nfc_and_nfd_names_collide_when_unicode_names_are_allowed(tree):
    """N02: with Unicode names, NFC and NFD spellings are one name: one collision naming
    both paths. The NFD directory sorts first by code point and wins."""
    nfc, nfd = n02_nfc_nfd(tree)

    env = tree.load(unicode_names=True)

    assert [s.path for s in env.skills.values()] == [nfd]
    d = only(env, "skill.name.collision")
    assert d.path == nfc
    assert str(nfc) in d.message
    assert str(nfd) in d.message
    assert NFC_CAFE in d.message or NFD_CAFE in d.message


def test_project_skill_shadows_the_user_skill(tree):
    """N03: precedence is project over user; the loser is reported, never silent."""
    project, user = n03_project_over_user(tree)

    env = tree.load(trusted=True)

    assert env.skills["deploy"].path == project
    d = only(env, "skill.shadowed")
    assert (d.path, d.severity) == (user, "warning")
    assert d.message == (
        f"skill 'deploy' at {user} (user .claude) is shadowed by {project} (project .claude)"
    )


def test_the_first_root_of_the_layout_table_wins(tree):
    """N03: the same name in every root: the first row wins, each other row is
    shadowed, in table order."""
    paths = n03_every_root(tree)

    env = tree.load(trusted=True)

    assert env.skills["deploy"].path == paths[0]
    assert [d.path for d in found(env, "skill.shadowed")] == paths[1:]
    assert [s.loser.path for s in env.shadowed] == paths[1:]
    assert {s.winner.path for s in env.shadowed} == {paths[0]}


def test_untrusted_project_skill_never_shadows_a_user_skill(tree):
    project, user = n03_project_over_user(tree)

    env = tree.load(trust_project_skills=False)

    assert env.skills["deploy"].path == user
    assert found(env, "skill.shadowed") == []
    d = only(env, "discovery.untrusted")
    assert d.path == project.parent.parent


def test_host_catalog_skill_shadows_every_root(tree):
    project, user = n03_project_over_user(tree)
    builtin = satchel.Skill(name="deploy", description="Built into the host.")

    env = tree.load(catalog=[builtin], trusted=True)

    assert env.skills["deploy"] is builtin
    shadowed = found(env, "skill.shadowed")
    assert [d.path for d in shadowed] == [project, user]
    assert shadowed[0].message == (
        f"skill 'deploy' at {project} (project .claude) is shadowed by the host catalog (catalog)"
    )


def test_65_character_name_loads_with_a_warning_only_in_lenient_mode(tree):
    write_skill(tree.skills, NAME_65, skill_md(NAME_65, "Too long.", INSTRUCTIONS, gap=False))

    lenient = tree.load()
    strict = tree.load(strict=True)

    assert list(lenient.skills) == [NAME_65]
    assert list(strict.skills) == []
    assert [d.severity for d in strict.diagnostics] == ["error"]

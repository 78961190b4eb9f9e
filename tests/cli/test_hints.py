"""The hints a first run meets: a hint that names another verb names it with the
scope options this run was given, so it reads the same project."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import skill_md, write_tree


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    """A project with one good skill and one without a description, run from above."""
    root = tmp_path / "p"
    write_tree(
        root,
        {
            ".claude/skills/ok/SKILL.md": skill_md("ok", "Fine. Use it."),
            ".claude/skills/bad/SKILL.md": "---\nname: bad\n---\nBody.\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    return root


def test_see_doctor_carries_dir_home_host_and_trust(satchel, project, tmp_path):
    (tmp_path / "my home").mkdir()
    result = satchel("list", "p", "--home", "my home", "--host", "claude-code", "--no-trust")
    assert result.err.splitlines()[-1] == (
        "1 diagnostic; run `satchel doctor p --home 'my home' --host claude-code --no-trust` "
        "to see them."
    )


def test_see_doctor_carries_project_client_and_plugin_dirs(satchel, project, tmp_path):
    (tmp_path / "plug").mkdir()
    result = satchel(
        "commands", "--project", "p", "--home", "h", "--client", "mine", "--plugin-dir", "plug"
    )
    assert result.err.splitlines()[-1] == (
        "No commands found; `satchel doctor --project p --home h --client mine "
        "--plugin-dir plug` shows what did not load."
    )


def test_an_unknown_skill_names_list_with_the_same_scope(satchel, project):
    result = satchel("show", "nope", "p", "--home", "h", "--host", "codex")
    assert result.code == 1
    assert "`satchel list p --home h --host codex` shows the skills that load" in result.err


def test_defaults_are_not_repeated(satchel, project, monkeypatch):
    monkeypatch.chdir(project)
    result = satchel("list", "--home", "h")
    assert result.err.splitlines()[-1] == (
        "1 diagnostic; run `satchel doctor --home h` to see them."
    )


KNOWN = (
    "satchel, claude-code, codex, gemini, cursor, copilot, opencode, kimi, vibe, mermaid, "
    "zidane, caveman"
)


@pytest.mark.parametrize(
    ("args", "param"),
    [
        (("list", "--host", "claude"), "'--host'"),
        (("doctor", "--host", "claude"), "'--host'"),
        (("compat", "--host", "claude"), "'--host'"),
        (("hosts", "claude"), "'NAME'"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else v,
)
def test_an_unknown_host_names_the_one_meant(satchel, tmp_path, monkeypatch, args, param):
    monkeypatch.chdir(tmp_path)
    result = satchel(*args, "--home", tmp_path / "home")
    assert result.code == 2
    assert result.err.splitlines()[-1] == (
        f"Error: Invalid value for {param}: no host profile is named 'claude' "
        f"(did you mean 'claude-code'?); known: {KNOWN}"
    )


def test_a_host_nothing_is_near_gets_the_known_list_only(satchel, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = satchel("list", "--host", "zzz", "--home", tmp_path / "home")
    assert result.err.splitlines()[-1] == (
        f"Error: Invalid value for '--host': no host profile is named 'zzz'; known: {KNOWN}"
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("index", "--format", "tol"),
            "Error: Invalid value for '--format': 'tol' is not one of 'tool', 'xml', 'paths' "
            "(did you mean 'tool'?).",
        ),
        (
            ("policy", "export", "--to", "claude"),
            "Error: Invalid value for '--to': 'claude' is not one of 'claude-code', 'codex' "
            "(did you mean 'claude-code'?).",
        ),
        (
            ("port", ".", "--to", "claude"),
            "Error: Invalid value for '--to': unknown target 'claude' (did you mean "
            "'claude-code'?); the targets are claude-code, codex, cursor, gemini, kimi, vibe, "
            "agent-plugins",
        ),
        (
            ("install", "x", "--scope", "usr"),
            "Error: Invalid value for '--scope': 'usr' is not one of 'project', 'user' "
            "(did you mean 'user'?).",
        ),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else "",
)
def test_an_unknown_choice_names_the_one_meant(satchel, tmp_path, monkeypatch, args, line):
    monkeypatch.chdir(tmp_path)
    result = satchel(*args)
    assert (result.code, result.err.splitlines()[-1]) == (2, line)


def test_load_with_an_unknown_host_names_the_one_meant(tmp_path):
    import satchel as lib

    with pytest.raises(lib.UnknownHost) as raised:
        lib.load(tmp_path, host="codx")
    assert raised.value.diagnostic.code == "host.unknown"
    assert raised.value.diagnostic.message == (
        f"no host profile is named 'codx' (did you mean 'codex'?); known: {KNOWN}"
    )

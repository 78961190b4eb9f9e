"""What an untrusted project holds back is said where it happens: `satchel install`,
`list` and `index` name the folders that do not load and the `satchel trust` command
(stderr for people; a ``trust.required`` diagnostic in --json), not only `doctor`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import skill_md, write_tree


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """A plugin with one skill, and a plain skill, to install from disk."""
    root = tmp_path / "source"
    write_tree(
        root,
        {
            "notes/.claude-plugin/plugin.json": '{"name": "notes"}',
            "notes/skills/draft/SKILL.md": skill_md("draft", "Draft notes. Use when asked."),
            "tidy/SKILL.md": skill_md("tidy", "Tidy up. Use when asked."),
        },
    )
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    """A fresh git project, the current directory, trusted by nobody."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    return root


def _line(what: str, project: Path) -> str:
    return (
        f"satchel: {what} not loaded: the project {project} is not trusted; "
        f"run `satchel trust . --home {project.parent / 'home'}` to trust it"
    )


def _held(document: dict) -> list[tuple[str, str, str | None]]:
    return [
        (d["code"], d["message"], d["hint"])
        for d in document["diagnostics"]
        if d["code"] == "trust.required"
    ]


def test_install_of_a_plugin_into_an_untrusted_project_says_so(satchel, source, project, home):
    result = satchel("install", source / "notes", "--home", home)
    assert result.code == 0
    assert result.err == _line(".satchel/plugins/notes/", project) + "\n"


def test_install_json_carries_the_note_as_a_diagnostic(satchel, source, project, home):
    document = satchel("install", source / "notes", "--home", home, "--json").json()
    message = _line(".satchel/plugins/notes/", project).removeprefix("satchel: ")
    assert _held(document) == [("trust.required", message, f"satchel trust . --home {home}")]


def test_installing_a_skill_holds_nothing_back(satchel, source, project, home):
    result = satchel("install", source / "tidy", "--home", home)
    assert (result.code, result.err) == (0, "")
    assert _held(satchel("install", source / "tidy", "--home", home, "--json").json()) == []


def test_list_and_index_name_what_is_held_back(satchel, source, project, home):
    satchel("install", source / "notes", "--home", home)
    listed = satchel("list", "--home", home)
    assert listed.out == ""
    assert listed.err.splitlines()[1:] == [
        f"No skills found; `satchel doctor --home {home}` shows where satchel looked.",
        _line(".satchel/plugins/", project),
    ]
    indexed = satchel("index", "--home", home)
    assert (indexed.out, indexed.err) == ("", _line(".satchel/plugins/", project) + "\n")
    message = _line(".satchel/plugins/", project).removeprefix("satchel: ")
    want = [("trust.required", message, f"satchel trust . --home {home}")]
    assert _held(satchel("list", "--home", home, "--json").json()) == want
    assert _held(satchel("index", "--home", home, "--json").json()) == want


def test_a_trusted_project_gets_no_note(satchel, source, project, home):
    satchel("install", source / "notes", "--home", home)
    assert satchel("trust", "--home", home).code == 0
    listed = satchel("list", "--home", home)
    assert "notes:draft" in listed.out
    assert listed.err == f"project: {project} (git root)\n"
    assert _held(satchel("index", "--home", home, "--json").json()) == []


def test_an_update_of_a_plugin_in_an_untrusted_project_says_so(satchel, source, project, home):
    assert satchel("install", source / "notes", "--home", home).code == 0
    (source / "notes" / "skills" / "draft" / "notes.md").write_text("More.\n")
    result = satchel("update", "--home", home)
    assert result.code == 0
    assert "notes: " in result.out and "+ skills/draft/notes.md" in result.out
    assert result.err == _line(".satchel/plugins/notes/", project) + "\n"
    message = _line(".satchel/plugins/notes/", project).removeprefix("satchel: ")
    (source / "notes" / "skills" / "draft" / "more.md").write_text("Again.\n")
    document = satchel("update", "--home", home, "--json").json()
    assert _held(document) == [("trust.required", message, f"satchel trust . --home {home}")]
    up_to_date = satchel("update", "--home", home)  # nothing placed: nothing said
    assert (up_to_date.code, up_to_date.err) == (0, "")

"""Output styles in a session: the user's, the project's and the plugins' styles by id
on `Environment.output_styles`, and `Session(output_style=...)` putting the chosen
one first in `context()` as ``agent.output-style``."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from satchel import Session
from tests.support import put

TERSE = "---\nname: Terse\nkeep-coding-instructions: true\n---\nAnswer briefly.\n"


def kit(tmp_path: Path, *, forced: bool = False) -> Path:
    root = tmp_path / "kit"
    put(root, ".claude-plugin/plugin.json", '{"name": "kit"}')
    flag = "force-for-plugin: true\n" if forced else ""
    put(root, "output-styles/teach.md", f"---\n{flag}---\nExplain each step.\n")
    return root


def test_the_user_project_and_plugin_styles_are_selectable_by_id(layout, home, project, tmp_path):
    put(home, ".claude/output-styles/terse.md", TERSE)
    put(project, ".claude/output-styles/terse.md", "---\nname: Terse\n---\nProject terse.\n")
    put(project, ".claude/output-styles/plain.md", "Plain words.\n")
    env = satchel.load(layout=layout, plugin_dirs=[kit(tmp_path)])
    styles = env.output_styles
    assert sorted(styles) == ["Terse", "kit:teach", "plain"]
    assert (styles["Terse"].scope, styles["Terse"].text) == ("project", "Project terse.")  # wins
    assert styles["kit:teach"].plugin == "kit"


def test_the_selected_style_is_the_first_segment_and_says_if_it_replaces_the_prompt(layout, home):
    put(home, ".claude/output-styles/terse.md", TERSE)
    env = satchel.load(layout=layout)
    segments = Session(env, output_style="Terse").context()
    assert (segments[0].id, segments[0].kind, segments[0].stability, segments[0].text) == (
        "agent.output-style",
        "output_style",
        "session",
        "Answer briefly.",
    )
    assert not env.output_styles["Terse"].replaces_system_prompt
    assert [s.id for s in Session(env).context()][:1] != ["agent.output-style"]


def test_a_forced_plugin_style_applies_when_none_is_selected(layout, tmp_path):
    env = satchel.load(layout=layout, plugin_dirs=[kit(tmp_path, forced=True)])
    first = Session(env).context()[0]
    assert (first.id, first.text) == ("agent.output-style", "Explain each step.")


def test_an_unknown_style_is_refused_when_the_session_is_made(layout, tmp_path):
    env = satchel.load(layout=layout, plugin_dirs=[kit(tmp_path)])
    with pytest.raises(satchel.UnknownOutputStyle) as raised:
        Session(env, output_style="Terse")
    assert raised.value.code == "session.output_style.unknown"
    assert str(raised.value) == "no output style 'Terse' (loaded: kit:teach)"


def test_a_projects_styles_are_read_only_when_its_content_is(home, project):
    """As its skills: an untrusted folder's load with ``untrusted="skip-project"``
    reads none of them."""
    put(project, ".claude/output-styles/plain.md", "Plain words.\n")
    untrusted = satchel.Layout.default(project, home=home, env={})
    assert list(satchel.load(layout=untrusted).output_styles) == ["plain"]
    assert dict(satchel.load(layout=untrusted, untrusted="skip-project").output_styles) == {}

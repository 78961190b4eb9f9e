"""YAML 1.1's boolean words (yes, no, on, off) are text in frontmatter, as Claude Code,
Codex and Gemini CLI read it (YAML 1.2), on the fast path and through PyYAML alike;
a field that is a boolean still takes them as one."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.agents import parse_claude
from satchel.foundations import frontmatter
from satchel.kinds.commands import read_command
from satchel.skills import parse_skill
from tests.support import put

WORDS = ["on", "yes", "off", "No", "ON", "Yes"]


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("tail", ["", "  # a comment sends it to PyYAML"])
def test_a_word_is_the_text_written(word: str, tail: str):
    parsed = frontmatter.parse(f"---\ndescription: {word}{tail}\nname: {word}\n---\n".encode())
    assert parsed.fields == {"description": word, "name": word}


def test_true_and_false_are_still_booleans():
    parsed = frontmatter.parse(b"---\na: true\nb: False\nc: [yes, off]\n---\n")
    assert parsed.fields == {"a": True, "b": False, "c": ["yes", "off"]}


@pytest.mark.parametrize("word", WORDS)
def test_a_skill_described_by_a_word_loads_under_its_name(tmp_path: Path, word: str):
    put(tmp_path, "yes/SKILL.md", f"---\nname: yes\ndescription: {word}\n---\nBody\n")
    skill, found = parse_skill(tmp_path / "yes")
    assert skill is not None, [d.message for d in found]
    assert (skill.name, skill.description) == ("yes", word)
    assert found == ()


def test_a_boolean_field_keeps_its_meaning(tmp_path: Path):
    text = "---\nname: s\ndescription: d\ndisable-model-invocation: yes\nbackground: on\n---\nB\n"
    put(tmp_path, "s/SKILL.md", text)
    skill, found = parse_skill(tmp_path / "s")
    assert skill is not None and found == ()
    assert skill.extras["disable-model-invocation"] == "yes"
    assert skill.background is True

    put(tmp_path, "cmds/c.md", "---\ndescription: off\ndisable-model-invocation: On\n---\nB\n")
    command, found = read_command(tmp_path / "cmds/c.md")
    assert command is not None
    assert (command.description, command.disable_model_invocation) == ("off", True)


def test_an_agent_named_and_described_by_words(tmp_path: Path):
    data = b"---\nname: yes\ndescription: off\nbackground: yes\n---\nPrompt\n"
    agent, found = parse_claude(data, tmp_path / "a.md")
    assert agent is not None, [d.message for d in found]
    assert (agent.name, agent.description, agent.background) == ("yes", "off", True)

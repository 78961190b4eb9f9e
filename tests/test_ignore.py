"""Selecting codes to ignore: exact codes and dotted prefixes, as ruff selects rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.core._ignore import ignored, kept, split_selectors, unknown_selectors
from satchel.core.diagnostics import diagnostic
from satchel.foundations._config import ignored_codes
from tests.support import put


@pytest.mark.parametrize(
    ("selector", "selected"),
    [
        ("agent.model.alias", True),
        ("agent.model", True),
        ("agent", True),
        ("agent.mod", False),  # a prefix ends at a dot
        ("agent.model.alias.x", False),
        ("skill", False),
    ],
)
def test_a_selector_is_a_code_or_a_dotted_prefix(selector, selected):
    assert ignored("agent.model.alias", [selector]) is selected


def test_kept_drops_only_the_selected_codes():
    a = diagnostic("agent.model.alias", "m", None)
    b = diagnostic("agent.tool.unknown", "t", None)
    c = diagnostic("skill.name.mismatch", "s", None)
    assert kept([a, b, c], ["agent.model"]) == (b, c)
    assert kept([a, b, c], ["agent"]) == (c,)
    assert kept([a, b, c], []) == (a, b, c)


def test_unknown_selectors_are_those_that_select_no_registered_code():
    given = ["agent.model", "agent.mod", "frontmatter.yaml.colon-fallback", "nothing"]
    assert unknown_selectors(given) == ["agent.mod", "nothing"]


def test_command_line_values_split_at_commas():
    assert split_selectors(["a.b,c.d", " e ", ",", ""]) == ["a.b", "c.d", "e"]


def _config(root: Path, text: str) -> None:
    put(root, ".config/satchel/config.toml", text)


def test_config_ignore_is_read_from_the_user_and_a_trusted_project(layout, home, project):
    _config(home, '[diagnostics]\nignore = ["agent.model.alias"]\n')
    (project / ".satchel").mkdir()
    (project / ".satchel/config.toml").write_text('[diagnostics]\nignore = ["agent.tool"]\n')
    problems: list = []
    assert ignored_codes(layout, trust_project=True, problems=problems) == (
        "agent.model.alias",
        "agent.tool",
    )
    assert ignored_codes(layout, trust_project=False, problems=problems) == ("agent.model.alias",)
    assert problems == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[diagnostics]\nignore = ["agent.mod"]\n',
            "[diagnostics] ignore names no diagnostic code: 'agent.mod'",
        ),
        ('[diagnostics]\nignore = "agent"\n', "[diagnostics] ignore must be a list of code names"),
        ("diagnostics = 1\n", "[diagnostics] must be a table"),
    ],
)
def test_a_bad_config_setting_is_reported_and_left_out(layout, home, text, message):
    _config(home, text)
    problems: list = []
    assert ignored_codes(layout, trust_project=False, problems=problems) == ()
    assert [(d.code, d.message) for d in problems] == [
        ("config.invalid", f"config.toml: {message}")
    ]

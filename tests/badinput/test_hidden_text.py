"""U01: invisible and control characters load as text, and always print escaped.

The diagnostics themselves are in the WARNED table in cases.py.
"""

from __future__ import annotations

import pytest

from satchel.core._text import escape, hidden_characters
from tests.support import write_skill

from .build import is_control
from .cases import TAG_SMUGGLE, WARNED, fm

HIDDEN_DESCRIPTIONS = {w.id: w for w in WARNED if w.code == "skill.text.hidden-unicode"}
ESCAPES = {
    "U01-tag-block-smuggling": ["\\U000e0069", "\\U000e0020"],
    "U01-rlo": ["\\u202e"],
    "U01-zwsp": ["\\u200b"],
    "U01-bom-mid-file": ["\\ufeff"],
    "U01-terminal-escapes": ["\\x1b[2J", "\\x1b]8;;", "\\x07", "\\x0d"],
}


@pytest.mark.parametrize("case_id", sorted(ESCAPES))
def test_hidden_characters_print_as_escapes(tree, case_id):
    case = HIDDEN_DESCRIPTIONS[case_id]
    write_skill(tree.skills, case.dirname, case.content)

    description = tree.load().skills[case.loads_as].description
    shown = escape(description)

    for expected in ESCAPES[case_id]:
        assert expected in shown
    assert [c for c in shown if is_control(c)] == []
    assert hidden_characters(shown) == []


def test_escape_renders_control_bidi_and_tag_characters():
    assert escape("a\x1bb") == "a\\x1bb"
    assert escape("\u202eexe.pdf") == "\\u202eexe.pdf"
    assert escape("su\u200bdo") == "su\\u200bdo"
    assert escape("\x9b31m") == "\\x9b31m"
    assert escape(TAG_SMUGGLE[:2]) == "\\U000e0069\\U000e0067"
    assert escape("tab\there\nnext") == "tab\there\nnext"
    assert escape("tab\there\nnext", newlines=True) == "tab\\x09here\\x0anext"


def test_hidden_characters_in_a_name_never_reach_a_message_raw(tree):
    """A name with a ZWSP or RLO is invalid; the message shows it escaped."""
    write_skill(tree.skills, "sudo", fm("name: su\u200bdo\u202e\ndescription: d\n"))

    env = tree.load()

    assert [d.code for d in env.diagnostics] == ["skill.name.invalid", "skill.name.hosts"]
    for d in env.diagnostics:
        assert "\u200b" not in d.message
        assert "\u202e" not in d.message
        assert "su\\u200bdo\\u202e" in d.message
    assert list(env.skills) == ["sudo"]

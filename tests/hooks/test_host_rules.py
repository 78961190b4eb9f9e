"""The runtime keeps no host's rules of its own: what differs between hosts when hooks
run (the payload, the words a host tells its model, the variables it sets) is a
host's entry in a table (`satchel.runtime.hooks._payload.DIALECTS` and its kin),
never a branch on a host's name."""

from __future__ import annotations

import re
from pathlib import Path

import satchel
from satchel.runtime.hooks._payload import CODEX, DIALECTS, GEMINI, PLAIN
from satchel.runtime.hooks._words import CLAUDE_WORDS

RUNTIME = Path(satchel.__file__).resolve().parent / "runtime"
HOSTS = ("claude-code", "codex", "gemini", "cursor", "copilot", "opencode", "kimi", "vibe")
NAMES = "|".join(re.escape(h) for h in HOSTS)
BRANCH = re.compile(rf'(==|!=) "({NAMES})"|\bin \(\s*"({NAMES})"')


def branches(text: str) -> list[int]:
    """The lines of `text` that compare something with a host's name."""
    return [n for n, line in enumerate(text.splitlines(), 1) if BRANCH.search(line)]


def test_the_rule_finds_a_branch_on_a_hosts_name() -> None:
    text = 'if host == "codex":\n    pass\nif x in ("codex", "gemini"):\nok = host != "gemini"\n'
    assert branches(text) == [1, 3, 4]
    assert branches('rule = _VARIABLES.get(host or "")\nname = "codex"\n') == []


def test_no_runtime_module_branches_on_a_hosts_name() -> None:
    found = [
        f"{path.relative_to(RUNTIME)}:{line}"
        for path in sorted(RUNTIME.rglob("*.py"))
        for line in branches(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_each_hosts_words_are_its_dialects() -> None:
    assert DIALECTS["claude-code"].words == PLAIN.words == CLAUDE_WORDS
    assert CODEX.words.blocked.startswith("Command blocked by PreToolUse hook: ")
    assert GEMINI.words.context == "<hook_context>{text}</hook_context>"

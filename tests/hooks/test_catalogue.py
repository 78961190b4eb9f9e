"""The event catalogue: one entry per event, each host's spelling, and the tables read
from it; Claude Code 2.1.337 itself accepts every name the catalogue gives it, and
2.1.332 every name but the one event 2.1.337 added (`Interrupt`)."""

from __future__ import annotations

from satchel.hooks._events import (
    BLOCKING,
    CATALOGUE,
    CLAUDE_EVENTS,
    CURSOR_EVENTS,
    EVENTS,
    GEMINI_EVENTS,
    MATCH_FIELD,
    VIBE_EVENTS,
    canonical,
    event_named,
    host_name,
)
from satchel.hosts._claude_code import CLAUDE_EVENTS as CLAUDE_PROFILE
from satchel.hosts._codex import CODEX_EVENTS as CODEX_PROFILE
from satchel.hosts._kimi import KIMI_EVENTS as KIMI_PROFILE
from tests.tools import claude_validate

from .support import claude_plugin


def test_every_event_has_one_entry_and_one_name():
    assert len(EVENTS) == len(set(EVENTS)) == len(CATALOGUE)
    for spelling in ("claude", "codex", "kimi", "gemini", "copilot", "vibe"):
        names = [getattr(e, spelling) for e in CATALOGUE if getattr(e, spelling)]
        assert len(names) == len(set(names)), spelling
    cursor = [name for e in CATALOGUE for name in e.cursor]
    assert len(cursor) == len(set(cursor))


def test_the_catalogue_names_every_event_of_claude_code_codex_and_kimi():
    claude = {e.claude for e in CATALOGUE if e.claude}
    assert claude == set(CLAUDE_PROFILE)
    assert {e.codex for e in CATALOGUE if e.codex} == set(CODEX_PROFILE)
    assert len(CODEX_PROFILE) == 12
    assert {e.kimi for e in CATALOGUE if e.kimi} == set(KIMI_PROFILE)


def test_the_host_tables_are_read_from_the_catalogue():
    assert CLAUDE_EVENTS["InstructionsLoaded"] == "instructions_loaded"
    assert CLAUDE_EVENTS["Interrupt"] == "interrupt"  # Claude Code 2.1.337's and Codex's
    assert dict(VIBE_EVENTS) == {
        "pre_tool": "before_tool_use",
        "post_tool": "after_tool_use",
        "post_agent": "stop",
    }
    assert GEMINI_EVENTS["BeforeAgent"] == "user_prompt_submit"
    assert CURSOR_EVENTS["beforeShellExecution"] == "before_tool_use"
    assert canonical("TurnStarted", "kimi") == "turn_started"
    assert event_named("ConfigChange") == "config_change"
    assert host_name("turn_started", "kimi") == "TurnStarted"
    assert host_name("user_prompt_expansion", "satchel") == "UserPromptExpansion"


def test_matchers_and_blocking_follow_claude_codes_table():
    assert MATCH_FIELD["instructions_loaded"] == "load_reason"
    assert MATCH_FIELD["user_prompt_expansion"] == "command_name"
    assert MATCH_FIELD["config_change"] == "source"
    assert "teammate_idle" not in MATCH_FIELD  # Claude Code: no matcher
    assert {"user_prompt_expansion", "config_change", "task_created"} <= BLOCKING
    assert "instructions_loaded" not in BLOCKING  # "observability-only"
    assert {"before_tool_use", "user_prompt_submit", "stop", "subagent_stop"} <= BLOCKING


def _validate_every_name(tmp_path, binary):
    group = [{"hooks": [{"type": "command", "command": "true"}]}]
    names = [e.claude for e in CATALOGUE if e.claude]
    hooks = {name: group for name in [*names, "BeforeLunch"]}
    plugin = claude_plugin(tmp_path, "events", hooks)
    home = tmp_path / "home"
    home.mkdir()
    report = claude_validate(binary, plugin, home)
    (contents,) = [c for c in report["contents"] if c["type"] == "hooks"]
    assert contents["errors"] == []
    warned = [w["message"] for w in contents["warnings"]]
    return names, [h["event"] for h in report["provides"]["hooks"]], warned


def test_claude_code_2_1_337_accepts_every_name_the_catalogue_gives_it(tmp_path, claude_code_next):
    """Differential, Claude Code 2.1.337 (the version the profile speaks for): `claude
    plugin validate --json` lists a hook of every event the catalogue spells for Claude
    Code, 35 with `Interrupt`, and warns only about the control name."""
    names, provided, warned = _validate_every_name(tmp_path, claude_code_next)
    assert len(names) == len(CLAUDE_PROFILE) == 35
    assert provided == names
    assert warned == ["hooks.BeforeLunch: unknown hook event; entry ignored at runtime"]


def test_claude_code_2_1_332_knows_every_name_but_interrupt(tmp_path, claude_code):
    """Differential, Claude Code 2.1.332: the same plugin; `Interrupt` is the one name
    it does not know (it came in 2.1.335), so it warns about it beside the control."""
    names, provided, warned = _validate_every_name(tmp_path, claude_code)
    assert provided == [name for name in names if name != "Interrupt"]
    assert warned == [
        "hooks.Interrupt: unknown hook event; entry ignored at runtime",
        "hooks.BeforeLunch: unknown hook event; entry ignored at runtime",
    ]


def test_interrupt_is_observe_only_and_matches_on_its_source():
    """Claude Code 2.1.337's schema: who stopped the turn is the matcher's field, and
    "Hook output and exit codes are ignored"."""
    (event,) = [e for e in CATALOGUE if e.claude == "Interrupt"]
    assert event.inputs == ("source", "reason", "via?")
    assert MATCH_FIELD["interrupt"] == "source"
    assert "interrupt" not in BLOCKING
    assert event.answers == ()

"""docs/hooks.md's event tables are what scripts/events.py writes from the catalogue."""

from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = runpy.run_path(str(ROOT / "scripts" / "events.py"))


def test_the_event_tables_are_written_from_the_catalogue():
    page = (ROOT / "docs" / "hooks.md").read_text(encoding="utf-8")
    assert page == SCRIPT["render"](page), "docs/hooks.md is out of date: run scripts/events.py"


def test_the_tables_have_a_row_for_every_event_and_its_status():
    from satchel.hooks._events import CATALOGUE

    lines = SCRIPT["tables"]()
    for event in CATALOGUE:
        rows = [line for line in lines if line.startswith(f"| `{event.name}` |")]
        assert len(rows) == 2, event.name
    fired = [line for line in lines if line.endswith("| fired by satchel |")]
    assert [line.split("`")[1] for line in fired] == [
        "user_prompt_expansion",
        "pre_skill_shell_command",
        "config_change",
        "instructions_loaded",
    ]

"""docs/hosts.md is what scripts/hosts.py writes from the profiles today: one section
per host, with its sources."""

from __future__ import annotations

import runpy
from pathlib import Path

from satchel import hosts

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = runpy.run_path(str(ROOT / "scripts" / "hosts.py"))


def test_the_hosts_page_is_up_to_date():
    written = (ROOT / "docs" / "hosts.md").read_text(encoding="utf-8")
    assert written == SCRIPT["render"](), "docs/hosts.md is out of date: run scripts/hosts.py"


def test_every_profile_has_a_section_with_sources():
    written = (ROOT / "docs" / "hosts.md").read_text(encoding="utf-8")
    for name in hosts.names():
        host = hosts.get(name)
        assert f"## {host.title} (`{name}`)" in written
        assert host.sources, f"{name} names no source"
        assert all(f"- {source}" in written for source in host.sources)


def test_the_page_shows_every_field_of_a_host_definition():
    from satchel.hosts._describe import SHOWN

    assert set(hosts.Host.__dataclass_fields__) <= SHOWN


def test_each_instruction_rule_has_its_own_table_under_the_host_that_defines_it():
    written = (ROOT / "docs" / "hosts.md").read_text(encoding="utf-8")
    assert list(hosts.INSTRUCTION_RULES) == [
        "satchel", "codex", "claude-code", "cursor", "gemini", "copilot",
    ]  # fmt: skip
    for mode in hosts.INSTRUCTION_RULES:
        assert written.count(f"### Instruction files (`{mode}`)") == 1


def test_the_page_ends_with_how_to_add_a_host():
    written = (ROOT / "docs" / "hosts.md").read_text(encoding="utf-8")
    tail = written[written.index("## Adding a host") :]
    assert "## " not in tail.removeprefix("## Adding a host")
    assert "PROFILES" in tail and "docs/hosts/<host>.md" in tail and "scripts/hosts.py" in tail

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

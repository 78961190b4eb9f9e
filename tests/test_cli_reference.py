"""docs/cli.md is what scripts/cli_reference.py writes from the click commands today:
one section per verb, each its own --help, and the exit codes satchel --help lists."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

from satchel.cli import VERBS
from satchel.cli._exit import MEANINGS

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "cli.md"
SCRIPT = runpy.run_path(str(ROOT / "scripts" / "cli_reference.py"))


def test_the_cli_reference_page_is_up_to_date():
    assert PAGE.read_text(encoding="utf-8") == SCRIPT["render"](), (
        "docs/cli.md is out of date: run .venv/bin/python scripts/cli_reference.py"
    )


def test_the_page_has_one_section_per_verb_and_the_root():
    sections = re.findall(r"^## `(satchel[^`]*)`$", PAGE.read_text(encoding="utf-8"), re.M)
    assert sorted(sections) == sorted(
        ["satchel", *(" ".join(("satchel", *v.words)) for v in VERBS)]
    )
    text = PAGE.read_text(encoding="utf-8")
    assert "Usage: satchel marketplace add [OPTIONS] SOURCE" in text


def test_the_page_lists_every_exit_code():
    text = PAGE.read_text(encoding="utf-8")
    for code, meaning in MEANINGS:
        assert f"| {code} | {meaning} |" in text
    assert [code for code, _ in MEANINGS] == [0, 1, 2, 3, 4, 130]

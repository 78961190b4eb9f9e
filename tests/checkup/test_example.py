"""`satchel doctor --hosts` on the bundled example machine (examples/machine: a home and
a project holding Claude Code, Codex and Gemini CLI files with things wrong on purpose):
readable on a terminal of 80 columns (no line wider) and in a pipe (one line per
finding, never wrapped), each against its golden file; and docs/doctor-hosts.md shows
that very report and every ``hosts.`` code (scripts/doctor_hosts.py writes both)."""

from __future__ import annotations

import json
import os
import runpy
from pathlib import Path

import pytest

from satchel.cli import main
from tests.support import check_golden
from tests.support.golden import UPDATE

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "doctor-hosts.md"
SCRIPT = runpy.run_path(str(ROOT / "scripts" / "doctor_hosts.py"))
EXAMPLE = ("--project", "examples/machine/project", "--home", "examples/machine/home")
TERMINAL = ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES", "TTY_COMPATIBLE",
            "TTY_INTERACTIVE", "JUPYTER_COLUMNS")  # fmt: skip
WIDTH = 80


@pytest.fixture
def doctor(in_examples: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    """``satchel doctor --hosts`` on the example, from the root of a copy of it: its
    exit code and stdout (on a terminal of `width` columns when given)."""
    for name in TERMINAL:
        monkeypatch.delenv(name, raising=False)

    def run(*args: str, width: int | None = None) -> tuple[int, str]:
        if width is not None:
            monkeypatch.setenv("TTY_COMPATIBLE", "1")
            monkeypatch.setenv("COLUMNS", str(width))
            monkeypatch.setenv("NO_COLOR", "1")
        code = main(["doctor", "--hosts", *EXAMPLE, *args])
        out, err = capsys.readouterr()
        assert err == ""
        return code, out

    return run


def test_on_an_80_column_terminal_no_line_is_wider(doctor):
    code, out = doctor(width=WIDTH)
    assert code == 1  # the example holds errors on purpose
    check_golden("doctor-hosts/example-80-columns.txt", out)
    assert max(len(line) for line in out.splitlines()) <= WIDTH
    assert max(len(line) for line in out.splitlines()) > WIDTH - 10  # it did fill the width


def test_in_a_pipe_each_finding_is_one_whole_line(doctor):
    code, out = doctor()
    check_golden("doctor-hosts/example-pipe.txt", out)
    found = json.loads(doctor("--json")[1])
    findings = [f for h in found["hosts"] for f in h["findings"]]
    lines = out.splitlines()
    here = os.path.join(Path.cwd(), "")  # the text names a path below it from here
    for f in findings:
        where = f"{f['path']}: " if f["path"] else ""
        message, fix = f["message"].replace(here, ""), f["fix"].replace(here, "")
        line = f"  {where}{f['severity']} {f['code']}: {message} (fix: {fix})"
        assert lines.count(line) == 1, line
    assert sum(line.startswith("  ") for line in lines) == len(findings)
    assert {f["severity"] for f in findings} == {"error", "warning", "info"}
    assert [h["host"] for h in found["hosts"]] == ["claude-code", "codex", "gemini"]
    assert code == 1


def test_the_docs_page_shows_this_report_and_every_hosts_code(in_examples: Path):
    """The page as scripts/doctor_hosts.py writes it (SATCHEL_UPDATE_GOLDEN=1 writes it
    here too, as the golden files are)."""
    page = PAGE.read_text(encoding="utf-8")
    written = SCRIPT["render"](page, in_examples)
    if os.environ.get(UPDATE) == "1":
        PAGE.write_text(written, encoding="utf-8")
        page = written
    assert page == written, (
        "docs/doctor-hosts.md is out of date: run .venv/bin/python scripts/doctor_hosts.py"
    )


def test_the_codes_table_has_a_row_per_hosts_code():
    from satchel.core.diagnostics import CODES

    table = SCRIPT["codes_table"]()
    ours = sorted(c for c in CODES if c.startswith("hosts."))
    assert [r.split("`")[1] for r in table.splitlines()[2:] if r.startswith("| `")] == ours

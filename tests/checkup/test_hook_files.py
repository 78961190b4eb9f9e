"""``satchel doctor --hosts`` names a hook file two hosts read with different meanings:
one repository installed as a Claude Code plugin (``claude plugin install``) and as a
Gemini CLI extension (``gemini extensions install``) carries one ``hooks/hooks.json``
in Claude Code's dialect (tests/checkup/machine_hooks.py). Each host's finding says
what it makes of the file, and Gemini CLI's own run says the same: it skips the
events it does not know and its SessionStart hook fails, ``${CLAUDE_PLUGIN_ROOT}``
being unset."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from satchel.reports.checkup import MachineReport
from tests.checkup.machine_hooks import findings_of, paths, ran, report
from tests.hostloop.hosts import Turn

# Claude Code 2.1.332 reads a plugin of a directory marketplace in its marketplace's
# folder, not in the installPath copy (tests/plugins/test_claude_marketplace_source.py)
CLAUDE_FILE = "plugins/dual/hooks/hooks.json"
GEMINI = "~/.gemini/extensions/dual/hooks/hooks.json of plugin 'dual'"
CLAUDE_READS = "it runs PreToolUse, SessionStart, Stop"
GEMINI_READS = (
    "it runs SessionStart; ignores PreToolUse, Stop (not its events); leaves "
    "${CLAUDE_PLUGIN_ROOT} unset"
)
FIX = (
    "give each host a folder of its own, or keep in the file only events, variables and "
    "matchers Claude Code and Gemini CLI read alike"
)


@pytest.fixture(scope="module")
def machine(
    claude_code: Path, codex: Path, gemini: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, MachineReport, dict[str, Turn]]:
    base, turns = ran(tmp_path_factory)
    return base, report(base), dict(turns)


def test_gemini_cli_skips_the_claude_code_events_and_runs_its_session_start_unset(
    machine: Any,
):
    _, _, turns = machine
    said = turns["gemini"].stderr
    for event in ("PreToolUse", "Stop"):
        assert f'Invalid hook event name: "{event}" from extensions config. Skipping.' in said
    assert "1 failed (${CLAUDE_PLUGIN_ROOT}/scripts/hello.sh)" in said


def test_each_host_is_told_what_it_and_the_other_make_of_the_file(machine: Any):
    base, found, _ = machine
    home, market = base / "home", paths(base)["market"]
    claude_said = f"{market / CLAUDE_FILE} of plugin 'dual'"
    [claude] = findings_of(found.findings, "claude-code", "hosts.hook.two-meanings")
    [gemini] = findings_of(found.findings, "gemini", "hosts.hook.two-meanings")
    assert (claude.severity, claude.fix, claude.path) == (
        "warning",
        FIX,
        market / CLAUDE_FILE,
    )
    assert (gemini.severity, gemini.fix, gemini.path) == (
        "warning",
        FIX,
        home / ".gemini/extensions/dual/hooks/hooks.json",
    )
    assert claude.message == (
        f"Claude Code reads {claude_said} as its own hook file: {CLAUDE_READS}. Gemini CLI reads "
        f"the same file as {GEMINI}: {GEMINI_READS}"
    )
    assert gemini.message == (
        f"Gemini CLI reads {GEMINI} as its own hook file: {GEMINI_READS}. Claude Code reads "
        f"the same file as {claude_said}: {CLAUDE_READS}"
    )


def test_a_hook_file_only_one_host_reads_is_not_named(machine: Any):
    base, found, _ = machine
    named = {f.path for f in found.findings if f.code == "hosts.hook.two-meanings"}
    # not echo's, alpha's or beta's: one host reads each
    assert named == {
        paths(base)["market"] / CLAUDE_FILE,
        base / "home/.gemini/extensions/dual/hooks/hooks.json",
    }

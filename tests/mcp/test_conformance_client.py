"""The official MCP conformance suite's client scenarios for the Skills extension
(SEP-2640) against satchel as a host: the suite starts its mock skills server and runs
tests/mcp/conformance_client.py with the server's URL, which loads it with
`satchel.load(skill_servers=...)` and loads its skill as a model would.

- ``no-prefetch``: listing reads no file of a skill.
- ``verify-digest``, ``verify-size``, ``verify-frontmatter``: the server's ``SKILL.md``
  is not what its entry says (other bytes, more bytes, another description with a
  manifest that matches it); satchel refuses the skill and reads none of its other
  files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tools import conformance

DRIVER = Path(__file__).parent / "conformance_client.py"
SCENARIO = 120  # seconds one scenario may take: a "did not hang" bound
CHECKS = {
    "sep-2640-client-no-prefetch": "sep-2640-host-no-prefetch",
    "sep-2640-client-verify-digest": "sep-2640-host-verify-digest",
    "sep-2640-client-verify-size": "sep-2640-host-size-mismatch-failure",
    "sep-2640-client-verify-frontmatter": "sep-2640-host-frontmatter-comparison",
}
REFUSED = {
    "sep-2640-client-verify-digest": "SKILL.md has sha256:",
    "sep-2640-client-verify-size": "SKILL.md is ",
    "sep-2640-client-verify-frontmatter": "SKILL.md's frontmatter is not the entry's",
}


@pytest.fixture(scope="module")
def suite() -> list[str]:
    argv = conformance()
    if argv is None:
        pytest.skip("the MCP conformance suite is not in .tools/ (scripts/tools needs npm)")
    return argv


def _run(suite: list[str], scenario: str, out: Path) -> tuple[list[dict], list[dict]]:
    """Run `scenario` with the driver; the suite's checks and the driver's steps."""
    command = f"{sys.executable} {DRIVER}"
    argv = [*suite, "client", "--command", command, "--scenario", scenario, "-o", str(out)]
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(out),
        "NO_COLOR": "1",
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=SCENARIO)
    assert done.returncode == 0, done.stdout + done.stderr
    (run,) = out.glob(f"{scenario}-*")
    checks = json.loads((run / "checks.json").read_text())
    steps = [json.loads(line) for line in (run / "stdout.txt").read_text().splitlines()]
    return checks, steps


@pytest.mark.parametrize("scenario", sorted(CHECKS))
def test_the_skills_client_scenario_passes(suite, scenario, tmp_path):
    checks, steps = _run(suite, scenario, tmp_path / "results")
    assert [(c["id"], c["status"]) for c in checks] == [(CHECKS[scenario], "SUCCESS")]
    assert steps[0] == {"step": "listed", "names": ["suite:pdf-processing"], "diagnostics": []}
    if scenario not in REFUSED:
        assert len(steps) == 1  # the model asked for no skill: nothing else happened
        return
    (loaded,) = steps[1:]  # refused: no other file of the skill was read
    assert (loaded["step"], loaded["error"]) == ("load_skill", True)
    assert loaded["text"].startswith(
        "Error (mcp.skills.mismatch): skill 'pdf-processing' (skill://pdf-processing/SKILL.md) "
        f"of server 'suite' is refused: {REFUSED[scenario]}"
    )

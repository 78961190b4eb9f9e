"""The official MCP conformance suite's client scenarios against satchel as a client:
one run of ``conformance client --suite all`` with tests/mcp/conformance_client.py as
the client, which connects through `McpSupervisor` (a host's server entry naming the
suite's mock server; `satchel mcp login`'s library call first for ``auth/*``) or, for
the Skills extension (SEP-2640), loads the server with `satchel.load(skill_servers=...)`
and loads its skill as a model would.

The suite fails the run on any failure or warning tests/mcp/conformance-client.yaml
does not list, and on a listed one that passes. A check the suite could not exercise is
SKIPPED and fails nothing there, so each scenario that must pass is read here too:

- the 2026-07-28 lane (request metadata, standard and custom headers, invalid tool
  headers, `$ref` left alone, JSON Schema 2020-12 kept, request state), the older
  ``initialize``, ``tools_call``, ``sse-retry`` and elicitation defaults: every check
  succeeds, at the revision the scenario's server speaks;
- the authorization scenarios past a first login (`AUTH`): a step-up to more scopes and
  a move to another authorization server go through the supervisor's ``authorize``
  callback, the pre-registered client's secret goes to the token endpoint as Basic
  credentials, and the Client ID Metadata Document the driver sets is the client id;
  each then calls its tool;
- ``no-prefetch``: listing reads no file of a skill; ``verify-digest``,
  ``verify-size``, ``verify-frontmatter``: the server's ``SKILL.md`` is not what its
  entry says (other bytes, more bytes, another description with a manifest that
  matches it); satchel refuses the skill and reads none of its other files.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.tools import conformance

DRIVER = Path(__file__).parent / "conformance_client.py"
EXPECTED = Path(__file__).parent / "conformance-client.yaml"
RUN = 600  # seconds the whole run may take: a "did not hang" bound
SCENARIO_MS = 300_000  # a driver waits for a slot (two at a time) before its own run
SLOTS = 2
# The scenarios that must pass, with the protocol revision satchel reached each at.
PASSING = {
    "initialize": "2025-11-25",
    "tools_call": "2025-11-25",
    "sse-retry": "2025-11-25",
    "elicitation-sep1034-client-defaults": "2025-11-25",
    "request-metadata": "2026-07-28",
    "http-standard-headers": "2026-07-28",
    "http-custom-headers": "2026-07-28",
    "http-invalid-tool-headers": "2026-07-28",
    "json-schema-ref-no-deref": "2026-07-28",
    "json-schema-2020-12-preservation": "2025-11-25",
    "sep-2322-client-request-state": "2026-07-28",
}
# Checks the suite skips, for what satchel's client never sends: a 2026-07-28
# connection has no initialize, and the client offers no roots and no sampling.
NOT_SENT = {
    "http-standard-headers": {
        "ClientMcpMethodHeader_initialize",
        "ClientMcpMethodHeader_notifications_initialized",
    },
    "request-metadata": {"ClientDeclaresRootsCapability", "ClientDeclaresSamplingCapability"},
}
SKILLS = {
    "sep-2640-client-no-prefetch": "sep-2640-host-no-prefetch",
    "sep-2640-client-verify-digest": "sep-2640-host-verify-digest",
    "sep-2640-client-verify-size": "sep-2640-host-size-mismatch-failure",
    "sep-2640-client-verify-frontmatter": "sep-2640-host-frontmatter-comparison",
}
# The authorization scenarios that go past a first login, with the checks that say so and
# what the supervisor's authorize callback was asked (why, scopes); None: nothing.
AUTH = {
    "auth/scope-step-up": (
        {"scope-step-up-initial", "scope-step-up-escalation"},
        ("scope", ["mcp:basic", "mcp:write"]),
    ),
    "auth/authorization-server-migration": (
        {
            "sep-2352-reregister-on-as-change",
            "sep-2352-no-reuse-on-as-change",
            "sep-2352-no-cross-as-credential-reuse",
        },
        ("refused", ["mcp:basic"]),
    ),
    "auth/pre-registration": ({"pre-registration-auth"}, None),
    "auth/basic-cimd": ({"cimd-client-id-used"}, None),
}
REFUSED = {
    "sep-2640-client-verify-digest": "SKILL.md has sha256:",
    "sep-2640-client-verify-size": "SKILL.md is ",
    "sep-2640-client-verify-frontmatter": "SKILL.md's frontmatter is not the entry's",
}


@dataclass(frozen=True)
class Run:
    """The suite's run: its exit status and output, and the folder of its results."""

    done: subprocess.CompletedProcess[str]
    out: Path

    def checks(self, scenario: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = json.loads(
            (self._folder(scenario) / "checks.json").read_text()
        )
        return found

    def steps(self, scenario: str) -> list[dict[str, Any]]:
        text = (self._folder(scenario) / "stdout.txt").read_text()
        return [json.loads(line) for line in text.splitlines()]

    def _folder(self, scenario: str) -> Path:
        (folder,) = self.out.glob(f"{scenario}-*")
        return folder


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    suite = conformance()
    if suite is None:
        pytest.skip("the MCP conformance suite is not in .tools/ (scripts/tools needs npm)")
    root = tmp_path_factory.mktemp("conformance")
    slots = root / "slots"
    slots.mkdir()
    for n in range(SLOTS):
        (slots / f"slot-{n}").touch()
    out = root / "results"
    argv = [
        *suite,
        "client",
        "--command",
        f"{sys.executable} {DRIVER}",
        "--suite",
        "all",
        "--expected-failures",
        str(EXPECTED),
        "--timeout",
        str(SCENARIO_MS),
        "-o",
        str(out),
    ]
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(root),
        "NO_COLOR": "1",
        "PYTHONPATH": os.pathsep.join(sys.path),
        "SATCHEL_CONFORMANCE_SLOTS": str(slots),
    }
    with _warm(root / "warm.sock", env) as warm:
        env["SATCHEL_CONFORMANCE_WARM"] = str(warm)
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=RUN)
    return Run(done, out)


@contextmanager
def _warm(path: Path, env: dict[str, str]) -> Iterator[Path]:
    """The warm driver listening at `path` (satchel's client imported once, a process
    forked per scenario), stopped with every run it forked."""
    proc = subprocess.Popen(
        [sys.executable, str(DRIVER), "--serve", str(path)],
        stdout=subprocess.PIPE, env=env, start_new_session=True, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n"
        yield path
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=RUN)
        if proc.stdout is not None:
            proc.stdout.close()


def test_every_failure_of_the_suite_is_a_listed_one(run):
    assert run.done.returncode == 0, run.done.stdout + run.done.stderr
    assert "Baseline check passed: all failures are expected." in run.done.stdout


@pytest.mark.parametrize("scenario", sorted(PASSING))
def test_the_client_scenario_passes(run, scenario):
    checks = [c for c in run.checks(scenario) if c["status"] != "INFO"]
    skipped = {c["name"] for c in checks if c["status"] == "SKIPPED"}
    assert skipped == NOT_SENT.get(scenario, set())
    assert checks
    assert [c for c in checks if c["status"] not in ("SUCCESS", "SKIPPED")] == []
    connected = run.steps(scenario)[0]
    assert connected == {
        "step": "connected",
        "status": "running",
        "protocol": PASSING[scenario],
        "diagnostics": [],
    }


def test_the_tool_call_and_the_elicitation_defaults(run):
    (called,) = [s for s in run.steps("tools_call") if s["step"] == "called"]
    assert (called["tool"], called["error"], called["text"]) == (
        "add_numbers",
        False,
        "The sum of 5 and 3 is 8",
    )
    ids = {c["id"]: c["status"] for c in run.checks("elicitation-sep1034-client-defaults")}
    kinds = ("string", "integer", "number", "enum", "boolean")
    assert {f"client-elicitation-sep1034-{k}-default": "SUCCESS" for k in kinds}.items() <= (
        ids.items()
    )


@pytest.mark.parametrize("scenario", sorted(SKILLS))
def test_the_skills_client_scenario_passes(run, scenario):
    checks = run.checks(scenario)
    steps = run.steps(scenario)
    assert [(c["id"], c["status"]) for c in checks] == [(SKILLS[scenario], "SUCCESS")]
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


@pytest.mark.parametrize("scenario", sorted(AUTH))
def test_the_authorization_scenario_passes(run, scenario):
    wanted, asked = AUTH[scenario]
    statuses = {c["id"]: c["status"] for c in run.checks(scenario)}
    assert {name: statuses.get(name) for name in wanted} == dict.fromkeys(wanted, "SUCCESS")
    assert [s for s in statuses.values() if s not in ("SUCCESS", "INFO")] == []
    steps = run.steps(scenario)
    again = [(s["why"], s["scopes"]) for s in steps if s["step"] == "reauthorize"]
    assert again == ([] if asked is None else [asked])
    (called,) = [s for s in steps if s["step"] == "called"]
    assert (called["error"], called["text"]) == (False, "test")

"""Drive a real host's hooks and satchel's runner with the same probe hook.

`Scenario` is one run of a host: the answers its probe gives and the model's script.
`record` starts every scenario at once (each a host run of its own, in threads) and
returns, per scenario, the `Turn` and the payloads the probe was given. `replay`
then fires each recorded event at satchel's `HookRunner` (its hooks the same probe,
answering from the same table, in a folder of its own) with the event's own fields as
the host gave them, and returns what satchel's probe was given and the `Outcome`.
"""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from satchel.hooks import Outcome
from tests.hostloop.hookprobe import Answer, logged, probe
from tests.hostloop.hosts import Turn
from tests.hostloop.model import Reply
from tests.hostloop.shared import once

__all__ = [
    "Played",
    "Recorded",
    "Scenario",
    "interrupted",
    "record",
    "record_once",
    "replay",
    "shape",
]


@dataclass(frozen=True, slots=True)
class Scenario:
    """One host run: its `name`, the probe's `answers`, the model's `script`, the
    user's `prompt`, `config`: more host configuration (Codex's config.toml keys), and
    `skip`: events the probe is not set on in this run."""

    name: str
    answers: tuple[Answer, ...]
    script: tuple[Reply, ...]
    prompt: str = "go"
    config: str = ""
    skip: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Recorded:
    """What one scenario's host run did and what its probe was given, in order."""

    scenario: Scenario
    turn: Turn
    payloads: tuple[dict[str, Any], ...]
    project: Path
    home: Path


@dataclass(frozen=True, slots=True)
class Played:
    """One event fired at satchel's runner: the host's payload, satchel's, and the
    outcome satchel's runner gave."""

    host: dict[str, Any]
    satchel: dict[str, Any]
    outcome: Outcome


Run = Callable[[Scenario, Path, Path, str], Turn]


def record(root: Path, scenarios: Sequence[Scenario], run: Run) -> dict[str, Recorded]:
    """Every scenario through the host at once: `run(scenario, project, home, command)`
    starts the host with `command` as the hook of every event."""

    def one(scenario: Scenario) -> Recorded:
        base = root / scenario.name
        project, home = base / "project", base / "home"
        (project / ".git").mkdir(parents=True)
        home.mkdir(parents=True)
        command = probe(base / "probe", scenario.answers)
        turn = run(scenario, project, home, command)
        return Recorded(scenario, turn, tuple(logged(base / "probe")), project, home)

    with ThreadPoolExecutor(max_workers=len(scenarios)) as pool:
        done = list(pool.map(one, scenarios))
    return {r.scenario.name: r for r in done}


def record_once(
    factory: pytest.TempPathFactory, name: str, scenarios: Sequence[Scenario], run: Run
) -> dict[str, Recorded]:
    """`record`, run once per test run however many workers ask (`once`): the others
    read the turns and the probes' logs back from the shared folder."""

    def make(base: Path) -> dict[str, Turn]:
        return {key: r.turn for key, r in record(base, scenarios, run).items()}

    base, turns = once(factory, name, make)
    found = {}
    for scenario in scenarios:
        where = base / scenario.name
        payloads = tuple(logged(where / "probe"))
        turn = turns[scenario.name]
        found[scenario.name] = Recorded(scenario, turn, payloads, where / "project", where / "home")
    return found


def interrupted(
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    ready: Callable[[], bool],
    settle: float = 0.5,
) -> tuple[int, str, str]:
    """Run `argv` and send it SIGINT (a user's Ctrl-C) `settle` seconds after `ready()`
    holds (polled every 0.05 s, for at most a minute); its exit code, stdout, stderr."""
    with subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as running:
        deadline = time.monotonic() + 60
        while not ready() and time.monotonic() < deadline and running.poll() is None:
            time.sleep(0.05)
        time.sleep(settle)
        running.send_signal(signal.SIGINT)
        out, err = running.communicate(timeout=60)
        return running.returncode, out, err


def replay(
    where: Path,
    recorded: Recorded,
    fire: Callable[[str, dict[str, Any], str], Outcome],
    own: Callable[[dict[str, Any]], dict[str, Any]],
    select: Callable[[dict[str, Any]], bool] = lambda payload: True,
) -> list[Played]:
    """Fire each payload of `recorded` at satchel: `fire(hook_event_name, fields,
    command)` runs satchel's runner with the probe `command` as the event's hook and
    the event's own `fields` (`own(host_payload)`); the probe in `where` answers from
    the scenario's table. One event after another, in the host's order; only the
    payloads `select` keeps."""
    command = probe(where, recorded.scenario.answers)
    played = []
    for host in filter(select, recorded.payloads):
        before = len(logged(where))
        outcome = fire(host["hook_event_name"], own(host), command)
        seen = logged(where)[before:]
        assert len(seen) == 1, f"satchel ran {len(seen)} hooks for {host['hook_event_name']}"
        played.append(Played(host, seen[0], outcome))
    return played


def shape(payload: Mapping[str, Any]) -> dict[str, str]:
    """A payload's field names and each value's JSON type (its environment left out)."""
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number",
             float: "number", type(None): "null"}  # fmt: skip
    return {k: names[type(v)] for k, v in payload.items() if k != "_env"}

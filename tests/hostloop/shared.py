"""Run the hosts once per test run, however many pytest-xdist workers ask.

A module-scoped fixture runs once per worker, and ``--dist worksteal`` spreads a
module's tests over every worker: without this each worker would start the hosts
again. `once` makes the first worker that asks run `make` in a folder every worker of
this run shares (a lock held meanwhile) and store the turns it returns; the others
read them back. Without xdist it is the run's own temp folder. `once_json` does the
same for any value JSON keeps (a host's report, say).
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.hostloop.hosts import Turn
from tests.hostloop.model import Recorded

__all__ = ["once", "once_json"]


def _dump(turns: Mapping[str, Turn]) -> str:
    return json.dumps(
        {
            key: {
                "returncode": t.returncode,
                "stdout": t.stdout,
                "stderr": t.stderr,
                "requests": [[r.path, r.headers, r.body, r.turn] for r in t.requests],
            }
            for key, t in turns.items()
        }
    )


def _load(text: str) -> dict[str, Turn]:
    return {
        key: Turn(
            t["returncode"],
            t["stdout"],
            t["stderr"],
            tuple(Recorded(p, h, b, turn) for p, h, b, turn in t["requests"]),
        )
        for key, t in json.loads(text).items()
    }


def once(
    factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Mapping[str, Turn]]
) -> tuple[Path, dict[str, Turn]]:
    """The folder `make` ran in and the turns it returned, `make` run once per test
    run under the name `name`."""
    base, text = _once(factory, name, lambda where: _dump(make(where)))
    return base, _load(text)


def once_json(
    factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Any]
) -> tuple[Path, Any]:
    """`once` for what is not a host's turns: the folder `make` ran in and the value
    it returned (JSON: read back as JSON gives it), `make` run once per test run."""
    base, text = _once(factory, name, lambda where: json.dumps(make(where)))
    return base, json.loads(text)


def _once(
    factory: pytest.TempPathFactory, name: str, make: Callable[[Path], str]
) -> tuple[Path, str]:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    root = factory.getbasetemp().parent if worker else factory.getbasetemp()
    base, stored = root / name, root / f"{name}.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stored.exists():
            base.mkdir()
            stored.write_text(make(base), encoding="utf-8")
    return base, stored.read_text(encoding="utf-8")

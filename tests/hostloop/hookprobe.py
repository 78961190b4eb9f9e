"""A hook program that records what it is given and answers from a table, for the same
hook to run under a real host and under satchel's runner.

`probe(where, answers)` writes the program and its table and returns the shell command
that runs it. Each run appends ``{"stdin": ..., "env": ...}`` (the payload exactly as
received, and the hook's environment variables the host sets) to ``log.jsonl`` beside
it, then answers with the first `Answer` whose event is the payload's
``hook_event_name`` and whose `marker` occurs in the payload's compact JSON text
(``"stop_hook_active":false``, whoever wrote it; no marker: any payload of that
event); no row: no output, exit 0.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

__all__ = ["Answer", "logged", "probe"]


@dataclass(frozen=True, slots=True)
class Answer:
    """What the hook does for `event` when `marker` is in its payload: sleep `sleep`
    seconds, print `stdout` (a dict as JSON) and `stderr`, exit `code`."""

    event: str
    marker: str | None = None
    stdout: str | dict[str, Any] = ""
    stderr: str = ""
    code: int = 0
    sleep: float = 0.0


_PROGRAM = """\
import json, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
raw = sys.stdin.read()
env = {k: v for k, v in os.environ.items() if k.startswith(("GEMINI_", "CLAUDE_", "CODEX_"))}
with open(os.path.join(here, "log.jsonl"), "a", encoding="utf-8") as log:
    log.write(json.dumps({"stdin": raw, "env": env}) + "\\n")
try:
    payload = json.loads(raw)
except ValueError:
    payload = {}
event = payload.get("hook_event_name")
text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
with open(os.path.join(here, "answers.json"), encoding="utf-8") as f:
    rows = json.load(f)
for row in rows:
    if row["event"] == event and (row["marker"] is None or row["marker"] in text):
        time.sleep(row["sleep"])
        out = row["stdout"]
        sys.stdout.write(out if isinstance(out, str) else json.dumps(out))
        sys.stderr.write(row["stderr"])
        sys.stdout.flush()
        sys.exit(row["code"])
"""


def probe(where: Path, answers: Sequence[Answer]) -> str:
    """Write the probe program and its `answers` into `where`; the command that runs it."""
    where.mkdir(parents=True, exist_ok=True)
    (where / "probe.py").write_text(_PROGRAM, encoding="utf-8")
    rows = [asdict(a) for a in answers]
    (where / "answers.json").write_text(json.dumps(rows), encoding="utf-8")
    return f'"{sys.executable}" "{where / "probe.py"}"'


def logged(where: Path) -> list[dict[str, Any]]:
    """Every payload the probe in `where` was given, in order, parsed, each with the
    environment it saw under ``"_env"``."""
    log = where / "log.jsonl"
    if not log.exists():
        return []
    found = []
    for line in log.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        payload = json.loads(entry["stdin"])
        found.append({**payload, "_env": entry["env"]})
    return found

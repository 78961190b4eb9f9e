"""The client driver the MCP conformance suite runs for the Skills extension's client
scenarios: ``conformance_client.py URL`` (the suite appends its mock server's URL and
names the scenario in ``MCP_CONFORMANCE_SCENARIO``).

It loads the server as a host's skill server (`satchel.load(skill_servers=...)`), and,
as a model would, loads each listed skill (``load_skill``) and then reads each other
file of a skill that loaded (``skills_read``): in ``...-no-prefetch`` the model asks for
no skill, so nothing past the listing may be read. It prints what happened, one JSON
line per step, and exits 0: the suite judges the traffic, not the exit status.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import satchel

LABEL = "suite"


def main(url: str, scenario: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        (root / "project").mkdir()
        (root / "home").mkdir()
        layout = satchel.Layout.default(root / "project", home=root / "home", env={})
        env = satchel.load(layout=layout, skill_servers={LABEL: {"url": url}})
        served = [s for s in env.skills.values() if s.scope == "mcp"]
        _say("listed", names=[s.name for s in served], diagnostics=_codes(env.diagnostics))
        if scenario.endswith("-no-prefetch"):
            return
        session = satchel.Session(env)
        for skill in served:
            loaded = session.call("load_skill", {"name": skill.name})
            _say("load_skill", name=skill.name, error=loaded.is_error, text=loaded.text[:200])
            if loaded.is_error:
                continue
            for rel in _others(skill):
                read = session.call("skills_read", {"name": skill.name, "path": rel})
                _say("skills_read", name=skill.name, path=rel, error=read.is_error)


def _others(skill: satchel.Skill) -> list[str]:
    remote = getattr(skill, "remote", None)
    return [f.rel for f in remote.files if f.rel != "SKILL.md"] if remote is not None else []


def _codes(found: object) -> list[str]:
    return [d.code for d in found] if isinstance(found, (list, tuple)) else []


def _say(step: str, **fields: object) -> None:
    print(json.dumps({"step": step, **fields}), flush=True)


if __name__ == "__main__":
    main(sys.argv[-1], os.environ.get("MCP_CONFORMANCE_SCENARIO", ""))

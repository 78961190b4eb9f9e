"""What the framework integrations' tests share: the bundled ``examples/desk`` project,
copied into the test's own folder and trusted, and the script every scripted model
follows.

The script is the same in every framework: the user asks ``/notes 2.4.0`` (a slash
command); the model activates the ``release-notes`` skill, reads its style file, runs
its ``scripts/version.sh``, calls the ``tickets`` plugin's MCP tool, has its own
``shell`` tool denied by the plugin's hook (``rm -rf``) and its own ``deploy`` tool
denied by the skill's ``allowed-tools``, and answers. Each framework's model says
it in that framework's own message types; `STEPS` says it once.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import satchel
from satchel.session import Session
from satchel.trust._trust import trust
from tests.support.checkout import copy_tracked

LIST_TICKETS = "mcp__plugin_tickets_tickets__list_tickets"
PROMPT = "/notes 2.4.0"
EXPANDED = "Draft the release notes for version 2.4.0, in the house style."
STEPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("skills_use", {"name": "release-notes"}),
    ("skills_read", {"name": "release-notes", "path": "references/style.md"}),
    ("skills_run_script", {"name": "release-notes", "script": "scripts/version.sh"}),
    (LIST_TICKETS, {"status": "done"}),
    ("shell", {"command": "rm -rf build"}),
    ("deploy", {"version": "2.4.0"}),
)
"""The model's tool calls, in order: (tool name, arguments)."""
ANSWER = "## 2.4.0\n- Sign in with a passkey\n- Export reports as CSV"
HOOK_REFUSAL = "recursive deletes are not allowed here"
SKILL_REFUSAL = (
    "tool 'deploy' is not allowed: skill 'release-notes' is active and allows only: "
    f"Read, {LIST_TICKETS}."
)
"""The start of the allowed-tools refusal the model reads for ``deploy``."""


def desk(tmp_path: Path) -> satchel.Layout:
    """A trusted copy of ``examples/desk`` as the project, with an empty home."""
    root = copy_tracked(tmp_path / "checkout", ("examples/desk",)) / "examples" / "desk"
    (root / ".git").mkdir(exist_ok=True)
    home = tmp_path / "home"
    home.mkdir()
    layout = satchel.Layout.default(root, home=home, env={})
    trust(layout, root)
    return layout


def desk_session(layout: satchel.Layout, **options: Any) -> Session:
    """The session every integration test gives its framework: the ``skills`` tools
    (so the allowed-tools gate is on) and only PATH in the hooks' environment."""
    env = satchel.load(layout=layout)
    assert [d for d in env.diagnostics if d.severity == "error"] == []
    options.setdefault("tools", "skills")
    return Session(env, environ={"PATH": os.environ["PATH"]}, **options)


def own_tools(ran: list[tuple[str, dict[str, Any]]]) -> dict[str, Callable[..., str]]:
    """The developer's own tools, as plain functions that record each call in `ran`:
    a call the gate refused never appears there."""

    def shell(command: str) -> str:
        ran.append(("shell", {"command": command}))
        return f"ran {command}"

    def deploy(version: str) -> str:
        ran.append(("deploy", {"version": version}))
        return f"deployed {version}"

    return {"shell": shell, "deploy": deploy}


def python() -> str:
    """The interpreter the desk's hook and server scripts run with (their ``#!`` line
    names ``python3``: PATH must find one)."""
    found = shutil.which("python3")
    assert found is not None
    return found

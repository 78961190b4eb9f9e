"""satchel serve under listing overrides: a skill kept from the model has no files listed."""

from __future__ import annotations

import anyio
import pytest

import satchel
from mcp import Client
from satchel.server._serve import build_server

from ..support import write_skill


@pytest.mark.parametrize("state", ["user-invocable-only", "off"])
def test_a_skill_kept_from_the_model_lists_no_files(tmp_path, state):
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    for name in ("refund-policy", "triage"):
        write_skill(project / ".agents" / "skills", name, description=f"The {name} steps.")
    layout = satchel.Layout.default(project, home=home, env={})
    env = satchel.load(layout=layout, trusted=True, skill_overrides={"triage": state})

    async def run() -> list[str]:
        with anyio.fail_after(60):
            async with Client(build_server(env)) as client:
                return [str(r.uri) for r in (await client.list_resources()).resources]

    assert anyio.run(run) == ["skill://refund-policy/SKILL.md"]

"""`satchel serve` offers `list_skills` and `search_skills` when its index leaves skills
out, and its instructions (the index) end with the line naming them: the MCP SDK's
in-process client against `build_server`."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

import satchel
from mcp import Client
from satchel.index._render import MAX_SKILLS
from satchel.server._serve import build_server

from ..support import put, skill_md

STARTUP = 60  # seconds: a "did not hang" bound


def test_a_cut_index_is_served_with_the_search_tools(tmp_path: Path):
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    root = project / ".agents" / "skills"
    for i in range(MAX_SKILLS):
        put(root / f"chore-{i:02}" / "SKILL.md", skill_md(f"chore-{i:02}", f"Chore {i}."))
    put(root / "zz-tax" / "SKILL.md", skill_md("zz-tax", "Files the quarterly VAT return."))
    layout = satchel.Layout.default(project, home=home, env={})
    server = build_server(satchel.load(layout=layout, trusted=True))

    async def run() -> None:
        with anyio.fail_after(STARTUP):
            async with Client(server) as client:
                names = [t.name for t in (await client.list_tools()).tools]
                assert names == ["load_skill", "list_skills", "search_skills"]
                found = await client.call_tool("search_skills", {"query": "vat return"})
                assert not found.is_error
                text = found.content[0].text  # type: ignore[union-attr]
                assert json.loads(text) == {
                    "query": "vat return",
                    "skills": [
                        {"name": "zz-tax", "description": "Files the quarterly VAT return."}
                    ],
                }
                listed = await client.call_tool("list_skills", {"offset": 60})
                page = json.loads(listed.content[0].text)  # type: ignore[union-attr]
                assert [s["name"] for s in page["skills"]][-1] == "zz-tax"

    anyio.run(run)
    instructions = server.instructions or ""
    assert instructions.splitlines()[-1].startswith("More skills are installed than this index")

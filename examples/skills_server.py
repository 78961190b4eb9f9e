"""A Skills-extension MCP server for the skills below one folder (FastMCP).

    python examples/skills_server.py FOLDER

serves every skill below FOLDER over stdio (``pip install fastmcp``); see docs/mcp.md,
"Consuming skill servers".
"""

import sys

from fastmcp import FastMCP
from fastmcp.skills.provider import SkillsDirectoryProvider

app = FastMCP("team-skills")
app.add_provider(SkillsDirectoryProvider(sys.argv[1]))
app.run(show_banner=False)

"""A FastMCP 4.2.3 skills server over a directory of skills, for the consume tests.

``skills_server.py ROOT`` serves the skills below ROOT (`SkillsDirectoryProvider`) over
stdio; with ``--http`` it serves streamable HTTP on 127.0.0.1 under uvicorn (a free port,
printed as ``port=N`` on stdout).
"""

from __future__ import annotations

import argparse
import socket

from fastmcp import FastMCP
from fastmcp.skills.provider import SkillsDirectoryProvider


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--http", action="store_true")
    args = parser.parse_args()
    app = FastMCP("skills-fixture")
    app.add_provider(SkillsDirectoryProvider(args.root))
    if not args.http:
        app.run(transport="stdio", show_banner=False)
        return
    import anyio
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)  # connections wait in the backlog until uvicorn accepts them
    print(f"port={sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app.http_app(), log_level="warning", lifespan="on")
    anyio.run(uvicorn.Server(config).serve, [sock])


if __name__ == "__main__":
    main()

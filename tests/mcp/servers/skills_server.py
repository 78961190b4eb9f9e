"""A FastMCP 4.2.3 skills server over a directory of skills, for the consume tests.

``skills_server.py ROOT`` serves the skills below ROOT (`SkillsDirectoryProvider`) over
stdio; with ``--http`` it serves streamable HTTP on 127.0.0.1 under uvicorn (a free port,
printed as ``port=N`` on stdout).
"""

from __future__ import annotations

import argparse

from _loopback import serve_http
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
    serve_http(app.http_app())


if __name__ == "__main__":
    main()

"""`satchel lsp list`: the language servers the enabled plugins declare, without starting any."""

from __future__ import annotations

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._lsp import extensions, runs, scopes, server_json, untrusted_note
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded, say_project

WORDS = ("server", "plugin", "scope", "languages", "transport", "runs")
NOTE = "Nothing was started: `satchel lsp check` starts each server and reads its capabilities."

PARAMS = (located(), json_option())


def run(
    *,
    here: Here,
    as_json: bool,
) -> int:
    """List the language servers the enabled plugins declare, without starting any.

    Each with its plugin and that plugin's scope, the file extensions it serves and the
    language ids it gives them, its transport and what it runs (env values are never
    printed). Only trusted, enabled plugins' servers are listed; `satchel lsp check`
    starts them."""
    env = loaded(here)
    servers, where = env.lsp_servers, scopes(env)
    if as_json:
        document = {
            "project": str(env.layout.project),
            "trusted": env.trusted,
            "started": False,
            "servers": [server_json(s, where.get(s.plugin, "")) for s in servers],
        }
        out.print_json(document)
        return OK
    say_project(env.layout, here.project)
    con = out.console()
    if not servers:
        out.note("No language servers are declared.")
    else:
        grid = out.table(*WORDS)
        for s in servers:
            row = (s.name, s.plugin or "", where.get(s.plugin, ""), extensions(s), s.transport)
            grid.add_row(*(out.safe(c) for c in (*row, runs(s))))
        con.print(grid)
    if not env.trusted:
        out.note(untrusted_note(env))
    out.note(NOTE)
    return OK

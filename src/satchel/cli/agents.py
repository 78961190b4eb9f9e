"""`satchel agents`: the subagent types that load, in precedence order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from satchel.agents import AgentSet, AgentType
from satchel.assembly.listings import agent_listing
from satchel.cli import _output as out
from satchel.cli._again import again
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded, say_project

if TYPE_CHECKING:
    from rich.text import Text

PARAMS = (located(), json_option())


def run(
    *,
    here: Here,
    as_json: bool,
) -> int:
    """List the subagent types that load, in precedence order.

    Each with its format and origin, safety ceiling, model, tools (mapped to
    canonical names), description and file. `satchel doctor` says what did not
    load and why. With --host claude-code, also the lines Claude Code shows its
    model for them (beside its own built-in types)."""
    env = loaded(here)
    found = env.agents
    listing = agent_listing(found.agents.values(), here.host)
    if as_json:
        shown = None if listing is None else list(listing)
        out.print_json({"project": str(env.layout.project), **found.to_json(), "listing": shown})
    else:
        say_project(env.layout, here.project)
        _print(found)
        if listing:
            out.console().print(out.safe(f"As {here.host} lists them for its model:"))
            for line in listing:
                out.console().print(out.safe(line))
    return OK


def _print(found: AgentSet) -> None:
    con = out.console()
    if not found.agents:
        out.note(f"No agent types found; `{again('doctor')}` shows what did not load.")
    for agent in found.agents.values():
        head = out.safe(agent.name, style="bold")
        head.append_text(out.safe(f"  {_source(agent)}", style="dim"))
        con.print(head)
        grid = out.table("", "")
        grid.show_header = False
        for label, value in _fields(agent):
            grid.add_row(label, value)
        con.print(grid)
        con.print()
    if found.builtins:
        names = ", ".join(found.builtins)
        con.print(out.safe(f"Built-in types (no project file may redefine them): {names}"))
    if found.diagnostics:
        out.note(out.see_doctor(found.diagnostics, "agents"))


def _source(agent: AgentType) -> str:
    """``claude, project .claude``; ``vibe, plugin deploy-tools``; ``config``."""
    where = f"plugin {agent.plugin}" if agent.plugin else f"{agent.scope} {agent.family}".strip()
    return f"{agent.format}, {where}" if where else agent.format


def _fields(agent: AgentType) -> list[tuple[str, Text]]:
    rows = [
        ("description", out.safe(agent.description or "-")),
        ("safety", out.safe(agent.safety or "session default")),
        ("model", out.safe(_model(agent))),
        ("tools", out.safe("all" if agent.tools is None else ", ".join(agent.tools) or "none")),
    ]
    if agent.disabled_tools:
        rows.append(("disabled tools", out.safe(", ".join(agent.disabled_tools))))
    if agent.overrides_builtin:
        rows.append(("overrides", out.safe("a built-in type of the same name")))
    rows.append(("path", out.safe(out.shown(agent.path) if agent.path else "-", style="dim")))
    return rows


def _model(agent: AgentType) -> str:
    if agent.model:
        return agent.model
    if agent.model_as_written:
        return f"session model (the file says {agent.model_as_written})"
    return "session model"

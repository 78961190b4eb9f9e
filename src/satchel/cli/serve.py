"""`satchel serve`: the environment's skills, commands and skill files as an MCP server."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import Choice, directory, located, model_option
from satchel.cli._workspace import loaded, project_line
from satchel.foundations._net import is_loopback
from satchel.index._render import model_visible
from satchel.session import TOOLSETS

if TYPE_CHECKING:
    from satchel.server._gateway import Selection, Spec
    from satchel.server._serve import SkillServer

SDK_MISSING = "cli.mcp.sdk-missing"  # diagnostic codes: see docs/diagnostics.md
ADDRESS_REFUSED = "mcp.serve.address.refused"
INSTALL = "pip install 'satchel[mcp]'"

PLAIN = True  # only lines on stderr: no rich when piped (cli._plain)

PARAMS = (
    located(),
    model_option(),
    click.Option(
        ["--http", "http"],
        metavar="HOST:PORT",
        help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio "
        "(port 0 picks a free one).",
    ),
    click.Option(
        ["--allow-remote"],
        is_flag=True,
        help="Let --http listen on an address that is not loopback. Anyone who can "
        "reach it can read skill files and run skill scripts: there is no authentication.",
    ),
    click.Option(
        ["--tools"],
        type=Choice(tuple(TOOLSETS)),
        default="load_skill",
        show_default=True,
        help="load_skill: one tool; skills: skills_use, skills_read, skills_run_script; "
        "all: the four.",
    ),
    click.Option(
        ["--pass-env", "pass_env"],
        multiple=True,
        metavar="NAME",
        help="Copy this variable into skill scripts and !`command` lines (repeatable); "
        "they get only PATH, HOME, LANG and the like otherwise.",
    ),
    click.Option(
        ["--script-timeout"],
        type=click.FloatRange(min=0, min_open=True),
        default=60.0,
        show_default=True,
        help="Seconds a skill script may run; a call may ask for less, never more.",
    ),
    click.Option(
        ["--no-shell"],
        is_flag=True,
        help="Run no !`command` line of a skill when it is activated.",
    ),
    click.Option(
        ["--config", "config"],
        type=click.Path(dir_okay=False, path_type=Path),
        metavar="FILE",
        help="A gateway config (TOML): its sources, host profile and filter (docs/mcp.md).",
    ),
    click.Option(
        ["--root", "roots"],
        multiple=True,
        type=directory(exists=True),
        metavar="DIR",
        help="Serve the skills in DIR too, after the layout's roots (repeatable).",
    ),
    click.Option(
        ["--workers"],
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help="uvicorn worker processes for --http; more than one is stateless per request "
        "and serves --tools load_skill only.",
    ),
    click.Option(
        ["--json", "as_json"],
        is_flag=True,
        help="Write the startup line (or a refusal) to stderr as one JSON object.",
    ),
)


def run(
    *,
    here: Here,
    model: str | None,
    http: str | None,
    allow_remote: bool,
    tools: str,
    pass_env: tuple[str, ...],
    script_timeout: float,
    no_shell: bool,
    config: Path | None,
    roots: tuple[Path, ...],
    workers: int,
    as_json: bool,
) -> int:
    """Serve the skills, slash commands and skill files over MCP.

    Speaks stdio by default, for a host that starts satchel itself; --http serves
    streamable HTTP on loopback. The skill tools (load_skill by default) are MCP
    tools, the slash commands MCP prompts, every skill file a skill://<name>/<path>
    resource, and the skills index is the server's instructions. One line on stderr
    says what is served (one JSON object with --json); stdout carries only MCP."""
    from satchel.mcp._sdk import sdk_available

    # the optional extra, found but not imported: the parent of --workers never uses it
    if not sdk_available():
        message = f"the MCP SDK is not installed; install it with: {INSTALL}"
        return _fail(SDK_MISSING, message, as_json)
    if allow_remote and http is None:
        raise click.UsageError("--allow-remote applies only with --http")
    if workers > 1 and (http is None or tools != "load_skill"):
        raise click.UsageError(
            "--workers above 1 needs --http and --tools load_skill: several workers are "
            "stateless per request, and the skills tools keep an activation across calls"
        )
    _check_env(pass_env)
    address = _address(http) if http is not None else None
    if address is not None and not allow_remote and not is_loopback(address[0]):
        message = (
            f"{address[0]} is not a loopback address; pass --allow-remote to serve on it "
            "(anyone who can reach it can read skill files and run skill scripts)"
        )
        return _fail(ADDRESS_REFUSED, message, as_json)
    from satchel.server._serve import SkillServer

    if config is None and not roots:
        selection = None
        env = loaded(here, model=model)
    else:
        spec = _spec(here, roots, config)
        selection = _select(spec)
        problem = next((p for p in selection.problems if p.severity == "error"), None)
        if problem is not None:
            return _fail(problem.code, problem.message, as_json)
        env = selection.environment
    session: dict[str, Any] = {
        "tools": tools,
        "env_passthrough": pass_env,
        "script_timeout": script_timeout,
        "allow_shell_interpolation": not no_shell,
        "model": model,
    }
    served = SkillServer(env, **session)
    given = here.project is not None
    if address is None:
        return _stdio(served, as_json, given=given, selection=selection)
    if workers == 1:
        return _http(served, address, as_json, given=given, selection=selection)
    spec = _spec(here, roots, config)
    return _workers(served, spec, session, address, workers, as_json, selection=selection)


def _spec(here: Here, roots: tuple[Path, ...], config: Path | None) -> Spec:
    """What every worker loads, with paths made absolute (a worker's cwd may differ);
    ``--host`` was looked up as `here` was built."""
    from satchel.server._gateway import Spec

    def shown(path: Path | None) -> str | None:
        return None if path is None else str(path.absolute())

    return Spec(
        directory=shown(here.directory),
        project=shown(here.project),
        home=shown(here.home),
        client=here.client,
        host=here.host,
        trust=here.trust,
        plugin_dirs=tuple(str(d.absolute()) for d in here.plugin_dirs),
        roots=tuple(str(r.absolute()) for r in roots),
        config=shown(config),
    )


def _select(spec: Spec) -> Selection:
    from satchel.core.errors import UnknownHost
    from satchel.server._gateway import gateway_environment

    try:
        return gateway_environment(spec)
    except UnknownHost as e:
        raise click.BadParameter(e.diagnostic.message, param_hint="host") from None


def _address(text: str) -> tuple[str, int]:
    from satchel.server._http import parse_address

    try:
        return parse_address(text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--http") from None


def _check_env(names: tuple[str, ...]) -> None:
    from satchel.foundations.process import is_dangerous_env

    for name in names:
        if is_dangerous_env(name):
            message = f"{name} can make a script run code it does not name; it is never passed"
            raise click.BadParameter(message, param_hint="--pass-env")


def _stdio(served: SkillServer, as_json: bool, *, given: bool, selection: Selection | None) -> int:
    import anyio

    from satchel.server._serve import run_stdio

    _summary(served, "stdio", None, as_json, given=given, selection=selection)
    anyio.run(run_stdio, served.server())
    return OK


def _http(
    served: SkillServer,
    address: tuple[str, int],
    as_json: bool,
    *,
    given: bool,
    selection: Selection | None,
) -> int:
    import anyio

    from satchel.server._http import bind, run_http, url

    host, port = address
    sock = bind(host, port)
    try:
        _summary(served, "http", url(sock), as_json, given=given, selection=selection)
        anyio.run(run_http, served.server(), sock, host)
    finally:
        sock.close()
    return OK


def _workers(
    served: SkillServer,
    spec: Spec,
    session: dict[str, Any],
    address: tuple[str, int],
    workers: int,
    as_json: bool,
    *,
    selection: Selection | None,
) -> int:
    """--http with several uvicorn workers, each loading `spec` (`server._workers`)."""
    from satchel.server._http import bind, url
    from satchel.server._workers import run_workers

    host, port = address
    sock = bind(host, port)
    try:
        where = url(sock)
        given = spec.project is not None
        _summary(served, "http", where, as_json, given=given, selection=selection, workers=workers)
        run_workers(spec, session, sock, host, workers)
    finally:
        sock.close()
    return OK


def _summary(
    served: SkillServer,
    transport: str,
    where: str | None,
    as_json: bool,
    *,
    given: bool,
    selection: Selection | None = None,
    workers: int = 1,
) -> None:
    """What is served, on stderr (stdout is the MCP channel over stdio)."""
    env = served.environment
    skills = sum(1 for s in env.skills.values() if model_visible(s))
    tools = [t.name for t in served.session.tools()]
    prompts = len(served.prompts())
    if as_json:
        data: dict[str, Any] = {
            "project": str(env.layout.project),
            "transport": transport,
            "url": where,
            "skills": skills,
            "prompts": prompts,
            "tools": tools,
        }
        if selection is not None or workers > 1:
            data["workers"] = workers
            data["shadowed"] = [
                {"name": s.name, "served": str(s.winner.path), "shadowed": str(s.loser.path)}
                for s in env.shadowed
            ]
            data["filtered"] = sorted(
                {str(s.path) for s in selection.removed} if selection else set()
            )
        _stderr_json(out.envelope(data, env.diagnostics))
        return
    how = "over stdio" if where is None else f"streamable HTTP at {where}"
    if workers > 1:
        how += f", {workers} workers"
    line = (
        f"satchel serve: {out.count(skills, 'skill')}, {out.count(prompts, 'prompt')}, "
        f"tools: {', '.join(tools) or 'none'}; {how}"
    )
    err = out.console(stderr=True)
    err.print(out.safe(project_line(env.layout, given=given)), soft_wrap=True)
    err.print(out.safe(line), soft_wrap=True)
    if env.diagnostics:
        err.print(out.safe(out.see_doctor(env.diagnostics)), soft_wrap=True)


def _fail(code: str, message: str, as_json: bool) -> int:
    """A refusal on stderr, as a line or one JSON object: never on stdout, which an
    MCP host reads as protocol."""
    if as_json:
        _stderr_json(out.envelope({"error": {"code": code, "message": message}}))
    else:
        out.console(stderr=True).print(out.safe(f"satchel: {code}: {message}"), soft_wrap=True)
    return PROBLEMS


def _stderr_json(data: object) -> None:
    sys.stderr.write(json.dumps(data, ensure_ascii=True) + "\n")
    sys.stderr.flush()

"""satchel as an MCP server: an environment's skills, commands and files for any MCP host.

    server = build_server(satchel.load(), tools="load_skill")
    anyio.run(run_stdio, server)

What the server offers:

* **tools**: the session's skill tools (`Session.tools()`: ``load_skill`` by default,
  zidane's ``skills_use``/``skills_read``/``skills_run_script`` with
  ``tools="skills"``, all four with ``"all"``; and ``list_skills`` and
  ``search_skills`` when the index cannot list every skill,
  `satchel.session._search`). A call passes
  `Session.before_tool_use` (the environment's hooks, then the allowed-tools gate)
  and then `Session.call`, so every hook, path rule, cap and timeout applies; a
  refused call is a tool result with ``isError`` and satchel's ``Error (<code>):
  ...`` text. A call of a tool the session does not have is the JSON-RPC error
  -32602 instead, as the protocol's revisions (2025-11-25, 2026-07-28) list it
  ("Unknown tools") among protocol errors.
* **prompts**: the slash commands (`Environment.commands`, not the ``mcp`` ones a
  supervisor relays), arguments read from ``argument-hint`` (`serve_map`). Getting
  one expands it as `Session.expand` expands ``/name args``: nothing in it runs.
* **resources**: the files of every skill the model may see, ``skill://<name>/<path>``,
  SKILL.md first; read through `satchel.kinds.resources.read_resource` (every path rule,
  the ``resource_cap``). A refused read is an MCP error whose message starts with
  ``Error (<code>)`` and whose data is ``{"code": <code>}``.
* **skills**: the MCP Skills extension (``io.modelcontextprotocol/skills``, with
  ``directoryRead``): ``skills/list``, ``skills/get`` and ``resources/directory/read``
  over the same files and path rules as the resources (`satchel.server._skills_ext`).
* **instructions**: the skills index (`render_index`, as `Session.context()` gives it,
  with its line naming ``search_skills`` when it leaves skills out).

Activation state lives in a `Session`: one for the server (stdio: one client), and
one per MCP session id over streamable HTTP (at most `MAX_SESSIONS`, the least
recently used dropped first). Requests without a session id (stateless, 2026-07-28
clients) share the server's. Session calls run in a worker thread, one at a time
per session, so a script or ``!`cmd``` line never stalls the event loop.

The MCP SDK (the ``mcp`` extra) is imported only when a server is built or run.
"""

from __future__ import annotations

import base64
import warnings
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, Unpack

from satchel.assembly._environment import Environment
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import Refused
from satchel.index._render import model_visible, offered
from satchel.kinds.commands import Command
from satchel.kinds.resources import list_resources, read_resource
from satchel.server._complete import MAX_VALUES, argument_values, prompt_values
from satchel.server._map import (
    PromptShape,
    argument_text,
    parse_skill_uri,
    prompt_shape,
    skill_uri,
)
from satchel.server._wire import cursor as _cursor
from satchel.server._wire import mcp_error as _mcp_error
from satchel.server._wire import mime as _mime
from satchel.session import Session, ToolResult
from satchel.session._content import INDEX_ID
from satchel.session._expand import expand, invocation
from satchel.session._options import SessionOverrides

if TYPE_CHECKING:
    import anyio
    import mcp_types as types
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import Server

__all__ = [
    "MAX_FILES_PER_SKILL",
    "MAX_SESSIONS",
    "PAGE_SIZE",
    "SERVER_NAME",
    "SkillServer",
    "build_server",
    "run_stdio",
]

SERVER_NAME = "satchel"
MAX_SESSIONS = 64  # activation states kept for streamable HTTP sessions
PAGE_SIZE = 500  # resources per resources/list page
MAX_FILES_PER_SKILL = 1000  # files listed per skill (any file may still be read)
SESSION_HEADER = "mcp-session-id"
_T = TypeVar("_T")


def build_server(
    environment: Environment,
    *,
    name: str = SERVER_NAME,
    **session_options: Unpack[SessionOverrides],
) -> Server[Any]:
    """An MCP server (the SDK's low-level `Server`) over `environment`; the keywords
    are `Session` options (`satchel.session.SessionOptions`), checked now."""
    return SkillServer(environment, name=name, **session_options).server()


@dataclass(slots=True)
class _Held:
    """One activation state, the lock that keeps its calls one at a time, and the log
    level its client asked for."""

    session: Session
    lock: anyio.Lock
    level: str = "info"


class SkillServer:
    """The state behind a served environment; `server()` gives the MCP server.

    The keywords are `Session` options, checked when the server is made (a bad one
    is a `TypeError` or `ValueError`)."""

    def __init__(
        self,
        environment: Environment,
        *,
        name: str = SERVER_NAME,
        **options: Unpack[SessionOverrides],
    ) -> None:
        self.environment = environment
        self.name = name
        self.session_options = options
        self._main = self._session()
        self._held: OrderedDict[str | None, _Held] = OrderedDict()

    def _session(self) -> Session:
        return Session(self.environment, **self.session_options)

    @property
    def session(self) -> Session:
        """The server's own session (stdio, and requests without an MCP session id)."""
        return self._main

    def instructions(self) -> str | None:
        """The skills index, or None when no skill is visible to the model."""
        return next((s.text for s in self._main.context() if s.id == INDEX_ID), None)

    def prompts(self) -> dict[str, Command]:
        """The commands served as prompts, by name (not the ``mcp`` ones: satchel serve
        does not relay other servers)."""
        commands = self.environment.commands.commands.values()
        return {c.name: c for c in commands if c.scope != "mcp"}

    def server(self) -> Server[Any]:
        from mcp.server.lowlevel import Server
        from mcp.shared.exceptions import MCPDeprecationWarning

        from satchel.foundations._version import __version__
        from satchel.server._skills_ext import SkillsExtension

        with warnings.catch_warnings():  # logging/setLevel is served for 2025-11-25 clients
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            server: Server[Any] = Server(
                self.name,
                version=__version__,
                instructions=self.instructions(),
                on_list_tools=self._list_tools,
                on_call_tool=self._call_tool,
                on_list_prompts=self._list_prompts,
                on_get_prompt=self._get_prompt,
                on_list_resources=self._list_resources,
                on_list_resource_templates=self._list_templates,
                on_read_resource=self._read_resource,
                on_completion=self._complete,
                on_set_logging_level=self._set_level,
            )
        SkillsExtension(self._run, MAX_FILES_PER_SKILL).install(server)
        return server

    # -- sessions ---------------------------------------------------------------------

    def _for(self, ctx: ServerRequestContext[Any, Any]) -> _Held:
        """The activation state of the MCP session `ctx` belongs to."""
        import anyio

        headers = getattr(ctx.request, "headers", None)
        key = headers.get(SESSION_HEADER) if headers is not None else None
        held = self._held.get(key)
        if held is None:
            session = self._main if key is None else self._session()
            held = self._held[key] = _Held(session, anyio.Lock())
            while len(self._held) > MAX_SESSIONS:
                oldest = next(k for k in self._held if k is not None)
                del self._held[oldest]
        self._held.move_to_end(key)
        return held

    async def _run(self, ctx: ServerRequestContext[Any, Any], work: Callable[[Session], _T]) -> _T:
        import anyio.to_thread

        held = self._for(ctx)
        async with held.lock:
            return await anyio.to_thread.run_sync(work, held.session)

    # -- tools --------------------------------------------------------------------------

    async def _list_tools(
        self, _ctx: ServerRequestContext[Any, Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        import mcp_types as types

        tools = [
            types.Tool(
                name=t.name,
                description=t.description,
                input_schema=t.definition()["input_schema"],
            )
            for t in self._main.tools()
        ]
        return types.ListToolsResult(tools=tools)

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        arguments = params.arguments or {}
        result = await self._run(ctx, lambda s: _guarded_call(s, params.name, arguments))
        if result.code == "session.tool.unknown":
            raise _unknown_tool(result)
        return _tool_result(result)

    # -- prompts ------------------------------------------------------------------------

    async def _list_prompts(
        self, _ctx: ServerRequestContext[Any, Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        import mcp_types as types

        prompts = [
            types.Prompt(
                name=c.name,
                description=c.description or None,
                arguments=_prompt_arguments(c.name, prompt_shape(c)),
            )
            for c in self.prompts().values()
        ]
        return types.ListPromptsResult(prompts=prompts)

    async def _get_prompt(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        import mcp_types as types

        command = self.prompts().get(params.name)
        if command is None:
            raise _mcp_error(_unknown_prompt(params.name))
        try:
            text = argument_text(command.name, prompt_shape(command), params.arguments)
        except Refused as e:
            raise _mcp_error(e.diagnostic) from None
        expanded = await self._run(ctx, lambda s: _expand_command(s, command, text))
        if isinstance(expanded, Diagnostic):
            raise _mcp_error(expanded)
        message = types.PromptMessage(role="user", content=types.TextContent(text=expanded))
        return types.GetPromptResult(description=command.description or None, messages=[message])

    # -- completions and logging ----------------------------------------------------------

    async def _complete(
        self, ctx: ServerRequestContext[Any, Any], params: types.CompleteRequestParams
    ) -> types.CompleteResult:
        import anyio.to_thread
        import mcp_types as types

        ref, argument = params.ref, params.argument
        if isinstance(ref, types.PromptReference):
            command = self.prompts().get(ref.name)
            if command is None:
                raise _mcp_error(_unknown_prompt(ref.name))
            found = prompt_values(prompt_shape(command), argument.name, argument.value)
        else:
            context = dict(params.context.arguments or {}) if params.context else {}
            found = await anyio.to_thread.run_sync(
                lambda: self._template_values(argument.name, argument.value, context)
            )
        values = found[:MAX_VALUES]
        more = len(found) > MAX_VALUES
        return types.CompleteResult(
            completion=types.Completion(values=values, total=len(found), has_more=more)
        )

    def _template_values(self, argument: str, typed: str, context: dict[str, str]) -> list[str]:
        skills = sorted({s for s, _, _, _ in self._catalog()})
        return argument_values(argument, typed, skills, self._files, context)

    def _files(self, skill: str) -> list[str]:
        return [p for s, p, _, _ in self._catalog() if s == skill]

    async def _set_level(
        self, ctx: ServerRequestContext[Any, Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        """``logging/setLevel`` (2025-11-25; removed at 2026-07-28): accepted, and
        kept for the session. satchel serve sends no log notifications, so there is
        nothing below any level to filter."""
        import mcp_types as types

        self._for(ctx).level = params.level
        return types.EmptyResult()

    # -- resources ----------------------------------------------------------------------

    async def _list_resources(
        self, _ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        import anyio.to_thread
        import mcp_types as types

        start = _cursor(params.cursor if params is not None else None)
        entries = await anyio.to_thread.run_sync(self._catalog)
        page = entries[start : start + PAGE_SIZE]
        more = start + PAGE_SIZE < len(entries)
        resources = [
            types.Resource(uri=skill_uri(s, p), name=n, description=d, mime_type=_mime(p))
            for s, p, n, d in page
        ]
        return types.ListResourcesResult(
            resources=resources, next_cursor=str(start + PAGE_SIZE) if more else None
        )

    def _catalog(self) -> list[tuple[str, str, str, str | None]]:
        """(skill, path, name, description) of every file listed: each visible
        skill's SKILL.md, named and described by its frontmatter (the Skills
        extension: its resource's name and description SHOULD be those), then its
        other files, named ``<skill>/<path>`` (`list_resources`: no dot-directories,
        no links out); not those of a skill whose listing override keeps it from
        the model."""
        entries: list[tuple[str, str, str, str | None]] = []
        env = self.environment
        for skill in offered(env.skills, env.skill_overrides).values():
            directory = skill.directory
            if directory is None or skill.path is None or not model_visible(skill):
                continue
            entries.append((skill.name, skill.path.name, skill.name, skill.description or None))
            try:
                files, _ = list_resources(directory, limit=MAX_FILES_PER_SKILL)
            except Refused:
                continue
            entries.extend((skill.name, f, f"{skill.name}/{f}", None) for f in files)
        return entries

    async def _list_templates(
        self, _ctx: ServerRequestContext[Any, Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        import mcp_types as types

        template = types.ResourceTemplate(
            name="skill-file",
            uri_template="skill://{skill}/{+path}",
            description="A file in a skill's directory, by path relative to it.",
        )
        return types.ListResourceTemplatesResult(resource_templates=[template])

    async def _read_resource(
        self, ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        import mcp_types as types

        uri = params.uri
        found = await self._run(ctx, lambda s: _read_file(s, uri))
        if isinstance(found, Diagnostic):
            raise _mcp_error(found, uri)
        data, path = found
        mime = _mime(path)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            blob = base64.b64encode(data).decode("ascii")
            mime = mime or "application/octet-stream"
            contents: Any = types.BlobResourceContents(uri=uri, mime_type=mime, blob=blob)
        else:
            mime = mime or "text/plain"
            contents = types.TextResourceContents(uri=uri, mime_type=mime, text=text)
        return types.ReadResourceResult(contents=[contents])


async def run_stdio(server: Server[Any]) -> None:
    """Serve `server` over this process's stdin and stdout until stdin closes."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


# -- helpers ------------------------------------------------------------------------------


def _tool_result(result: ToolResult) -> types.CallToolResult:
    import mcp_types as types

    structured = dict(result.data) if result.data is not None else None
    return types.CallToolResult(
        content=[types.TextContent(text=result.text)],
        is_error=result.is_error,
        structured_content=structured,
    )


def _unknown_tool(result: ToolResult) -> Exception:
    """A call of a tool the session does not have: a protocol error (-32602), as the
    2025-11-25 and 2026-07-28 revisions' error tables say ("Unknown tools"), not a
    tool result; every other refusal stays a tool result with ``isError``."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_PARAMS

    return MCPError(code=INVALID_PARAMS, message=result.text, data={"code": result.code})


def _guarded_call(session: Session, name: str, arguments: dict[str, Any]) -> ToolResult:
    """`Session.call` behind `Session.before_tool_use` (the environment's hooks, then
    the gate), as a host runs any tool: a deny is a tool error, and so is an ask,
    since a server has no user to ask; a hook's rewrite is the input that runs."""
    if name not in {t.name for t in session.tools()}:
        return session.call(name, arguments)  # the unknown-tool error
    decision = session.before_tool_use(name, arguments)
    if decision.behavior == "allow":
        return session.call(name, decision.tool_input)
    why = decision.reason or "a before_tool_use hook refused it"
    if decision.behavior == "ask":
        why = f"it needs the user's confirmation, which satchel serve cannot ask for: {why}"
    message = f"the call to {name} was not run: {why}"
    return ToolResult.error(diagnostic("mcp.serve.tool.denied", message))


def _prompt_arguments(name: str, shape: PromptShape) -> list[types.PromptArgument]:
    import mcp_types as types

    if shape.free:
        said = f" ({shape.hint})" if shape.hint else ""
        about = f"The text after /{name}, as typed{said}."
        return [types.PromptArgument(name=shape.names[0], description=about, required=False)]
    last = len(shape.names) - 1
    arguments = []
    for i, (arg, needed) in enumerate(zip(shape.names, shape.required, strict=True)):
        which = f"Words {i + 1} and on" if shape.variadic and i == last else f"Word {i + 1}"
        about = f"{which} of /{name} {shape.hint}"
        arguments.append(types.PromptArgument(name=arg, description=about, required=needed))
    return arguments


def _expand_command(session: Session, command: Command, text: str) -> str | Diagnostic:
    """The prompt `Session.expand` makes of ``/<command> <text>``, or why not."""
    prompt = f"/{command.name} {text}".rstrip()
    found = invocation(session.activation, prompt)
    if found is None or found[0] is not command:
        return _unknown_prompt(command.name)
    expanded, problems = expand(session.activation, session.hooks, prompt)
    return problems[0] if problems else expanded


def _read_file(session: Session, uri: str) -> tuple[bytes, str] | Diagnostic:
    """The bytes of the skill file at `uri` and its path, or why it is refused."""
    try:
        name, path = parse_skill_uri(uri)
        skill = session.activation.find(name, for_model=True)
        directory = skill.directory
        if directory is None:
            message = f"skill {skill.name!r} was defined in code and has no files"
            return diagnostic("resource.missing", message)
        found = read_resource(directory, path, cap=session.activation.options.resource_cap)
    except Refused as e:
        return e.diagnostic
    return found.data, found.relative


def _unknown_prompt(name: str) -> Diagnostic:
    from satchel.kinds.resources import quote

    return diagnostic("mcp.serve.prompt.unknown", f"no prompt named {quote(name)}")

"""`McpSupervisor`: start an environment's MCP servers, talk MCP to them, stop them.

Every enabled server of `Environment.mcp_servers` starts at once (the host's own and
trusted plugins'; none when `Options.executable` is False), each with its own
start-up timeout: a server that fails to start, to connect, to authenticate or to
finish the handshake is reported and the others go on. A remote server that asks for
authorization gets the OAuth tokens ``satchel mcp login`` kept in the keyring
(`satchel.runtime.mcp._oauth.StoredAuth`), refreshed when they expired; one it needs
anew (more scopes, a refusal, another authorization server) goes through the host's
``authorize`` callback, or fails (``mcp.oauth.insufficient_scope`` for a call). A
running server's tools,
prompts and resources are listed once, under Claude Code's names
(`satchel.mcp._names`), a Vibe plugin's ``toolOverrides`` applied
(`satchel.runtime.mcp._overrides`). Stopping ends every stdio server's whole process group.

Async::

    async with McpSupervisor(env) as mcp:
        result = await mcp.call_tool("mcp__plugin_kit_api__lookup", {"q": "x"}, gate=session)

From plain Python (an event loop in a thread of its own)::

    with McpSupervisor(env).blocking() as mcp:
        result = mcp.call_tool("mcp__github__search", {"q": "x"})

Uses the MCP SDK (a dependency of satchel): the SDK is imported when
the supervisor starts, never by ``import satchel``. Failure codes:
``plugin.mcp.connection_failed`` and ``plugin.mcp.authorization_required`` for a
plugin's server (Vibe), ``mcp.server.connection_failed`` and
``mcp.server.authorization_required`` for the host's own.

Each server is spoken to at the protocol revision it speaks (`satchel.mcp._connect`:
2026-07-28 through ``server/discover``, else the 2025-11-25 handshake); its report
says which (`ServerReport.protocol`). A server's questions to the user (elicitation)
go to the ``elicit`` callback, declined when there is none
(``mcp.elicitation.declined``); its log messages, the progress of a call and the
cancellation of one go to ``on_event`` (`satchel.runtime.mcp._events`); when a
server says its tools changed, they are listed again and the supervisor's tools are
the new ones.

The organisation's policy (`Environment.policy`, docs/policy.md) is asked of every
server the supervisor is handed, whether or not `load()` chose it: a server its
``[mcp]`` lists or ``disabled_components`` refuse (or any, when the policy fails
closed) is never started; its report has the status ``refused`` and the
``policy.denied`` diagnostic.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from satchel.assembly._policed import mcp_refusal
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.tokens import Counter, approx_tokens
from satchel.mcp._names import server_id
from satchel.mcp._sdk import require_sdk
from satchel.mcp._spec import McpServer
from satchel.plugins._model import Plugin
from satchel.plugins._options import OptionValues, option_values
from satchel.runtime.mcp._blocking import BlockingSupervisor
from satchel.runtime.mcp._catalog import (
    McpPrompt,
    McpResource,
    McpTool,
    ServerReport,
    Status,
    ToolResult,
    error_result,
)
from satchel.runtime.mcp._deferral import DEFAULT_BUDGET, ToolSearch
from satchel.runtime.mcp._events import Elicit, Elicitation, McpEvent, OnEvent
from satchel.runtime.mcp._gate import Approve, ToolGate, decide, refusal
from satchel.runtime.mcp._launch import LaunchRefused, launch_spec, with_options
from satchel.runtime.mcp._listener import Listener
from satchel.runtime.mcp._listing import handshake, list_tools
from satchel.runtime.mcp._overrides import apply_overrides

if TYPE_CHECKING:
    from types import TracebackType

    import anyio
    from anyio.abc import TaskGroup
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from mcp.client.client import Client
    from pydantic import BaseModel

    from satchel.assembly._environment import Environment
    from satchel.mcp._transports import Wire
    from satchel.runtime.mcp._oauth import Authorize, StoredAuth

__all__ = ["DEFAULT_CALL_TIMEOUT", "DEFAULT_TIMEOUT", "McpSupervisor"]

DEFAULT_TIMEOUT = 30.0  # seconds for one server to start and finish the handshake
DEFAULT_CALL_TIMEOUT = 600.0  # seconds for one tool call
DEFAULT_GRACE = 1.0  # seconds between closing stdin, SIGTERM and SIGKILL at stop
DECLINED = "mcp.elicitation.declined"
SCOPE = "mcp.oauth.insufficient_scope"
AUTH_HINT = (
    "run `satchel mcp login {name}`, or put the credentials in the headers of the server's "
    "entry (literal values)"
)
_TAIL = 300  # characters of a server's stderr quoted in a failure message
_Offer = TypeVar("_Offer", McpTool, McpPrompt)


@dataclass(eq=False)
class _Link:
    """One server's life inside the supervisor."""

    server: McpServer
    plugin: Plugin | None
    timeout: float
    call_timeout: float
    report: ServerReport
    session: Client | None = None
    ready: anyio.Event | None = None
    stopping: anyio.Event | None = None
    raw: list[McpTool] = field(default_factory=list)
    raw_prompts: tuple[McpPrompt, ...] = ()
    listener: Listener | None = None
    changes: MemoryObjectSendStream[None] | None = None  # a new list of tools is due
    auth: StoredAuth | None = None  # a remote server's: the OAuth kept by `mcp login`
    start: anyio.CancelScope | None = None  # the start's deadline, while it runs


class McpSupervisor:
    """The MCP servers of one `Environment`, started and stopped together.

    `timeout`: seconds each server has to start, connect and finish the handshake
    (a host config entry's ``startup_timeout_sec`` wins for its server);
    `call_timeout`: seconds per tool call (``tool_timeout_sec`` likewise); `grace`:
    seconds between closing a stdio server's stdin, SIGTERM to its group and SIGKILL;
    `environ`: what the scrubbed base environment is taken from (default
    ``os.environ``); `only`: start just the servers of these names (a plugin's
    server by ``plugin:<plugin>:<server>``, or by its bare name: every plugin's of
    that name); `elicit`: answers the servers' questions to the user (`Elicitation`
    in, `ElicitAnswer` out; none: each is declined); `on_event`: gets each `McpEvent`
    (log messages, progress, cancellations, changed tools); `authorize`: opens an
    OAuth authorization URL for the user when a remote server needs an authorization
    the kept tokens cannot give (`Authorization` in; none: the request fails and
    ``satchel mcp login`` is the way on)."""

    def __init__(
        self,
        environment: Environment,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        grace: float = DEFAULT_GRACE,
        environ: Mapping[str, str] | None = None,
        only: tuple[str, ...] | None = None,
        elicit: Elicit | None = None,
        on_event: OnEvent | None = None,
        authorize: Authorize | None = None,
    ) -> None:
        if timeout <= 0 or call_timeout <= 0 or grace < 0:
            raise ValueError("timeout and call_timeout must be > 0, grace >= 0")
        self._env = environment
        self._grace = grace
        self._environ = os.environ if environ is None else environ
        self._elicit, self._on_event = elicit, on_event
        self._authorize = authorize
        self._links = [
            _link(environment, s, timeout, call_timeout)
            for s in environment.mcp_servers.servers
            if only is None or s.name in only or server_id(s) in only
        ]
        self._tools: dict[str, tuple[McpTool, _Link]] = {}
        self._prompts: dict[str, tuple[McpPrompt, _Link]] = {}
        self._problems: list[Diagnostic] = []
        self._group: TaskGroup | None = None

    # -- what the servers offer -------------------------------------------------

    @property
    def servers(self) -> tuple[ServerReport, ...]:
        """Every configured server (disabled ones included), in precedence order."""
        return tuple(link.report for link in self._links)

    @property
    def tools(self) -> tuple[McpTool, ...]:
        return tuple(tool for tool, _ in self._tools.values())

    @property
    def prompts(self) -> tuple[McpPrompt, ...]:
        return tuple(prompt for prompt, _ in self._prompts.values())

    @property
    def resources(self) -> tuple[McpResource, ...]:
        return tuple(r for link in self._links for r in link.report.resources)

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Every failure and override problem found when starting."""
        return (*(d for link in self._links for d in link.report.diagnostics), *self._problems)

    def tool(self, name: str) -> McpTool | None:
        """The tool the host knows as `name`, if a running server offers it."""
        found = self._tools.get(name)
        return None if found is None else found[0]

    def tool_search(
        self, *, budget: int | None = DEFAULT_BUDGET, counter: Counter = approx_tokens
    ) -> ToolSearch:
        """The running servers' tools for the model, deferred behind ``search_tools``
        when their definitions cost more than `budget` tokens (`ToolSearch`: Claude
        Code's MCP tool search). Make it after `start`."""
        return ToolSearch(self.tools, budget=budget, counter=counter)

    # -- life cycle -------------------------------------------------------------

    async def __aenter__(self) -> McpSupervisor:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    async def start(self) -> None:
        """Start every server concurrently and wait until each is running or failed.
        `start` and `stop` must be awaited in the same task (``async with`` does)."""
        import anyio

        require_sdk()
        if self._group is not None or any(x.ready is not None for x in self._links):
            raise RuntimeError("a supervisor starts once; make a new one to start again")
        group = anyio.create_task_group()
        await group.__aenter__()
        self._group = group
        try:
            for link in self._links:
                if link.report.status == "configured":
                    link.ready, link.stopping = anyio.Event(), anyio.Event()
                    group.start_soon(self._run, link)
            for link in self._links:
                if link.ready is not None:
                    await link.ready.wait()
        except BaseException:
            await self.stop()
            raise
        self._settle()

    async def stop(self) -> None:
        """Close every session and stop every stdio server's process group."""
        group, self._group = self._group, None
        if group is None:
            return
        for link in self._links:
            if link.stopping is not None:
                link.stopping.set()
        await group.__aexit__(None, None, None)
        for link in self._links:
            if link.report.status == "running":
                link.report = replace(link.report, status="stopped")
            link.session = None

    def blocking(self) -> BlockingSupervisor:
        """This supervisor for plain Python: ``with sup.blocking() as mcp: ...``."""
        return BlockingSupervisor(self)

    # -- calls ------------------------------------------------------------------

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        gate: ToolGate | None = None,
        *,
        approve: Approve | None = None,
    ) -> ToolResult:
        """Call the tool the host knows as `name`. `gate.before_tool_use(name, input)`
        decides first: ``deny`` (or ``ask`` with no `approve` callback, or one that
        says no) returns an error result with the reason and the server is not called;
        an `updated_input` replaces the input. A failed call is an error result."""
        found = self._tools.get(name)
        if found is None:
            return error_result(name, f"no running MCP server offers a tool named {name!r}")
        tool, link = found
        tool_input: Mapping[str, Any] = dict(arguments or {})
        if gate is not None:
            decision = await decide(gate, name, tool_input)
            refused = refusal(decision, tool, tool_input, approve)
            if refused is not None:
                return error_result(name, refused, denied=True)
            if decision.updated_input is not None:
                tool_input = dict(decision.updated_input)
        return await _call(link, tool, tool_input)

    async def get_prompt(
        self, name: str, arguments: Mapping[str, str] | None = None
    ) -> list[dict[str, Any]]:
        """The messages of the prompt the host knows as `name` (``mcp__<server>__<p>``,
        without the slash), as MCP JSON. Raises `KeyError` for an unknown prompt."""
        prompt, link = self._prompts[name.removeprefix("/")]
        result = await _session(link).get_prompt(prompt.prompt, dict(arguments or {}))
        return _dumped(result.messages)

    async def read_resource(self, server: str, uri: str) -> list[dict[str, Any]]:
        """The contents of resource `uri` of the running server named `server` (a
        plugin's as ``plugin:<plugin>:<server>``, or the first running one of that bare
        name), as MCP JSON. Raises `KeyError` for a server that is not running."""
        running = [x for x in self._links if x.session is not None]
        link = next((x for x in running if server_id(x.server) == server), None) or next(
            (x for x in running if x.server.name == server), None
        )
        if link is None:
            raise KeyError(server)
        result = await _session(link).read_resource(uri)
        return _dumped(result.contents)

    # -- inside -----------------------------------------------------------------

    async def _run(self, link: _Link) -> None:
        """One server's task: connect, handshake and list within its timeout, then
        hold the session (listing the tools again when they change) until `stop`."""
        import anyio

        from satchel.mcp._connect import client
        from satchel.mcp._transports import Wire

        assert link.ready is not None and link.stopping is not None
        wire = Wire()
        scope = anyio.CancelScope(deadline=anyio.current_time() + link.timeout)
        link.start = scope
        listener = self._listener(link)
        changes, changed = anyio.create_memory_object_stream[None](1)
        link.listener, link.changes = listener, changes
        connection = client(
            self._streams(link, wire),
            elicitation=listener.elicitation,
            logging=listener.logging,
            messages=listener.messages,
            log_level="info" if self._on_event is not None else None,
        )
        try:
            with scope, changes, changed:
                async with connection:
                    await _handshake(link, connection)
                    scope.deadline, link.start = math.inf, None
                    link.ready.set()
                    await self._hold(link, connection, changed)
            if scope.cancelled_caught and link.session is None:
                why = f"did not finish the MCP handshake within {link.timeout:g} s"
                self._fail(link, why, wire)
        except LaunchRefused as refused:
            link.report = replace(link.report, status="failed", diagnostics=(refused.diagnostic,))
        except Exception as e:  # noqa: BLE001  # any failure of one server must not stop the others
            if link.session is None:
                self._fail(link, _reason(e, link.server), wire)
        finally:
            link.session = link.session if link.report.status == "running" else None
            link.changes = None
            link.ready.set()

    def _listener(self, link: _Link) -> Listener:
        def changed() -> None:
            import anyio

            if link.changes is not None:
                with contextlib.suppress(anyio.WouldBlock, anyio.ClosedResourceError):
                    link.changes.send_nowait(None)  # one pending is enough

        def declined(question: Elicitation) -> None:
            self._declined(link, question)

        who = server_id(link.server)
        return Listener(who, self._on_event, self._elicit, declined, changed)

    async def _hold(
        self, link: _Link, connection: Client, changed: MemoryObjectReceiveStream[None]
    ) -> None:
        """Until `stop`: list the tools again each time the server says they changed
        (a notification at 2025-11-25, a ``subscriptions/listen`` event at 2026-07-28)."""
        import anyio

        assert link.stopping is not None
        async with anyio.create_task_group() as group:
            group.start_soon(_listen, link, connection)
            group.start_soon(self._relist, link, connection, changed)
            await link.stopping.wait()
            group.cancel_scope.cancel()

    async def _relist(
        self, link: _Link, connection: Client, changed: MemoryObjectReceiveStream[None]
    ) -> None:
        async for _ in changed:
            try:
                tools = await list_tools(link.server, connection.session)
            except Exception:  # noqa: BLE001  # the tools stay as they were
                continue
            link.raw = list(tools)
            self._settle()
            if link.listener is not None:
                link.listener.emit(McpEvent("tools_changed", server_id(link.server)))

    def _declined(self, link: _Link, question: Elicitation) -> None:
        """Note, once per server, that its questions were declined."""
        if any(d.code == DECLINED for d in link.report.diagnostics):
            return
        what = (
            f"asked the user a question ({question.mode}: {question.message!r}); it was "
            "declined, since the host gave the supervisor no elicit callback"
        )
        found = diagnostic(DECLINED, _said(link.server, what), link.server.path)
        link.report = replace(link.report, diagnostics=(*link.report.diagnostics, found))

    @contextlib.asynccontextmanager
    async def _streams(self, link: _Link, wire: Wire) -> Any:
        from satchel.foundations.process._spawn import spawn_process
        from satchel.mcp._transports import remote_streams, stdio_streams

        server, options = self._with_options(link)
        if server.transport != "stdio":
            assert server.url is not None
            url = self._url(server)
            link.auth = _stored_auth(self._env, server, url, self._authorize, self._environ)
            link.auth.on_person = _pausing(link)
            async with remote_streams(
                server.transport, url, server.headers, wire, timeout=link.timeout, auth=link.auth
            ) as streams:
                yield streams
            return
        spec = launch_spec(
            server,
            plugin=link.plugin,
            project=self._env.layout.project,
            environ=self._environ,
            failed=_code(server, "connection_failed"),
            options=options,
        )
        proc, problems = await spawn_process(spec.argv, cwd=spec.cwd, env=spec.env)
        if proc is None:
            message = problems[0].message if problems else "it could not be started"
            found = diagnostic(_code(server, "connection_failed"), _said(server, message))
            raise LaunchRefused(replace(found, path=server.path))
        link.report = replace(link.report, stderr="")
        try:
            async with stdio_streams(proc, wire, grace=self._grace) as streams:
                yield streams
        finally:
            link.report = replace(link.report, stderr=proc.stderr())

    def _url(self, server: McpServer) -> str:
        """The server's url with its ``${VAR}`` and ``${VAR:-default}`` filled from the
        environment, as Claude Code fills them; `LaunchRefused` when the result is not
        a URL satchel connects to (the variable's value is not shown)."""
        from satchel.mcp._parse import expand_url, url_problem

        assert server.url is not None
        url = expand_url(server.url, self._environ)
        why = url_problem(url)
        if why is None:
            return url
        message = _said(server, f"was not started: its url, its variables filled in, {why}")
        raise LaunchRefused(diagnostic(_code(server, "connection_failed"), message, server.path))

    def _with_options(self, link: _Link) -> tuple[McpServer, OptionValues | None]:
        """The server with its plugin's userConfig values filled, and those values."""
        if link.plugin is None:
            return link.server, None
        options = option_values(self._env.layout, link.plugin)
        return with_options(link.server, link.plugin, options), options

    def _fail(self, link: _Link, why: str, wire: Wire) -> None:
        code = "connection_failed"
        asked = _authorization(wire, link.auth)
        if asked is not None:
            code, why = "authorization_required", asked
        details = [why]
        if wire.exit_code is not None:
            details.append(f"it exited with status {wire.exit_code}")
        if wire.noise:
            details.append(
                "it wrote this on stdout, which is not JSON-RPC: " + " | ".join(wire.noise)
            )
        tail = link.report.stderr.strip()
        if tail:
            details.append("its stderr ends: " + " ".join(tail[-_TAIL:].split()))
        hint = AUTH_HINT.format(name=server_id(link.server)) if asked is not None else None
        message = _said(link.server, "; ".join(details))
        found = diagnostic(_code(link.server, code), message, link.server.path, hint=hint)
        link.report = replace(link.report, status="failed", diagnostics=(found,))

    def _settle(self) -> None:
        """Names for the running servers' tools and prompts: overrides applied, the
        first of two same names kept (``mcp.tool.collision``). The new names replace
        the old ones at once (a blocking supervisor's thread may be reading them)."""
        named_tools: dict[str, tuple[McpTool, _Link]] = {}
        named_prompts: dict[str, tuple[McpPrompt, _Link]] = {}
        problems: list[Diagnostic] = []
        tools: dict[int, list[McpTool]] = {id(link): list(link.raw) for link in self._links}
        for plugin in self._plugins():
            mine = [link for link in self._links if link.plugin is plugin]
            running = {link.server.name for link in mine if link.report.status == "running"}
            complete = all(s.name in running for s in plugin.mcp_servers)
            offered = [t for link in mine for t in tools[id(link)]]
            changed, found = apply_overrides(plugin, offered, complete=complete)
            problems.extend(found)
            for link in mine:
                count = len(tools[id(link)])
                tools[id(link)], changed = list(changed[:count]), changed[count:]
        for link in self._links:
            kept = tuple(
                t for t in tools[id(link)] if self._keep("tool", t, link, named_tools, problems)
            )
            prompts = tuple(
                p
                for p in link.raw_prompts
                if self._keep("prompt", p, link, named_prompts, problems)
            )
            link.report = replace(link.report, tools=kept, prompts=prompts)
        self._tools, self._prompts = named_tools, named_prompts
        self._problems = problems

    @staticmethod
    def _keep(
        kind: str,
        offer: _Offer,
        link: _Link,
        taken: dict[str, tuple[_Offer, _Link]],
        problems: list[Diagnostic],
    ) -> bool:
        """Record `offer` (a `kind`) of `link` in `taken` under its name, unless an
        earlier server's holds that name: then it is a collision and hidden."""
        first = taken.get(offer.name)
        if first is not None:
            problems.append(_collision(kind, offer.name, first[1].server, link.server))
            return False
        taken[offer.name] = (offer, link)
        return True

    def _plugins(self) -> list[Plugin]:
        seen: list[Plugin] = []
        for link in self._links:
            if link.plugin is not None and all(p is not link.plugin for p in seen):
                seen.append(link.plugin)
        return seen


# -- helpers --------------------------------------------------------------------


def _link(env: Environment, server: McpServer, timeout: float, call_timeout: float) -> _Link:
    plugin = env.plugins.plugins.get(server.plugin) if server.plugin is not None else None
    status: Status = "configured"
    refused = mcp_refusal(server, env.policy)
    if not server.enabled:
        status = "disabled"
    elif refused is not None:  # the organisation's policy: it never starts
        status = "refused"
    elif not env.options.executable:
        status = "declarative"
    return _Link(
        server,
        plugin,
        _seconds(server.extras.get("startup_timeout_sec"), timeout),
        _seconds(server.extras.get("tool_timeout_sec"), call_timeout),
        ServerReport(server, status, diagnostics=() if refused is None else (refused,)),
    )


def _stored_auth(
    env: Environment,
    server: McpServer,
    url: str,
    authorize: Authorize | None,
    environ: Mapping[str, str],
) -> StoredAuth:
    from satchel.runtime.mcp._oauth import StoredAuth

    return StoredAuth(env.layout, server, url, authorize=authorize, environ=environ)


def _pausing(link: _Link) -> Callable[[bool], None]:
    """Stop the start's deadline while a person authorizes (and give it back after)."""
    import anyio

    left: list[float] = []

    def pause(on: bool) -> None:
        scope = link.start
        if scope is None:
            return
        if on:
            left.append(scope.deadline - anyio.current_time())
            scope.deadline = math.inf
        elif left:
            scope.deadline = anyio.current_time() + left.pop()

    return pause


def _authorization(wire: Wire, auth: StoredAuth | None) -> str | None:
    """Why the server refused satchel, when it asked for authorization; else None."""
    if wire.status is None or auth is None:
        return None if wire.status is None else _NONE_KEPT.format(status=wire.status)
    if auth.stored and not auth.refused and auth.failure is None:
        return None
    said = _NONE_KEPT if not auth.refused else _REFUSED
    if auth.failure is not None:
        said += "; a new authorization failed: {failure}"
    return said.format(status=wire.status, failure=auth.failure)


_NONE_KEPT = "answered HTTP {status}: it needs authorization, and satchel keeps none for it"
_REFUSED = (
    "answered HTTP {status}: it refused the authorization satchel keeps for it "
    "(satchel mcp login), which could not be refreshed"
)


def _seconds(value: object, default: float) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return default


_CODES = {  # (a plugin's server?, what happened) -> code
    (True, "connection_failed"): "plugin.mcp.connection_failed",
    (True, "authorization_required"): "plugin.mcp.authorization_required",
    (False, "connection_failed"): "mcp.server.connection_failed",
    (False, "authorization_required"): "mcp.server.authorization_required",
}


def _code(server: McpServer, what: str) -> str:
    return _CODES[server.plugin is not None, what]


def _said(server: McpServer, what: str) -> str:
    who = f"MCP server {server.name!r}"
    if server.plugin is not None:
        who += f" of plugin {server.plugin!r}"
    return f"{who} {what}" if not what.startswith(who) else what


async def _handshake(link: _Link, connection: Client) -> None:
    offer = await handshake(link.server, connection)
    link.raw, link.raw_prompts = list(offer.tools), offer.prompts
    link.session = connection
    link.report = replace(
        link.report,
        status="running",
        prompts=offer.prompts,
        resources=offer.resources,
        server_name=offer.name,
        server_version=offer.version,
        instructions=offer.instructions,
        protocol=offer.protocol,
    )


async def _listen(link: _Link, connection: Client) -> None:
    """At 2026-07-28, a server that says its tools may change is listened to
    (``subscriptions/listen``); each event asks for a new list (`_Link.changes`)."""
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    tools = connection.server_capabilities.tools
    if connection.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        return
    if tools is None or not tools.list_changed or link.listener is None:
        return
    with contextlib.suppress(Exception):  # no subscription: the tools stay as listed
        async with connection.listen(tools_list_changed=True) as events:
            async for _ in events:
                link.listener.changed()


def _leaf(e: BaseException) -> BaseException:
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    return e


_ANY_URL = re.compile(r"https?://[^\s'\"<>]+", re.IGNORECASE)


def _words(e: BaseException, server: McpServer) -> str:
    """An exception in words (a URL is never echoed: it may hold a secret)."""
    leaf = _leaf(e)
    text = " ".join(str(leaf).split()) or type(leaf).__name__
    if server.url:
        text = _ANY_URL.sub("<url>", text.replace(server.url, "<url>"))  # filled ones too
    if type(leaf).__name__ in ("ClosedResourceError", "EndOfStream", "BrokenResourceError"):
        text = "closed the connection"
    return text


def _reason(e: BaseException, server: McpServer) -> str:
    """Why a connection failed, in words."""
    leaf, text = _leaf(e), _words(e, server)
    if server.transport == "stdio":
        return f"failed during the MCP handshake: {text}"
    return (
        f"could not be reached or did not finish the MCP handshake: {type(leaf).__name__}: {text}"
    )


def _session(link: _Link) -> Client:
    if link.session is None:
        raise KeyError(link.server.name)
    return link.session


async def _call(link: _Link, tool: McpTool, tool_input: Mapping[str, Any]) -> ToolResult:
    import anyio

    if link.session is None or link.listener is None:
        return error_result(tool.name, f"MCP server {link.server.name!r} is not running")
    listener = link.listener
    try:
        result = await link.session.call_tool(
            tool.tool,
            dict(tool_input),
            read_timeout_seconds=link.call_timeout,
            progress_callback=listener.progress(tool.name),
        )
    except anyio.get_cancelled_exc_class():
        listener.cancelled(tool.name, f"the call to {tool.name} was cancelled")
        raise
    except Exception as e:  # noqa: BLE001  # a failed call is a result for the model, not a crash
        if _timed_out(e):
            listener.cancelled(
                tool.name, f"the call to {tool.name} took longer than {link.call_timeout:g} s"
            )
        return _call_failed(link, tool, e)
    content = tuple(_dumped(result.content))
    structured = result.structured_content
    return ToolResult(tool.name, content, structured, bool(result.is_error))


def _timed_out(e: BaseException) -> bool:
    from mcp_types import REQUEST_TIMEOUT

    return getattr(getattr(_leaf(e), "error", None), "code", None) == REQUEST_TIMEOUT


def _call_failed(link: _Link, tool: McpTool, e: BaseException) -> ToolResult:
    """The error result of a call that raised `e`; an answer too deep to read is also
    recorded on the server's report (``mcp.message.too_deep``)."""
    from satchel.mcp._transports import MAX_MESSAGE_DEPTH, TOO_DEEP

    if link.auth is not None and link.auth.scopes_needed is not None:
        return _more_scopes(link, tool, link.auth)
    if getattr(getattr(_leaf(e), "error", None), "data", None) != TOO_DEEP:
        return error_result(tool.name, f"the call to {tool.name} failed: {_words(e, link.server)}")
    what = (
        f"answered the call to {tool.name} with JSON nesting deeper than {MAX_MESSAGE_DEPTH} "
        "levels; the answer was not read"
    )
    found = diagnostic(TOO_DEEP, _said(link.server, what), link.server.path)
    link.report = replace(link.report, diagnostics=(*link.report.diagnostics, found))
    return error_result(tool.name, found.message)


def _more_scopes(link: _Link, tool: McpTool, auth: StoredAuth) -> ToolResult:
    """The error result of a call the server refused for want of scopes the kept
    authorization lacks (a step-up no ``authorize`` callback ran, or one that failed),
    also recorded on the server's report (``mcp.oauth.insufficient_scope``)."""
    scopes, auth.scopes_needed = auth.scopes_needed or "", None
    what = (
        f"refused the call to {tool.name}: it asks for the OAuth scopes {scopes!r}, more "
        "than the authorization satchel keeps for it"
    )
    if auth.failure is not None:
        what += f" (a new authorization failed: {auth.failure})"
    hint = f'run `satchel mcp login {server_id(link.server)} --scope "{scopes}"`'
    hint += ", or give the supervisor an authorize callback"
    found = diagnostic(SCOPE, _said(link.server, what), link.server.path, hint=hint)
    link.report = replace(link.report, diagnostics=(*link.report.diagnostics, found))
    return error_result(tool.name, f"{found.message}; {hint}")


def _dumped(models: Iterable[BaseModel]) -> list[dict[str, Any]]:
    """SDK models as MCP JSON: fields by their alias, those that are None left out."""
    return [m.model_dump(mode="json", by_alias=True, exclude_none=True) for m in models]


def _collision(kind: str, name: str, first: McpServer, later: McpServer) -> Diagnostic:
    message = (
        f"the MCP {kind} name {name!r} of server {later.name!r} is already taken by server "
        f"{first.name!r}; the later one is hidden"
    )
    return diagnostic("mcp.tool.collision", message, later.path)

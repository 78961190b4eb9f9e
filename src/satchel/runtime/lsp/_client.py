"""`LspClient`: one running language server, spoken to over stdio.

`start_lsp` starts a trusted plugin's server (`satchel.foundations.process._spawn.spawn_process`:
its own process group, a scrubbed environment, stderr kept up to a cap), then sends
``initialize`` (``rootUri``, ``workspaceFolders``, the entry's
``initializationOptions`` and satchel's client capabilities), waits at most the
entry's ``startupTimeout`` for the answer, and sends ``initialized`` and, when the
entry has ``settings``, ``workspace/didChangeConfiguration`` with them. `stop` sends
``shutdown`` and ``exit`` and waits at most ``shutdownTimeout`` for the server to
end; then, or on any failure, the whole process group is killed.

The server's own requests are answered: ``workspace/configuration`` with the parts of
``settings`` each item names (its ``section``, dotted), any other request with a null
result. Its notifications (log messages, diagnostics...) are read and dropped.

Failures are diagnostics, never tracebacks: ``plugin.lsp.start_failed`` (did not
start, exited, or did not answer ``initialize`` in time), ``plugin.lsp.protocol_error``
(answered with something that is not LSP), ``plugin.lsp.stop_timeout`` (killed at
stop).

``transport: "socket"``: Claude Code 2.1.332's schema takes ``stdio`` or ``socket``
(default ``stdio``), but its client never reads the field: it spawns ``command`` with
``args`` and speaks JSON-RPC over the process's stdin and stdout whatever the entry
says (its binary: the LSP client's ``start`` spawns with ``stdio: ["pipe", "pipe",
"pipe"]`` and throws "LSP server process stdio not available" otherwise; no field
names a port or a path to connect to). satchel starts such a server the same way and
says so (``plugin.lsp.transport_unsupported``, a warning; the server still starts): a
server that only listens on a socket then does not answer ``initialize`` and is
``plugin.lsp.start_failed`` at ``startupTimeout``, where Claude Code, which has no
default startup timeout, waits.

Timeouts: Claude Code bounds ``initialize`` by ``startupTimeout`` and ``shutdown`` by
``shutdownTimeout`` only when they are given (its binary: without them it waits); the
30 s and 5 s used without them (`DEFAULT_STARTUP_TIMEOUT`, `DEFAULT_SHUTDOWN_TIMEOUT`)
are satchel's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._version import __version__
from satchel.foundations.process._spawn import LongProcess, spawn_process
from satchel.plugins._lsp import LspServer
from satchel.plugins._model import Plugin
from satchel.plugins._options import OptionValues
from satchel.runtime.lsp._frames import FrameError, encode, read_frame
from satchel.runtime.lsp._launch import FAILED, launch_lsp, who
from satchel.runtime.mcp._launch import LaunchRefused

__all__ = [
    "CLIENT_CAPABILITIES",
    "DEFAULT_SHUTDOWN_TIMEOUT",
    "DEFAULT_STARTUP_TIMEOUT",
    "LspClient",
    "LspFailure",
    "LspReport",
    "check_lsp",
    "start_lsp",
]

DEFAULT_STARTUP_TIMEOUT = 30.0  # seconds, when the entry gives no startupTimeout
DEFAULT_SHUTDOWN_TIMEOUT = 5.0  # seconds, when the entry gives no shutdownTimeout
PROTOCOL = "plugin.lsp.protocol_error"
STOP_TIMEOUT = "plugin.lsp.stop_timeout"
UNSUPPORTED = "plugin.lsp.transport_unsupported"
_GRACE = 0.2  # seconds between SIGTERM and SIGKILL once a server is being killed
_TAIL = 300  # characters of a server's stderr quoted in a failure message
_EMPTY: Mapping[str, Any] = MappingProxyType({})
CLIENT_CAPABILITIES: Mapping[str, Any] = MappingProxyType(
    {
        "general": {"positionEncodings": ["utf-16"]},
        "workspace": {
            "configuration": True,
            "workspaceFolders": True,
            "didChangeConfiguration": {"dynamicRegistration": False},
        },
        "textDocument": {
            "synchronization": {"didSave": True},
            "publishDiagnostics": {"relatedInformation": True},
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "definition": {},
            "references": {},
            "implementation": {},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
            "callHierarchy": {},
        },
    }
)
Status = Literal["ok", "failed"]


class LspFailure(Exception):
    """A request that did not get an answer; `diagnostic` says why (`code` and `why`
    are its parts, before the server's name and stderr are added)."""

    def __init__(self, found: Diagnostic, code: str, why: str) -> None:
        super().__init__(found.message)
        self.diagnostic, self.code, self.why = found, code, why


@model
class LspReport:
    """What starting one server showed: its ``serverInfo`` and capabilities (status
    ``ok``), or why it failed."""

    server: LspServer
    status: Status
    server_name: str | None = None
    server_version: str | None = None
    capabilities: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    diagnostics: tuple[Diagnostic, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.server.name,
            "plugin": self.server.plugin,
            "status": self.status,
            "server_name": self.server_name,
            "server_version": self.server_version,
            "capabilities": dict(self.capabilities),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


@dataclass(eq=False)
class LspClient:
    """A running language server: `request`, `notify`, then `stop`. `initialized` is
    the result of ``initialize`` (its ``capabilities`` and ``serverInfo``)."""

    server: LspServer
    process: LongProcess
    workspace: Path
    initialized: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    _pending: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _reader: asyncio.Task[None] | None = None
    _broken: str | None = None  # why the stream stopped carrying LSP frames

    def open(self) -> None:
        """Start reading the server's messages (`start_lsp` calls it)."""
        self._reader = asyncio.get_running_loop().create_task(self._read())

    def alive(self) -> bool:
        """Whether the server still runs and speaks LSP."""
        return self._broken is None and not self.process.exited() and not self._closed()

    async def request(self, method: str, params: Any, *, timeout: float) -> Any:
        """The result of `method`; `LspFailure` when the server answers with an error,
        badly, not within `timeout` seconds, or exits."""
        ident = next(self._ids)
        waiting = asyncio.get_running_loop().create_future()
        self._pending[ident] = waiting
        try:
            await self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
            reply = await asyncio.wait_for(waiting, timeout)
        except TimeoutError:
            raise self.failed(FAILED, f"did not answer {method} within {timeout:g} s") from None
        finally:
            self._pending.pop(ident, None)
        return self._result(method, reply)

    async def notify(self, method: str, params: Any) -> None:
        """Send a notification (nothing when the server is gone)."""
        await self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def stop(self, timeout: float | None = None) -> tuple[Diagnostic, ...]:
        """``shutdown`` and ``exit``, then the process group is ended: a server that did
        not answer or exit within `timeout` seconds (default: its ``shutdownTimeout``)
        is killed (``plugin.lsp.stop_timeout``). Idempotent."""
        limit = _seconds(self.server.shutdown_timeout, DEFAULT_SHUTDOWN_TIMEOUT, timeout)
        found: tuple[Diagnostic, ...] = ()
        if self.alive():
            loop = asyncio.get_running_loop()
            deadline = loop.time() + limit
            try:
                await self.request("shutdown", None, timeout=limit)
                await self.notify("exit", None)
                ended = await self._exits(max(deadline - loop.time(), 0.0))
            except LspFailure:
                ended = False
            if not ended:
                message = f"{who(self.server)} did not shut down within {limit:g} s; it was killed"
                found = (diagnostic(STOP_TIMEOUT, message, self.server.path),)
        await self.process.stop(_GRACE)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        return found

    def failure(self, code: str, why: str) -> Diagnostic:
        """A diagnostic for this server: `why`, with the tail of its stderr."""
        tail = " ".join(self.process.stderr().split())[-_TAIL:]
        said = f"; its stderr ends: {tail}" if tail else ""
        return diagnostic(code, f"{who(self.server)} {why}{said}", self.server.path)

    def failed(self, code: str, why: str) -> LspFailure:
        """The failure `why` of this server."""
        return LspFailure(self.failure(code, why), code, why)

    def _closed(self) -> bool:
        return self._reader is not None and self._reader.done()

    async def _exits(self, seconds: float) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not self.process.exited():
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    async def _send(self, message: Mapping[str, Any]) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError, OSError):
            self.process.stdin.write(encode(message))
            await self.process.stdin.drain()

    def _result(self, method: str, reply: dict[str, Any]) -> Any:
        if "error" in reply:
            error = reply["error"] if isinstance(reply["error"], dict) else {}
            said = f"{error.get('code')}: {error.get('message')}"
            raise self.failed(PROTOCOL, f"answered {method} with an error ({said})")
        if "result" not in reply:
            raise self.failed(PROTOCOL, f"answered {method} without a result")
        return reply["result"]

    async def _read(self) -> None:
        try:
            while (message := await read_frame(self.process.stdout)) is not None:
                await self._dispatch(message)
        except FrameError as e:
            self._broken = str(e)
        finally:
            self._end_pending()

    def _end_pending(self) -> None:
        if self._broken is not None:
            why, code = f"answered with {self._broken}", PROTOCOL
        else:
            why, code = _EXITED, FAILED
        for waiting in self._pending.values():
            if not waiting.done():
                waiting.set_exception(self.failed(code, why))

    async def _dispatch(self, message: dict[str, Any]) -> None:
        ident, method = message.get("id"), message.get("method")
        if method is None:
            waiting = self._pending.get(ident) if isinstance(ident, int) else None
            if waiting is not None and not waiting.done():
                waiting.set_result(message)
            return
        if ident is None:
            return  # a notification: log messages, diagnostics, progress
        result = self._configuration(message.get("params")) if method == _CONFIG else None
        await self._send({"jsonrpc": "2.0", "id": ident, "result": result})

    def _configuration(self, params: Any) -> list[Any]:
        items = params.get("items") if isinstance(params, dict) else None
        return [_section(self.server.settings, item) for item in items or []]


_CONFIG = "workspace/configuration"
_EXITED = "closed its output (it exited)"


def _section(settings: Any, item: Any) -> Any:
    """The part of `settings` a ``workspace/configuration`` item names."""
    section = item.get("section") if isinstance(item, dict) else None
    value = settings
    for part in section.split(".") if isinstance(section, str) and section else ():
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _seconds(milliseconds: int | None, default: float, given: float | None) -> float:
    if given is not None:
        return given
    return default if milliseconds is None else milliseconds / 1000


async def start_lsp(
    server: LspServer,
    plugin: Plugin,
    *,
    project: Path,
    environ: Mapping[str, str] | None = None,
    timeout: float | None = None,
    options: OptionValues | None = None,
) -> tuple[LspClient | None, tuple[Diagnostic, ...]]:
    """Start `server` (of the trusted `plugin`, `options` its userConfig values) and
    initialise it; `timeout` seconds for that (default: its ``startupTimeout``, else
    30). None and why when it failed (the process is stopped then)."""
    noted = _transport_note(server)
    try:
        launch = launch_lsp(
            server, plugin, project=project, environ=environ or os.environ, options=options
        )
    except LaunchRefused as refused:
        return None, (*noted, refused.diagnostic)
    process, problems = await spawn_process(launch.argv, cwd=launch.cwd, env=launch.env)
    if process is None:
        why = "; ".join(d.message for d in problems)
        return None, (
            *noted,
            diagnostic(FAILED, f"{who(server)} did not start: {why}", server.path),
        )
    client = LspClient(server, process, launch.cwd)
    client.open()
    limit = _seconds(server.startup_timeout, DEFAULT_STARTUP_TIMEOUT, timeout)
    try:
        client.initialized = await _initialize(client, limit)
    except LspFailure as failed:
        await process.stop(_GRACE)  # its stderr is read to the end
        await client.stop()
        return None, (*noted, client.failure(failed.code, _status(failed.why, process)))
    return client, noted


def _transport_note(server: LspServer) -> tuple[Diagnostic, ...]:
    """The warning for a server whose entry asks for a transport other than stdio."""
    if server.transport == "stdio":
        return ()
    message = (
        f"{who(server)} declares transport {server.transport!r}; it is started over stdio, "
        "as Claude Code 2.1.332 starts every language server"
    )
    return (diagnostic(UNSUPPORTED, message, server.path),)


def _status(why: str, process: LongProcess) -> str:
    """`why`, with the exit status of a server that exited by itself."""
    code = process.returncode
    if why != _EXITED or code is None:
        return why
    status = f"exited with status {code}" if code >= 0 else f"was ended by signal {-code}"
    return f"{status} before it answered initialize"


async def _initialize(client: LspClient, limit: float) -> Mapping[str, Any]:
    server, uri = client.server, client.workspace.as_uri()
    params = {
        "processId": os.getpid(),
        "clientInfo": {"name": "satchel", "version": __version__},
        "rootUri": uri,
        "rootPath": str(client.workspace),
        "workspaceFolders": [{"uri": uri, "name": client.workspace.name or uri}],
        "initializationOptions": server.initialization_options,
        "capabilities": dict(CLIENT_CAPABILITIES),
    }
    result = await client.request("initialize", params, timeout=limit)
    if not isinstance(result, dict) or not isinstance(result.get("capabilities"), dict):
        why = "answered initialize with a result that has no capabilities object"
        raise client.failed(PROTOCOL, why)
    await client.notify("initialized", {})
    if server.settings is not None:
        await client.notify("workspace/didChangeConfiguration", {"settings": server.settings})
    return MappingProxyType(result)


async def check_lsp(
    server: LspServer,
    plugin: Plugin,
    *,
    project: Path,
    environ: Mapping[str, str] | None = None,
    timeout: float | None = None,
    options: OptionValues | None = None,
) -> LspReport:
    """Start `server`, initialise it, read what it says it is and can do, stop it."""
    client, problems = await start_lsp(
        server, plugin, project=project, environ=environ, timeout=timeout, options=options
    )
    if client is None:
        return LspReport(server, "failed", diagnostics=problems)
    info = client.initialized.get("serverInfo")
    info = info if isinstance(info, dict) else {}
    stopped = await client.stop()
    return LspReport(
        server,
        "ok",
        server_name=_text(info.get("name")),
        server_version=_text(info.get("version")),
        capabilities=MappingProxyType(dict(client.initialized["capabilities"])),
        diagnostics=(*problems, *stopped),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None

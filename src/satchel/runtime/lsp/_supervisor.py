"""`LspSupervisor`: the language servers of one `Environment`, started when a file needs one.

A server is picked by a file's extension (the first of `Environment.lsp_servers` whose
``extensionToLanguage`` names it: enabled plugins' that the environment's trust lets
run, `Trust.runs`) and started on first use; later files of its languages reuse it. A
server that has died is started again when its entry has ``restartOnCrash`` (at most
``maxRestarts`` times; 3 when not given), else it stays down and `client_for` says
why. `close` stops every server
(``shutdown``, ``exit``, then the process group is killed). The organisation's policy
(`Environment.policy`) is asked of every server `start` is handed: under
``disabled_components = ["lsp"]``, or a policy that fails closed, none starts and the
refusal (``policy.denied``) joins `diagnostics`::

    async with LspSupervisor(env) as lsp:
        client = await lsp.client_for("src/app.py")
        if client is not None:
            hover = await client.request("textDocument/hover", params, timeout=5)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path, PurePath
from types import TracebackType
from typing import TYPE_CHECKING

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.plugins._lsp import LspServer
from satchel.plugins._model import Plugin
from satchel.plugins._options import option_values
from satchel.runtime.lsp._client import LspClient, start_lsp
from satchel.runtime.lsp._launch import FAILED, who

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment

__all__ = ["DEFAULT_MAX_RESTARTS", "LspSupervisor", "server_for"]

DEFAULT_MAX_RESTARTS = 3  # restarts of a restartOnCrash server without maxRestarts


def server_for(servers: tuple[LspServer, ...], file: str | PurePath) -> LspServer | None:
    """The first of `servers` that serves `file`'s extension, or None."""
    return next((s for s in servers if s.language_of(file) is not None), None)


def _down(server: LspServer) -> Diagnostic:
    limit = DEFAULT_MAX_RESTARTS if server.max_restarts is None else server.max_restarts
    why = (
        f"its {limit} restarts (maxRestarts) are used up"
        if server.restart_on_crash
        else "its entry has no restartOnCrash"
    )
    message = f"{who(server)} exited and is not started again: {why}"
    return diagnostic(FAILED, message, server.path)


class LspSupervisor:
    """Start, reuse and stop the language servers of `environment`. `environ`: what
    the scrubbed base environment is taken from (default ``os.environ``)."""

    def __init__(
        self, environment: Environment, *, environ: Mapping[str, str] | None = None
    ) -> None:
        self._servers = environment.lsp_servers  # only those trust lets run (`Trust.runs`)
        self._policy = environment.policy
        self._plugins: dict[str, Plugin] = {p.name: p for p in environment.plugins.enabled()}
        self._project = Path(environment.layout.project)
        self._layout = environment.layout
        self._environ = os.environ if environ is None else environ
        self._running: dict[tuple[str | None, str], LspClient] = {}
        self._starts: dict[tuple[str | None, str], int] = {}
        self.diagnostics: list[Diagnostic] = []

    @property
    def servers(self) -> tuple[LspServer, ...]:
        return self._servers

    async def client_for(self, file: str | PurePath) -> LspClient | None:
        """The running server for `file` (started now if needed), or None: no server
        serves its extension, or it failed (the reason joins `diagnostics`)."""
        server = server_for(self._servers, file)
        return None if server is None else await self.start(server)

    async def start(self, server: LspServer) -> LspClient | None:
        """`server` running and initialised, or None (why joins `diagnostics`). Only
        one of `servers` starts: a server the environment's trust holds back (a held
        or untrusted project plugin's, `PluginSet.held`) never does, whatever plugin of
        its name is enabled."""
        refused = self._policy.check_component("lsp", who(server))
        if refused is not None:  # the organisation's policy: it never starts
            if refused not in self.diagnostics:
                self.diagnostics.append(refused)
            return None
        if server not in self._servers:  # held back by the trust decision
            return None
        key = (server.plugin, server.name)
        client = self._running.get(key)
        if client is not None and client.alive():
            return client
        if client is not None:
            await client.stop()
            del self._running[key]
            if not self._may_start(server, key):
                self.diagnostics.append(_down(server))
        if not self._may_start(server, key):
            return None
        plugin = self._plugins.get(server.plugin or "")
        if plugin is None:
            return None
        self._starts[key] = self._starts.get(key, 0) + 1
        options = option_values(self._layout, plugin)
        client, problems = await start_lsp(
            server, plugin, project=self._project, environ=self._environ, options=options
        )
        problems = (*options.diagnostics, *problems)
        self.diagnostics.extend(problems)
        if client is not None:
            self._running[key] = client
        return client

    def _may_start(self, server: LspServer, key: tuple[str | None, str]) -> bool:
        started = self._starts.get(key, 0)
        if started == 0:
            return True
        if not server.restart_on_crash:
            return False
        limit = DEFAULT_MAX_RESTARTS if server.max_restarts is None else server.max_restarts
        return started <= limit

    async def close(self) -> None:
        """Stop every running server."""
        running, self._running = self._running, {}
        for client in running.values():
            self.diagnostics.extend(await client.stop())

    async def __aenter__(self) -> LspSupervisor:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

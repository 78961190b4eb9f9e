"""`satchel serve --http HOST:PORT --workers N`: one app in each of N uvicorn workers.

With one worker, `satchel serve --http` keeps an activation state per MCP session id
(`satchel.server._serve`). With several, the SDK's session store and that state would
live in one worker's memory while the next request of the session reaches another, so
the server is **stateless per request** (the SDK's ``stateless_http``: no session id
is given, as the 2026-07-28 protocol revision has it):

* each request gets a fresh `Session` over the one environment, so no answer depends
  on what another request (in this worker or another) did;
* the tools are ``load_skill`` only (the CLI refuses ``--tools skills`` and ``all``
  with ``--workers`` > 1): ``skills_read`` and ``skills_run_script`` need a skill
  activated by an earlier call, which is state a later request on another worker
  would not see; ``load_skill`` takes the skill and the resource in one call;
* every worker loads the same environment: the parent binds the socket, writes the
  `Spec` to the ``SATCHEL_GATEWAY`` variable (JSON) and starts uvicorn's supervisor
  (`uvicorn.supervisors.Multiprocess`, which spawns the workers and restarts one that
  dies); each worker imports `app`, the factory, which reads the variable, loads and
  filters (`satchel.server._gateway`) and builds the streamable HTTP app. The
  skills are read once per worker, at its start: a change on disk is served after a
  restart.

``SATCHEL_GATEWAY_DEBUG=1`` adds the answering worker's process id to every response
as the ``x-satchel-worker`` header (for tests and the load bench; off by default).

uvicorn is a dependency of the ``mcp`` SDK (its ``pyproject.toml`` requires
``uvicorn>=0.31.1``), so the ``mcp`` extra brings it.
"""

from __future__ import annotations

import json
import os
import socket
from typing import TYPE_CHECKING, Any

from satchel.server._gateway import Spec, gateway_environment
from satchel.server._serve import SkillServer, _Held
from satchel.session import Session

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from starlette.applications import Starlette

__all__ = ["DEBUG_VARIABLE", "SPEC_VARIABLE", "StatelessSkillServer", "app", "run_workers"]

SPEC_VARIABLE = "SATCHEL_GATEWAY"
DEBUG_VARIABLE = "SATCHEL_GATEWAY_DEBUG"
WORKER_HEADER = b"x-satchel-worker"


class StatelessSkillServer(SkillServer):
    """A `SkillServer` whose every request has an activation state of its own."""

    def _for(self, ctx: ServerRequestContext[Any, Any]) -> _Held:
        import anyio

        return _Held(Session(self.environment, **self.session_options), anyio.Lock())


def stateless_app(served: SkillServer, host: str, port: int) -> Starlette:
    """The streamable HTTP app of `served`, stateless, for a socket on (host, port)."""
    from satchel.server._events import RETRY_MS, PrimingEvents
    from satchel.server._http import MCP_PATH, security

    return served.server().streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        host=host,
        transport_security=security(host, port),
        event_store=PrimingEvents(),
        retry_interval=RETRY_MS,
    )


def app() -> Any:
    """The ASGI app of one worker, from the `Spec` in ``SATCHEL_GATEWAY`` (uvicorn's
    factory: ``satchel.server._workers:app``)."""
    data = json.loads(os.environ[SPEC_VARIABLE])
    spec = Spec.from_json(data["spec"])
    served = StatelessSkillServer(gateway_environment(spec).environment, **data["session"])
    built: Any = stateless_app(served, data["host"], data["port"])
    if os.environ.get(DEBUG_VARIABLE) == "1":
        built = _WorkerHeader(built)
    return built


class _WorkerHeader:
    """ASGI middleware: the worker's pid on every HTTP response (debug only)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.pid = str(os.getpid()).encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return

        async def tagged(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message["headers"], (WORKER_HEADER, self.pid)]}
            await send(message)

        await self.inner(scope, receive, tagged)


def run_workers(
    spec: Spec, session: dict[str, Any], sock: socket.socket, host: str, workers: int
) -> None:
    """Serve with `workers` uvicorn worker processes on the bound `sock` until the
    process is interrupted (SIGINT or SIGTERM stops the workers, then returns)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    port = sock.getsockname()[1]
    payload = {"spec": spec.to_json(), "session": session, "host": host, "port": port}
    os.environ[SPEC_VARIABLE] = json.dumps(payload)
    config = uvicorn.Config(
        "satchel.server._workers:app",
        factory=True,
        workers=workers,
        log_level="warning",
        access_log=False,
        lifespan="on",
    )
    Multiprocess(config, sockets=[sock]).run()

"""The client driver the MCP conformance suite runs for its client scenarios:
``conformance_client.py URL`` (the suite appends its mock server's URL, names the
scenario in ``MCP_CONFORMANCE_SCENARIO`` and, for some, hands what the client is to
do or hold in ``MCP_CONFORMANCE_CONTEXT``).

Every scenario goes through satchel's own client paths, never the SDK's client alone:

- the Skills extension's (``sep-2640-client-*``): the server is loaded as a host's
  skill server (`satchel.load(skill_servers=...)`) and, as a model would, each listed
  skill is loaded (``load_skill``) and then each other file of a skill that loaded is
  read (``skills_read``); in ``...-no-prefetch`` the model asks for no skill, so
  nothing past the listing may be read;
- every other one: the server is the host's MCP server ``suite`` (an entry with its
  URL) and `McpSupervisor` connects to it, with an ``elicit`` callback that accepts a
  form with the defaults its schema gives (SEP-1034), and calls the scenario's tools
  (`CALLS`, or the context's ``toolCalls``);
- ``auth/*``: first ``satchel mcp login``'s library call (`login`) with a keyring of
  the driver's own (a file in its scratch directory), the authorization page fetched
  as a browser would, its redirect followed to satchel's listener; the client the
  context pre-registers is the entry's ``oauth.clientId``. Then the supervisor
  connects with the tokens kept, and with an ``authorize`` callback that fetches the
  page as the login did, when the login succeeded (one the suite made fail is not
  tried again).

The suite starts every scenario of a run at once; on a small machine that many Python
processes starting together starve one another, so a driver first takes one of the
slots ``SATCHEL_CONFORMANCE_SLOTS`` names (a directory, ``slots`` files in it, flock) and
only then loads anything. Where ``SATCHEL_CONFORMANCE_WARM`` names a socket, the driver
the suite starts imports nothing heavy: it hands its arguments, environment and standard
streams to the warm driver listening there (``conformance_client.py --serve SOCKET``,
which imported satchel's client and the SDK once), which forks a process of its own for
the scenario, on those streams and in that environment, and answers its exit status.
The authorization grants satchel does not have (`UNSUPPORTED`) are not run at all.

It prints what happened, one JSON line per step, and exits 0: the suite judges the
traffic, not the exit status.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import satchel
    from satchel.runtime.mcp import Authorization, ElicitAnswer, Elicitation

LABEL = "suite"
SLOTS = "SATCHEL_CONFORMANCE_SLOTS"
WARM = "SATCHEL_CONFORMANCE_WARM"
# Grants satchel's client has no way to run: client credentials, enterprise-managed
# authorization (token exchange and JWT bearer), DPoP-bound tokens, workload identity.
UNSUPPORTED = {
    "auth/client-credentials-jwt",
    "auth/client-credentials-basic",
    "auth/enterprise-managed-authorization",
    "auth/dpop",
    "auth/dpop-nonce",
    "auth/wif-jwt-bearer",
}
# The tools each scenario's server wants called, with their arguments (the scenario's
# own client in the suite's repository calls the same). None: the server's every tool.
CALLS: dict[str, list[tuple[str, dict[str, Any]]] | None] = {
    "initialize": [],
    "request-metadata": [],
    "tools_call": [("add_numbers", {"a": 5, "b": 3})],
    "sse-retry": [("test_reconnection", {})],
    "elicitation-sep1034-client-defaults": [("test_client_elicitation_defaults", {})],
    "json-schema-ref-no-deref": [("lookup_user", {"id": "user-1"})],
    "http-invalid-tool-headers": None,
    "http-standard-headers": None,
    "sep-2322-client-request-state": None,
}
EVERYTHING = {"http-standard-headers"}  # its every prompt is got and resource read too
ECHO = "json_schema_echo"  # json-schema-2020-12-preservation: echo another tool's schema
AUTH_TIMEOUT = 20.0  # seconds the login may take: within the suite's 30 s
# satchel's Client ID Metadata Document, as a host sets it (the URL the suite's
# auth/basic-cimd expects; it is never fetched here).
METADATA_URL = "MCP_OAUTH_CLIENT_METADATA_URL"
DOCUMENT = "https://conformance-test.local/client-metadata.json"


def main(url: str, scenario: str, context: Mapping[str, Any]) -> None:
    import asyncio
    import tempfile

    import satchel

    if scenario in UNSUPPORTED:
        _say("unsupported", scenario=scenario)
        return
    with _slot(), tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        (root / "project").mkdir()
        (root / "home").mkdir()
        layout = satchel.Layout.default(root / "project", home=root / "home", env={})
        if scenario.startswith("sep-2640-"):
            _skills(layout, url, scenario)
            return
        entry: dict[str, Any] = {"url": url}
        if scenario.startswith("auth/"):
            os.environ["PYTHON_KEYRING_BACKEND"] = "tests.support.keyring_file.FileKeyring"
            os.environ["SATCHEL_TEST_KEYRING"] = str(root / "keyring.json")
            os.environ[METADATA_URL] = DOCUMENT
            if "client_id" in context:
                entry["oauth"] = {"clientId": context["client_id"]}
        env = satchel.load(layout=layout, mcp_servers={LABEL: entry})
        asyncio.run(_connect(env, scenario, context))


async def _connect(env: satchel.Environment, scenario: str, context: Mapping[str, Any]) -> None:
    from satchel.runtime.mcp import McpSupervisor

    authorize = None
    if scenario.startswith("auth/") and await _login(env, context):
        authorize = _authorize  # a login the user finished: later ones go to the browser too
    environ = {"PATH": os.environ.get("PATH", ""), METADATA_URL: DOCUMENT}
    sup = McpSupervisor(env, elicit=_defaults, environ=environ, authorize=authorize)
    async with sup:
        (report,) = sup.servers
        codes = [d.code for d in sup.diagnostics]
        _say("connected", status=report.status, protocol=report.protocol, diagnostics=codes)
        tools = {t.tool: t for t in sup.tools}
        _say("listed", tools=sorted(tools))
        for tool, arguments in _calls(scenario, context, tools):
            if tool in tools:
                result = await sup.call_tool(tools[tool].name, arguments)
                _say("called", tool=tool, error=result.is_error, text=result.text[:200])
        if scenario in EVERYTHING:
            for prompt in sup.prompts:
                messages = await sup.get_prompt(prompt.name, {})
                _say("prompt", prompt=prompt.prompt, messages=len(messages))
            for resource in sup.resources:
                contents = await sup.read_resource(LABEL, resource.uri)
                _say("resource", uri=resource.uri, contents=len(contents))


def _calls(
    scenario: str, context: Mapping[str, Any], tools: Mapping[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    if "toolCalls" in context:
        return [(c["name"], dict(c.get("arguments") or {})) for c in context["toolCalls"]]
    if scenario == "json-schema-2020-12-preservation":
        return [(ECHO, {"schema": dict(t.input_schema)}) for n, t in tools.items() if n != ECHO]
    planned = CALLS.get(scenario)
    if planned is None:  # every tool (an auth scenario's server has one)
        return [(name, {}) for name in tools]
    return planned


def _defaults(question: Elicitation) -> ElicitAnswer:
    """Accept a form with the defaults its schema gives (SEP-1034); a page is declined."""
    from satchel.runtime.mcp import ElicitAnswer

    if question.mode != "form":
        return ElicitAnswer("decline")
    fields = question.schema.get("properties") or {}
    return ElicitAnswer("accept", {k: v["default"] for k, v in fields.items() if "default" in v})


async def _browse(url: str) -> None:
    """The authorization page fetched as a browser would: the suite's server redirects
    at once, to satchel's listener on 127.0.0.1."""
    import httpx

    async with httpx.AsyncClient() as web:
        page = await web.get(url)
        location = page.headers.get("location")
        _say("authorize", status=page.status_code)
        if location:
            await web.get(location.replace("//localhost:", "//127.0.0.1:"))


async def _authorize(asked: Authorization) -> None:
    """The supervisor's authorize callback: a new authorization, as a browser would."""
    _say("reauthorize", why=asked.why, scopes=list(asked.scopes))
    await _browse(asked.url)


async def _login(env: satchel.Environment, context: Mapping[str, Any]) -> bool:
    """`satchel mcp login suite`, the authorization page fetched as a browser would;
    the client secret the context pre-registers is the login's (MCP_CLIENT_SECRET)."""
    from satchel.runtime.mcp._oauth import LoginFailed, login
    from satchel.runtime.mcp._oauth_target import remote_target

    remote = remote_target(env, LABEL, os.environ)
    try:
        done = await login(
            env.layout,
            remote.server,
            remote.url,
            on_url=_browse,
            timeout=AUTH_TIMEOUT,
            client_secret=context.get("client_secret"),
            environ=os.environ,
        )
    except LoginFailed as e:
        _say("login", error=str(e))
        return False
    _say("login", authorized=done.authorized, registered=done.registered)
    return True


@contextmanager
def _slot() -> Iterator[None]:
    """Hold one of the slots `SLOTS` names (none named: go at once)."""
    import fcntl
    import time

    folder = os.environ.get(SLOTS)
    if not folder:
        yield
        return
    paths = sorted(Path(folder).glob("slot-*"))
    while True:
        for path in paths:
            with path.open("a") as held:
                try:
                    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                yield
                return
        time.sleep(0.05)


def _skills(layout: satchel.Layout, url: str, scenario: str) -> None:
    import satchel

    env = satchel.load(layout=layout, skill_servers={LABEL: {"url": url}})
    served = [s for s in env.skills.values() if s.scope == "mcp"]
    _say("listed", names=[s.name for s in served], diagnostics=_codes(env.diagnostics))
    if scenario.endswith("-no-prefetch"):
        return
    session = satchel.Session(env)
    for skill in served:
        loaded = session.call("load_skill", {"name": skill.name})
        _say("load_skill", name=skill.name, error=loaded.is_error, text=loaded.text[:200])
        if loaded.is_error:
            continue
        for rel in _others(skill):
            read = session.call("skills_read", {"name": skill.name, "path": rel})
            _say("skills_read", name=skill.name, path=rel, error=read.is_error)


def _others(skill: satchel.Skill) -> list[str]:
    remote = getattr(skill, "remote", None)
    return [f.rel for f in remote.files if f.rel != "SKILL.md"] if remote is not None else []


def _codes(found: object) -> list[str]:
    return [d.code for d in found] if isinstance(found, (list, tuple)) else []


def _say(step: str, **fields: object) -> None:
    print(json.dumps({"step": step, **fields}), flush=True)


def _run() -> int:
    """This process's scenario, from its arguments and environment; its exit status."""
    main(
        sys.argv[-1],
        os.environ.get("MCP_CONFORMANCE_SCENARIO", ""),
        json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}"),
    )
    return 0


def _hand_over(path: str) -> int:
    """This run handed to the warm driver at `path`: its exit status."""
    asked = {"argv": sys.argv, "env": dict(os.environ), "cwd": os.getcwd()}
    with socket.socket(socket.AF_UNIX) as conn:
        conn.connect(path)
        socket.send_fds(conn, [json.dumps(asked).encode()], [0, 1, 2])
        conn.shutdown(socket.SHUT_WR)
        status = conn.makefile("rb").read()
    return int(status or b"1")


def _serve(path: str) -> None:
    """The warm driver: satchel's client and the SDK imported once, then one forked
    process per run handed over, until it is stopped."""
    import signal
    import traceback

    import httpx  # noqa: F401  (what every scenario loads, loaded once here)

    import satchel.assembly._environment
    import satchel.mcp._transports
    import satchel.runtime.mcp._oauth
    import satchel.runtime.mcp._oauth_target  # noqa: F401
    from satchel.runtime.mcp import McpSupervisor  # noqa: F401

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # forked runs are never waited for
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(path)
        listener.listen(64)
        print("ready", flush=True)
        while True:
            conn, _ = listener.accept()
            if os.fork() == 0:
                listener.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                status = 1
                try:
                    status = _forked(conn)
                except Exception:  # noqa: BLE001  (shown as the process's own would be)
                    traceback.print_exc()
                finally:
                    sys.stdout.flush()
                    sys.stderr.flush()
                    conn.sendall(str(status).encode())
                    os._exit(status)
            conn.close()


def _forked(conn: socket.socket) -> int:
    """A run handed over, in the process forked for it."""
    message, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
    while chunk := conn.recv(1 << 20):
        message += chunk
    asked = json.loads(message)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.environ.clear()
    os.environ.update(asked["env"])
    os.chdir(asked["cwd"])
    sys.argv = asked["argv"]
    return _run()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        _serve(sys.argv[2])
    elif os.environ.get(WARM):
        sys.exit(_hand_over(os.environ[WARM]))
    else:
        sys.exit(_run())

"""OAuth for remote MCP servers: an SDK MCP server that requires OAuth, with the SDK's
authorization server beside it (servers/oauth_server.py, one process per module on
127.0.0.1), logged in to by ``satchel mcp login`` (its `main` on a thread of the test's
process; in a real process where a test is about the process: its terminal, its stdin,
its stderr) whose redirect the test follows with an HTTP GET (no browser), its tokens in
a file keyring outside HOME."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import anyio
import pytest

from satchel.cli import main
from satchel.mcp._oauth_store import canonical
from satchel.runtime.mcp import Authorization
from satchel.runtime.mcp._oauth_callback import callback_listener
from satchel.runtime.mcp._oauth_target import TargetRefused, remote_target
from satchel.runtime.mcp._supervisor import McpSupervisor
from tests.cli.support import check_golden
from tests.policy.support import system_policy
from tests.support.checkout import CHECKOUT
from tests.support.keyring_file import BACKEND, VARIABLE, use_file_keyring

from .supervisor_support import SERVERS, http_server, load, port_printed, supervisor

SERVICE = "satchel mcp oauth"
DEADLINE = 60  # seconds: only a "did not hang" bound


@pytest.fixture(scope="module")
def guarded() -> Iterator[int]:
    """The OAuth-protected server and its authorization server; yields the port."""
    with port_printed([sys.executable, str(SERVERS / "oauth_server.py")]) as port:
        yield port


@pytest.fixture
def world(tmp_path: Path, project: Path, home: Path, layout: Any, guarded: int) -> dict[str, Any]:
    """A trusted project whose .mcp.json names the guarded server, and the keyring file
    (outside HOME) every process of the test uses."""
    url = f"http://127.0.0.1:{guarded}/mcp"
    servers = {"guarded": {"type": "http", "url": url}, "local": {"command": "true"}}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    ring = tmp_path / "keyring.json"
    return {"url": url, "port": guarded, "ring": ring, "layout": layout}


def _process_env(world: dict[str, Any]) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(CHECKOUT),
        "PYTHON_KEYRING_BACKEND": BACKEND,
        VARIABLE: str(world["ring"]),
        "HOME": str(world["layout"].home),
        **world.get("env", {}),
    }


def _where(world: dict[str, Any]) -> list[str]:
    layout = world["layout"]
    return ["--project", str(layout.project), "--home", str(layout.home), "--trust"]


def _cli_login(
    world: dict[str, Any],
    *more: str,
    name: str = "guarded",
    first: Callable[[str], None] | None = None,
) -> tuple[int, str, str]:
    """``satchel mcp login NAME --json`` (`more` in place of ``--json``, when given),
    its `main` run on a thread of this process with the world's keyring and variables:
    the authorization URL it prints on stderr is followed with a GET (the authorization
    server approves at once and redirects to satchel's loopback listener), after `first`
    was handed it."""
    argv = ["mcp", "login", name, *_where(world), "--no-browser", *(more or ("--json",))]
    read, write = os.pipe()
    out, said = io.StringIO(), os.fdopen(write, "w", buffering=1)
    done: dict[str, Any] = {}

    logs = logging.StreamHandler(said)  # what a process's stderr shows of its log
    logs.setLevel(logging.WARNING)

    def run() -> None:
        logging.getLogger().addHandler(logs)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(said):
                done["code"] = main(argv)
        except BaseException as e:  # noqa: BLE001  (raised again on the test's thread)
            done["raised"] = e
        finally:
            logging.getLogger().removeHandler(logs)
            said.close()

    seen = []
    with _variables(world.get("env", {})), use_file_keyring(world["ring"]):
        login = threading.Thread(target=run)
        login.start()
        with os.fdopen(read) as lines:
            for line in lines:
                seen.append(line)
                if line.startswith(f"http://127.0.0.1:{world.get('at', world['port'])}/authorize?"):
                    if first is not None:
                        first(line.strip())
                    with urllib.request.urlopen(line.strip(), timeout=DEADLINE) as answer:
                        assert answer.status == 200
                        assert b"Authorization complete" in answer.read()
                    break
            seen.append(lines.read())
            login.join(timeout=DEADLINE)
    if "raised" in done:
        raise done["raised"]
    return done["code"], out.getvalue(), "".join(seen)


@contextlib.contextmanager
def _variables(values: dict[str, str]) -> Iterator[None]:
    """The environment variables `values` set while the block runs."""
    before = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _stats(world: dict[str, Any]) -> dict[str, int]:
    with urllib.request.urlopen(f"http://127.0.0.1:{world['port']}/test/stats") as answer:
        found: dict[str, int] = json.loads(answer.read())
        return found


def _expire_on_the_server(world: dict[str, Any], query: str = "") -> None:
    where = f"http://127.0.0.1:{world['port']}/test/expire{query}"
    request = urllib.request.Request(where, method="POST")
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 200


def _kept(world: dict[str, Any]) -> dict[str, Any]:
    """The one keyring entry of the guarded server, parsed."""
    entries = json.loads(world["ring"].read_text()) if world["ring"].exists() else {}
    mine = {k: v for k, v in entries.items() if k.startswith(f"{SERVICE}\tguarded ")}
    assert len(mine) <= 1, mine
    return {} if not mine else json.loads(next(iter(mine.values())))


def _echo(
    world: dict[str, Any], tool: str = "echo", **options: Any
) -> tuple[McpSupervisor, str | None]:
    """Start the guarded server's connection, call its `tool` (echo), stop."""
    sup = supervisor(load(world["layout"]), only=("guarded",), **options)

    async def run() -> str | None:
        async with sup:
            if sup.servers[0].status != "running":
                return None
            return (await sup.call_tool(f"mcp__guarded__{tool}", {"text": "authorized"})).text

    with use_file_keyring(world["ring"]):
        return sup, anyio.run(run)


def _following(asked: list[Authorization]) -> Callable[[Authorization], Any]:
    """An authorize callback that records what it was asked and follows the URL as a
    browser would (the authorization server approves at once and redirects to
    satchel's listener)."""

    async def authorize(request: Authorization) -> None:
        asked.append(request)

        def follow() -> None:
            with urllib.request.urlopen(request.url, timeout=DEADLINE) as answer:
                assert b"Authorization complete" in answer.read()

        await anyio.to_thread.run_sync(follow)

    return authorize


def _files_hold(root: Path, secret: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]


def test_before_login_the_connection_fails_and_names_the_login(world):
    sup, said = _echo(world)
    assert said is None
    [found] = sup.diagnostics
    assert (found.code, found.message) == (
        "mcp.server.authorization_required",
        "MCP server 'guarded' answered HTTP 401: it needs authorization, and satchel keeps "
        "none for it",
    )
    assert found.hint == (
        "run `satchel mcp login guarded`, or put the credentials in the headers of the "
        "server's entry (literal values)"
    )


def test_login_keeps_the_tokens_in_the_keyring_and_the_connection_then_works(world):
    before = _stats(world)
    code, out, err = _cli_login(world)
    assert code == 0, err
    doc = json.loads(out)
    assert doc == {
        "version": 1,
        "server": "guarded",
        "url": world["url"],
        "authorized": True,
        "registered": True,
        "configured_client": False,
        "protocol": "2026-07-28",  # spoken to as connections speak: 2026-07-28 first
        "diagnostics": [],
    }
    after = _stats(world)
    assert after["registrations"] == before["registrations"] + 1  # dynamic registration
    assert after["authorization_code"] == before["authorization_code"] + 1
    kept = _kept(world)
    token = kept["tokens"]["access_token"]
    assert kept["tokens"]["refresh_token"] and kept["client"]["client_id"]
    assert kept["metadata"]["token_endpoint"] == f"http://127.0.0.1:{world['port']}/token"
    sup, said = _echo(world)
    assert said == "authorized", sup.diagnostics
    layout = world["layout"]
    for secret in (token, kept["tokens"]["refresh_token"]):
        assert secret not in out + err
        assert _files_hold(layout.home, secret) == []
        assert _files_hold(layout.project, secret) == []


def _redirect(url: str, **params: str) -> int:
    """The HTTP status of a GET of `url` with `params` as its query."""
    try:
        with urllib.request.urlopen(f"{url}?{urlencode(params)}", timeout=DEADLINE) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as e:
        return e.code


def test_a_redirect_without_the_flows_state_is_ignored_and_the_login_waits(world):
    said: list[int] = []

    def forged(authorization: str) -> None:
        query = parse_qs(urlsplit(authorization).query)
        to = query["redirect_uri"][0]
        said.append(_redirect(to, code="forged", state="not-the-flows"))
        said.append(_redirect(to, error="access_denied", state="not-the-flows"))
        said.append(_redirect(to, code="forged"))

    code, out, err = _cli_login(world, first=forged)
    assert said == [404, 404, 404]
    assert code == 0, err
    assert json.loads(out)["authorized"] is True


def test_the_listener_takes_only_the_redirect_with_the_state_it_expects():
    async def run() -> tuple[list[int], str, str | None]:
        async with callback_listener() as callback:
            to = callback.redirect_uri()
            early = await anyio.to_thread.run_sync(lambda: _redirect(to, code="c", state="s1"))
            callback.expect("http://127.0.0.1/authorize?state=s1&client_id=x")
            wrong = await anyio.to_thread.run_sync(lambda: _redirect(to, code="c", state="s2"))
            right = await anyio.to_thread.run_sync(lambda: _redirect(to, code="c", state="s1"))
            result = await callback.result()
            return [early, wrong, right], result.code, result.state

    assert anyio.run(run) == ([404, 404, 200], "c", "s1")


def test_an_expired_access_token_is_refreshed_when_the_connection_starts(world):
    assert _cli_login(world)[0] == 0
    first = _kept(world)
    _expire_on_the_server(world)  # the old access token is refused from now on
    record = {**first, "expires_at": 1.0}  # and satchel knows it expired (an hour passed)
    with use_file_keyring(world["ring"]) as ring:
        users = [k.split("\t", 1)[1] for k in json.loads(world["ring"].read_text())]
        [name] = [u for u in users if u.startswith("guarded ")]
        ring.set_password(SERVICE, name, json.dumps(record))
    before = _stats(world)
    sup, said = _echo(world)
    assert said == "authorized", sup.diagnostics
    assert _stats(world)["refresh_token"] == before["refresh_token"] + 1
    now = _kept(world)
    assert now["tokens"]["access_token"] != first["tokens"]["access_token"]
    assert now["expires_at"] > 1.0


def test_a_token_refused_before_it_expired_is_refreshed_once(world):
    assert _cli_login(world)[0] == 0
    first = _kept(world)
    _expire_on_the_server(world)  # refused, though satchel holds it as still valid
    before = _stats(world)
    sup, said = _echo(world)
    assert said == "authorized", sup.diagnostics
    assert _stats(world)["refresh_token"] == before["refresh_token"] + 1
    assert _kept(world)["tokens"]["access_token"] != first["tokens"]["access_token"]


def test_a_refused_authorization_that_cannot_be_refreshed_asks_for_a_new_login(world):
    assert _cli_login(world)[0] == 0
    _expire_on_the_server(world, "?refresh=revoke")  # and its refresh token with it
    before = _stats(world)
    sup, said = _echo(world)
    assert said is None
    [found] = sup.diagnostics
    assert (found.code, found.message) == (
        "mcp.server.authorization_required",
        "MCP server 'guarded' answered HTTP 401: it refused the authorization satchel keeps "
        "for it (satchel mcp login), which could not be refreshed",
    )
    assert _stats(world) == before  # no registration, no grant: a connection never logs in
    argv = [sys.executable, "-m", "satchel", "mcp", "check", "--server", "guarded"]
    done = subprocess.run(
        [*argv, *_where(world), "--json"],
        capture_output=True, text=True, env=_process_env(world), timeout=DEADLINE,
    )  # fmt: skip
    assert done.returncode == 1
    assert [d["code"] for d in json.loads(done.stdout)["diagnostics"]] == [
        "mcp.server.authorization_required"
    ]
    assert done.stderr == ""  # the SDK's log of a failed flow never reaches the terminal


def test_logout_removes_the_tokens_and_the_connection_fails_again(world, capsys):
    assert _cli_login(world)[0] == 0
    assert _kept(world)
    with use_file_keyring(world["ring"]):
        assert main(["mcp", "logout", "guarded", *_where(world), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["server"], doc["removed"], doc["diagnostics"]) == ("guarded", True, [])
    assert _kept(world) == {}
    sup, said = _echo(world)
    assert said is None
    assert [d.code for d in sup.diagnostics] == ["mcp.server.authorization_required"]


def test_login_and_logout_refuse_an_unknown_name_and_a_stdio_server(world, capsys):
    with use_file_keyring(world["ring"]):
        for verb in ("login", "logout"):
            assert main(["mcp", verb, "nope", *_where(world), "--json"]) == 1
            [unknown] = json.loads(capsys.readouterr().out)["diagnostics"]
            assert (unknown["code"], unknown["message"]) == (
                "cli.mcp.unknown-server",
                "no MCP server is named 'nope' (configured: guarded, local)",
            )
            assert main(["mcp", verb, "local", *_where(world), "--json"]) == 1
            [local] = json.loads(capsys.readouterr().out)["diagnostics"]
            assert (local["code"], local["message"]) == (
                "mcp.oauth.not_remote",
                "MCP server 'local' is a stdio server: it is started, not logged in to",
            )
    assert not world["ring"].exists()


def test_login_refuses_a_server_the_policy_refuses_or_that_is_disabled(
    world, tmp_path, monkeypatch, capsys
):
    config = world["layout"].project / ".satchel" / "config.toml"
    config.parent.mkdir()
    config.write_text(f'[mcp_servers.off]\nurl = "{world["url"]}"\nenabled = false\n')
    policy = system_policy(tmp_path, monkeypatch, '[mcp]\ndeny = ["guarded"]\n')
    before = _stats(world)
    said = []
    with use_file_keyring(world["ring"]):
        for name in ("guarded", "off"):
            argv = ["mcp", "login", name, *_where(world), "--no-browser", "--timeout", "5"]
            assert main([*argv, "--json"]) == 1
            [found] = json.loads(capsys.readouterr().out)["diagnostics"]
            said.append((found["code"], found["message"]))
    assert said == [
        ("policy.denied", f"MCP server 'guarded' is refused by policy key `mcp.deny` in {policy}"),
        (
            "mcp.oauth.disabled",
            "MCP server 'off' is disabled: satchel does not connect to it, so it is not "
            "logged in to",
        ),
    ]
    assert _stats(world) == before
    assert not world["ring"].exists()
    with use_file_keyring(world["ring"]):  # a logout still removes what it kept
        assert main(["mcp", "logout", "off", *_where(world), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["diagnostics"] == []


def test_login_asks_the_policy_of_a_server_the_environment_lists(world, tmp_path, monkeypatch):
    listed = load(world["layout"])
    policy = system_policy(tmp_path, monkeypatch, '[mcp]\ndeny = ["guarded"]\n')
    env = dataclasses.replace(listed, policy=load(world["layout"]).policy)
    assert remote_target(listed, "guarded", {}).url == world["url"]
    with pytest.raises(TargetRefused) as refused:
        remote_target(env, "guarded", {})
    found = refused.value.diagnostic
    assert (found.code, found.message) == (
        "policy.denied",
        f"MCP server 'guarded' is refused by policy key `mcp.deny` in {policy}",
    )
    assert remote_target(env, "guarded", {}, login=False).url == world["url"]


def test_a_login_by_url_is_refused_for_a_url_the_policy_refuses(world, tmp_path, monkeypatch):
    url = world["url"]
    policy = system_policy(tmp_path, monkeypatch, f'[mcp]\ndeny = ["url:{url}"]\n')
    env = load(world["layout"])
    with pytest.raises(TargetRefused) as refused:
        remote_target(env, url, {})
    found = refused.value.diagnostic
    assert found.code == "policy.denied"
    assert (
        found.message
        == f"MCP server {canonical(url)!r} is refused by policy key `mcp.deny` in {policy}"
    )
    assert remote_target(env, url, {}, login=False).url == url  # a logout still may


def test_login_and_logout_say_what_they_did(world, capsys):
    code, out, _ = _cli_login(world, "--timeout", "60")
    assert code == 0
    check_golden("mcp-login.txt", out)
    for name in ("mcp-logout.txt", "mcp-logout-again.txt"):
        with use_file_keyring(world["ring"]):
            assert main(["mcp", "logout", "guarded", *_where(world)]) == 0
        done = capsys.readouterr()
        assert done.err == ""
        check_golden(name, done.out)


@pytest.fixture(scope="module")
def unregistering() -> Iterator[tuple[int, int]]:
    """A server whose authorization server registers no client dynamically: only
    ``fixed-client``, registered by hand for ``http://127.0.0.1:<callback>/callback``;
    yields its port and that callback port."""
    with socket.socket() as sock:  # a port that was free a moment ago
        sock.bind(("127.0.0.1", 0))
        callback = sock.getsockname()[1]
    argv = [sys.executable, str(SERVERS / "oauth_server.py"), "--no-registration"]
    with port_printed([*argv, "--client-port", str(callback)]) as port:
        yield port, callback


@pytest.fixture
def by_hand(world: dict[str, Any], unregistering: tuple[int, int]) -> dict[str, Any]:
    """The project's entry for that server names the client and its callback port
    (Claude Code's ``oauth`` object)."""
    port, callback = unregistering
    url = f"http://127.0.0.1:{port}/mcp"
    oauth = {"clientId": "fixed-client", "callbackPort": callback}
    servers = {"guarded": {"type": "http", "url": url, "oauth": oauth}}
    (world["layout"].project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    return {**world, "url": url, "at": port, "callback": callback}


def test_a_client_id_in_the_entry_is_used_where_there_is_no_registration(by_hand):
    opened: list[str] = []
    code, out, err = _cli_login(by_hand, first=opened.append)
    assert code == 0, err
    redirect = f"http://127.0.0.1:{by_hand['callback']}/callback"  # where the listener is
    assert parse_qs(urlsplit(opened[0]).query)["redirect_uri"] == [redirect]
    assert _kept(by_hand)["client"]["redirect_uris"] == [redirect]
    doc = json.loads(out)
    assert (doc["authorized"], doc["registered"], doc["configured_client"]) == (True, False, True)
    assert _kept(by_hand)["client"]["client_id"] == "fixed-client"
    sup, said = _echo(by_hand)
    assert said == "authorized", sup.diagnostics


def test_without_registration_or_a_client_id_the_login_fails_with_a_diagnostic(by_hand):
    project = by_hand["layout"].project
    servers = {"guarded": {"type": "http", "url": by_hand["url"]}}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    argv = [sys.executable, "-m", "satchel", "mcp", "login", "guarded", *_where(by_hand)]
    done = subprocess.run(
        [*argv, "--no-browser", "--json"],
        capture_output=True, text=True, env=_process_env(by_hand), timeout=DEADLINE,
    )  # fmt: skip
    assert done.returncode == 1
    [found] = json.loads(done.stdout)["diagnostics"]
    assert found["code"] == "mcp.oauth.failed"
    assert found["message"].startswith("MCP server 'guarded' could not be logged in to: ")
    assert "Traceback" not in done.stderr
    assert _kept(by_hand) == {}


def test_a_new_login_reuses_the_registration_and_a_failed_one_keeps_the_tokens(world, capsys):
    assert _cli_login(world)[0] == 0
    first = _kept(world)
    before = _stats(world)
    code, out, _ = _cli_login(world)
    assert code == 0
    assert json.loads(out)["registered"] is False  # the kept registration, its port again
    assert _stats(world)["registrations"] == before["registrations"]
    second = _kept(world)
    assert second["client"] == first["client"]
    assert second["tokens"]["access_token"] != first["tokens"]["access_token"]
    argv = ["mcp", "login", "guarded", *_where(world), "--no-browser", "--timeout", "1"]
    with use_file_keyring(world["ring"]):  # nobody follows the URL: the deadline ends it
        assert main([*argv, "--json"]) == 1
    [found] = json.loads(capsys.readouterr().out)["diagnostics"]
    assert (found["code"], found["message"]) == (
        "mcp.oauth.failed",
        "MCP server 'guarded' could not be logged in to: the authorization did not finish "
        "within 1 s",
    )
    assert _kept(world) == second


def test_a_server_that_does_not_ask_for_authorization_keeps_nothing(world, capsys):
    with http_server("--http") as port:
        url = f"http://127.0.0.1:{port}/mcp"
        servers = {"open": {"type": "http", "url": url}}
        (world["layout"].project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
        with use_file_keyring(world["ring"]):
            assert main(["mcp", "login", "open", *_where(world), "--no-browser", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["authorized"], doc["registered"]) == (False, False)
    assert [(d["code"], d["message"]) for d in doc["diagnostics"]] == [
        (
            "mcp.oauth.not_required",
            "MCP server 'open' did not ask for authorization; nothing was kept",
        )
    ]
    assert not world["ring"].exists()


def test_a_call_that_needs_more_scopes_fails_naming_the_login_with_the_scope(world):
    assert _cli_login(world)[0] == 0
    assert _kept(world)["tokens"].get("scope") is None  # the server asked for none
    before = _stats(world)
    sup, said = _echo(world, "publish")
    assert said is not None
    [found] = sup.diagnostics
    message = (
        "MCP server 'guarded' refused the call to mcp__guarded__publish: it asks for the "
        "OAuth scopes 'write', more than the authorization satchel keeps for it"
    )
    hint = (
        'run `satchel mcp login guarded --scope "write"`, or give the supervisor an '
        "authorize callback"
    )
    assert (found.code, found.message) == ("mcp.oauth.insufficient_scope", message)
    assert found.hint == hint
    assert said == f"{message}; {hint}"
    assert _stats(world) == before  # no refresh, no grant: only a login or a callback asks
    code, _, err = _cli_login(world, "--scope", "write", "--json")
    assert code == 0, err
    assert _kept(world)["tokens"]["scope"] == "write"
    sup, said = _echo(world, "publish")
    assert said == "published authorized", sup.diagnostics


def test_the_authorize_callback_steps_up_the_scopes_of_a_call(world):
    assert _cli_login(world)[0] == 0
    first = _kept(world)
    before = _stats(world)
    asked: list[Authorization] = []
    sup, said = _echo(world, "publish", authorize=_following(asked))
    assert said == "published authorized", sup.diagnostics
    assert sup.diagnostics == ()
    [request] = asked
    assert (request.server, request.scopes, request.why) == ("guarded", ("write",), "scope")
    query = parse_qs(urlsplit(request.url).query)
    assert query["client_id"] == [first["client"]["client_id"]]  # the kept registration
    after = _stats(world)
    assert after["authorization_code"] == before["authorization_code"] + 1
    assert after["registrations"] == before["registrations"]
    kept = _kept(world)
    assert kept["tokens"]["scope"] == "write"
    assert kept["tokens"]["access_token"] != first["tokens"]["access_token"]
    asked.clear()
    sup, said = _echo(world, "publish", authorize=_following(asked))  # the new token is kept
    assert (said, asked) == ("published authorized", [])


def test_the_authorize_callback_authorizes_a_server_with_nothing_kept(world):
    asked: list[Authorization] = []
    sup, said = _echo(world, authorize=_following(asked))
    assert said == "authorized", sup.diagnostics
    assert [(a.server, a.why) for a in asked] == [("guarded", "none")]
    assert _kept(world)["tokens"]["access_token"]


def test_an_authorization_the_callback_fails_fails_the_start_and_says_why(world):
    asked: list[Authorization] = []

    def closed(request: Authorization) -> None:
        asked.append(request)
        raise RuntimeError("the page was closed")

    sup, said = _echo(world, authorize=closed)
    assert said is None
    [found] = sup.diagnostics
    assert (found.code, found.message) == (
        "mcp.server.authorization_required",
        "MCP server 'guarded' answered HTTP 401: it needs authorization, and satchel keeps "
        "none for it; a new authorization failed: the page was closed",
    )
    assert [a.why for a in asked] == ["none"]
    assert _kept(world) == {}


SECRET = "s3cret-of-the-fixed-client"
DOCUMENT = "https://client.example/satchel/metadata.json"  # a metadata document set


@pytest.fixture(scope="module")
def confidential() -> Iterator[tuple[int, int]]:
    """As `unregistering`, but ``fixed-client`` is a confidential client: its token
    requests carry its secret as Basic credentials."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        callback = sock.getsockname()[1]
    argv = [sys.executable, str(SERVERS / "oauth_server.py"), "--no-registration"]
    argv += ["--client-port", str(callback), "--client-secret", SECRET]
    with port_printed(argv) as port:
        yield port, callback


def test_a_pre_registered_clients_secret_is_given_to_login_and_kept_in_the_keyring(
    world, confidential
):
    port, callback = confidential
    url = f"http://127.0.0.1:{port}/mcp"
    oauth = {"clientId": "fixed-client", "callbackPort": callback}
    servers = {"guarded": {"type": "http", "url": url, "oauth": oauth}}
    (world["layout"].project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    mine = {**world, "url": url, "at": port, "port": port}
    code, out, _ = _cli_login(mine)  # no secret: the token endpoint refuses the client
    [found] = json.loads(out)["diagnostics"]
    assert code == 1
    assert found["code"] == "mcp.oauth.failed"
    assert found["message"].startswith(
        "MCP server 'guarded' could not be logged in to: Token exchange failed (401)"
    )
    argv = [sys.executable, "-m", "satchel", "mcp", "login", "guarded", *_where(mine)]
    done = subprocess.run(  # asked for, with no variable and no terminal to ask on
        [*argv, "--no-browser", "--client-secret", "--json"], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, env=_process_env(mine), timeout=DEADLINE,
    )  # fmt: skip
    assert done.returncode == 1
    [found] = json.loads(done.stdout)["diagnostics"]
    assert (found["code"], found["message"]) == (
        "mcp.oauth.failed",
        "MCP server 'guarded' needs its client secret: set MCP_CLIENT_SECRET, or run on a "
        "terminal to be asked",
    )
    mine["env"] = {"MCP_CLIENT_SECRET": SECRET}
    code, out, err = _cli_login(mine, "--client-secret", "--json")
    assert code == 0, err
    assert json.loads(out)["configured_client"] is True
    kept = _kept(mine)
    assert (kept["client"]["client_id"], kept["client"]["client_secret"]) == (
        "fixed-client",
        SECRET,
    )
    assert SECRET not in out + err
    for root in (mine["layout"].home, mine["layout"].project):
        assert _files_hold(root, SECRET) == []
    _expire_on_the_server(mine)  # the refresh authenticates with the kept secret too
    before = _stats(mine)
    sup, said = _echo(mine)
    assert said == "authorized", sup.diagnostics
    assert _stats(mine)["refresh_token"] == before["refresh_token"] + 1
    asked: list[Authorization] = []  # and so does a step-up's token request
    environ = {"PATH": os.environ["PATH"], "MCP_OAUTH_CLIENT_METADATA_URL": DOCUMENT}
    sup, said = _echo(mine, "publish", authorize=_following(asked), environ=environ)
    assert said == "published authorized", sup.diagnostics
    assert [a.why for a in asked] == ["scope"]
    assert _kept(mine)["client"]["client_secret"] == SECRET


def test_the_client_metadata_document_is_an_https_url_with_a_path():
    from satchel.runtime.mcp._oauth import metadata_url

    variable = "MCP_OAUTH_CLIENT_METADATA_URL"
    good = "https://client.example/satchel/metadata.json"
    assert metadata_url({variable: good}) == good
    for bad in ("http://client.example/metadata.json", "https://client.example/", ""):
        assert metadata_url({variable: bad}) is None
    assert metadata_url({}) is None


def test_mcp_list_says_which_remote_server_has_a_kept_login(world, capsys):
    def logins() -> dict[str, bool | None]:
        with use_file_keyring(world["ring"]):
            assert main(["mcp", "list", *_where(world), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        return {s["name"]: s["login"] for s in doc["servers"]}

    assert logins() == {"guarded": False, "local": None}
    assert _cli_login(world)[0] == 0
    assert logins() == {"guarded": True, "local": None}
    with use_file_keyring(world["ring"]):
        assert main(["mcp", "logout", "guarded", *_where(world)]) == 0
    capsys.readouterr()
    assert logins() == {"guarded": False, "local": None}


def _on_a_terminal(
    argv: list[str], env: dict[str, str], cwd: Path, *, follow: bool = False
) -> tuple[int, str]:
    """`argv` with stdin, stdout and stderr on a pseudo-terminal: its status, and what
    it wrote there. `follow`: the authorization URL it writes is followed with a GET."""
    import pty
    import select

    leader, follower = pty.openpty()
    proc = subprocess.Popen(argv, stdin=follower, stdout=follower, stderr=follower, env=env,
                            cwd=cwd, close_fds=True)  # fmt: skip
    os.close(follower)
    seen = b""
    try:
        while select.select([leader], [], [], DEADLINE)[0]:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal's other side closed: the process is done
                break
            if not chunk:
                break
            seen += chunk
            if follow and b"/authorize?" in seen and seen.endswith(b"\n"):
                url = next(w for w in seen.split() if b"/authorize?" in w).decode()
                with urllib.request.urlopen(url, timeout=DEADLINE) as answer:
                    assert b"Authorization complete" in answer.read()
                follow = False
    finally:
        os.close(leader)
    return proc.wait(timeout=DEADLINE), seen.decode("utf-8", "replace")


def test_mcp_check_on_a_terminal_authorizes_in_the_browser(world, tmp_path):
    browser = tmp_path / "browser"  # what BROWSER names: it follows the URL it is given
    browser.write_text(
        f"#!{sys.executable}\nimport sys, urllib.request\n"
        "urllib.request.urlopen(sys.argv[1], timeout=60).read()\n"
    )
    browser.chmod(0o755)
    env = {**_process_env(world), "BROWSER": str(browser), "NO_COLOR": "1", "COLUMNS": "400"}
    argv = [sys.executable, "-m", "satchel", "mcp", "check", "--server", "guarded"]
    code, said = _on_a_terminal([*argv, *_where(world)], env, world["layout"].home.parent)
    assert code == 0, said
    assert "Open this URL to authorize satchel for MCP server 'guarded':" in said
    assert "mcp__guarded__echo" in said
    assert _kept(world)["tokens"]["access_token"] not in said


def test_an_authorization_nobody_finishes_ends_at_its_deadline(world, monkeypatch):
    from satchel.runtime.mcp import _oauth

    monkeypatch.setattr(_oauth, "DEFAULT_LOGIN_TIMEOUT", 1.0)
    asked: list[Authorization] = []
    sup, said = _echo(world, authorize=asked.append)  # shown, never followed
    assert said is None
    [found] = sup.diagnostics
    assert (found.code, found.message) == (
        "mcp.server.authorization_required",
        "MCP server 'guarded' answered HTTP 401: it needs authorization, and satchel keeps "
        "none for it; a new authorization failed: the authorization did not finish within 1 s",
    )
    assert [a.why for a in asked] == ["none"]


def _logins(world: dict[str, Any], capsys: Any) -> dict[str, bool | None]:
    with use_file_keyring(world["ring"]):
        assert main(["mcp", "list", *_where(world), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return {s["name"]: s["login"] for s in doc["servers"]}


@pytest.mark.parametrize("by", ["url", "name"])
def test_logout_by_the_other_name_removes_the_login_connections_would_use(world, capsys, by):
    login, logout = (world["url"], "guarded") if by == "url" else ("guarded", world["url"])
    assert _cli_login(world, name=login)[0] == 0
    assert _logins(world, capsys)["guarded"] is True
    with use_file_keyring(world["ring"]):
        assert main(["mcp", "logout", logout, *_where(world), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["removed"], doc["diagnostics"]) == (True, [])
    assert json.loads(world["ring"].read_text()) == {}  # the entry and the index
    assert _logins(world, capsys)["guarded"] is False
    sup, said = _echo(world)
    assert said is None
    assert [d.code for d in sup.diagnostics] == ["mcp.server.authorization_required"]


def test_a_server_named_resource_keeps_its_login(world, capsys):
    servers = {"resource": {"type": "http", "url": world["url"]}}
    (world["layout"].project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    code, _, err = _cli_login(world, name="resource")
    assert code == 0, err
    assert _logins(world, capsys) == {"resource": True}
    ring = json.loads(world["ring"].read_text())
    [entry] = [k for k in ring if k.startswith(f"{SERVICE}\tresource ")]
    assert json.loads(ring[entry])["tokens"]["access_token"]


def test_a_login_indexed_under_the_former_index_key_is_still_read(world, capsys):
    import hashlib

    assert _cli_login(world, name=world["url"])[0] == 0
    ring = json.loads(world["ring"].read_text())
    digest = hashlib.sha256(canonical(world["url"]).encode()).hexdigest()[:16]
    ring[f"{SERVICE}\tresource {digest}"] = ring.pop(f"{SERVICE}\t{digest} index")
    world["ring"].write_text(json.dumps(ring))
    assert _logins(world, capsys)["guarded"] is True
    sup, said = _echo(world)
    assert said == "authorized", sup.diagnostics
    with use_file_keyring(world["ring"]):
        assert main(["mcp", "logout", "guarded", *_where(world), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] is True
    assert json.loads(world["ring"].read_text()) == {}


def test_a_secret_in_the_query_of_a_urls_login_is_never_shown_nor_a_keyring_name(world, capsys):
    url = world["url"] + "?key=QUERYSECRET"
    masked = world["url"] + "?***"
    code, out, err = _cli_login(world, name=url)
    assert code == 0, err
    assert (json.loads(out)["server"], json.loads(out)["url"]) == (masked, masked)
    code, out, err = _cli_login(world, "--timeout", "60", name=url)
    assert code == 0, err
    assert out.startswith(f"Logged in to MCP server {masked!r} (client: registered before)")
    assert "QUERYSECRET" not in "".join(json.loads(world["ring"].read_text()))
    for flag in ("--json", None):
        with use_file_keyring(world["ring"]):
            argv = ["mcp", "logout", url, *_where(world)]
            assert main(argv + ([flag] if flag else [])) == 0
        said = capsys.readouterr()
        assert "QUERYSECRET" not in said.out + said.err
        assert masked in said.out


def test_a_browser_that_blocks_neither_stops_the_listener_nor_the_login(world, tmp_path):
    closed = tmp_path / "closed"  # the browser stays open until the test closes it
    browser = tmp_path / "browser"
    browser.write_text(
        f"#!{sys.executable}\nimport os, time\nfor fd in (0, 1, 2):\n    os.close(fd)\n"
        f"end = time.monotonic() + {DEADLINE}\n"
        f"while not os.path.exists({str(closed)!r}) and time.monotonic() < end:\n"
        "    time.sleep(0.05)\n"
    )
    browser.chmod(0o755)
    env = {**_process_env(world), "BROWSER": str(browser), "NO_COLOR": "1", "COLUMNS": "400"}
    argv = [sys.executable, "-m", "satchel", "mcp", "login", "guarded", *_where(world)]
    try:
        code, said = _on_a_terminal(argv, env, world["layout"].home.parent, follow=True)
    finally:
        closed.touch()
    assert code == 0, said
    assert "Logged in to MCP server 'guarded'" in said


@pytest.fixture
def endless_refusal() -> Iterator[tuple[str, list[int]]]:
    """A server that answers every request 401 with a chunked event stream that never
    ends; yields its URL and how many bytes it sent so far."""
    import threading

    sent = [0]

    def answer(conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            conn.sendall(
                b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\n"
                b"Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            chunk = b"data: x\n\n" * 4096
            try:
                while sent[0] < 1 << 30:  # a bound only so that the thread ends
                    conn.sendall(b"%x\r\n%b\r\n" % (len(chunk), chunk))
                    sent[0] += len(chunk)
            except OSError:
                return

    def accept(sock: socket.socket) -> None:
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        threading.Thread(target=accept, args=(sock,), daemon=True).start()
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", sent


def test_a_refusal_whose_body_never_ends_is_cut_and_fails_with_the_diagnostic(
    world, endless_refusal
):
    import time as clock

    from mcp.shared.auth import OAuthToken

    from satchel.mcp._oauth_store import url_store

    url, sent = endless_refusal
    servers = {"endless": {"type": "http", "url": url}}
    (world["layout"].project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    with use_file_keyring(world["ring"]):
        kept = url_store(SERVICE, url)  # a login kept for it
        kept.tokens = OAuthToken(access_token="kept", token_type="Bearer")
        kept.expires_at = clock.time() + 3600
        kept.write()
        sup = supervisor(load(world["layout"]), only=("endless",), timeout=DEADLINE)

        async def run() -> str:
            async with sup:
                return sup.servers[0].status

        assert anyio.run(run) == "failed"
    [found] = sup.diagnostics
    assert (found.code, found.message) == (
        "mcp.server.authorization_required",
        "MCP server 'endless' answered HTTP 401: it refused the authorization satchel "
        "keeps for it (satchel mcp login), which could not be refreshed",
    )
    assert sent[0] < 1 << 30  # the refusal was closed, never read to its end


def _token_answer(world: dict[str, Any], answer: dict[str, Any] | None) -> None:
    where = f"http://127.0.0.1:{world['port']}/test/token"
    body = json.dumps(answer).encode()
    request = urllib.request.Request(where, data=body, method="POST")
    with urllib.request.urlopen(request) as done:
        assert done.status == 200


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (
            200,
            '{"access_token": "LEAKED-ACCESS-TOKEN", "token_type": "Bearer"',  # cut short
            "Invalid token response (HTTP 200): not an OAuth token response",
        ),
        (
            400,
            json.dumps({"error": "invalid_grant", "error_description": "the code expired",
                        "access_token": "LEAKED-ACCESS-TOKEN"}),
            "Token exchange failed (400): invalid_grant: the code expired",
        ),
    ],
)  # fmt: skip
def test_what_the_token_endpoint_answered_is_never_in_the_login_failure(world, status, body, said):
    _token_answer(world, {"status": status, "body": body})
    try:
        code, out, err = _cli_login(world)
    finally:
        _token_answer(world, None)
    assert code == 1
    [found] = json.loads(out)["diagnostics"]
    assert (found["code"], found["message"]) == (
        "mcp.oauth.failed",
        f"MCP server 'guarded' could not be logged in to: {said}",
    )
    assert "LEAKED" not in out + err


def _move(port: int, to: str | None) -> None:
    where = f"http://127.0.0.1:{port}/test/move"
    request = urllib.request.Request(where, data=json.dumps({"to": to}).encode(), method="POST")
    with urllib.request.urlopen(request) as done:
        assert done.status == 200


def _presented(port: int) -> list[str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/test/presented") as answer:
        found: list[str] = json.loads(answer.read())
        return found


def test_a_configured_clients_secret_never_goes_to_the_authorization_server_it_moved_to(
    world, confidential
):
    port, callback = confidential
    url = f"http://127.0.0.1:{port}/mcp"
    oauth = {"clientId": "fixed-client", "callbackPort": callback}
    servers = {"guarded": {"type": "http", "url": url, "oauth": oauth}}
    (world["layout"].project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    mine = {**world, "url": url, "at": port, "port": port, "env": {"MCP_CLIENT_SECRET": SECRET}}
    code, _, err = _cli_login(mine, "--client-secret", "--json")
    assert code == 0, err
    assert _kept(mine)["client"]["issuer"].rstrip("/") == f"http://127.0.0.1:{port}"
    other = world["port"]  # the authorization server the resource now names
    before = (_presented(other), _stats(world)["registrations"])
    _move(port, f"http://127.0.0.1:{other}")
    try:
        code, out, err = _cli_login({**mine, "at": other}, "--timeout", "30", "--json")
    finally:
        _move(port, None)
    assert "fixed-client" not in _presented(other)[len(before[0]) :]  # nor its secret
    assert _stats(world)["registrations"] == before[1] + 1  # registered there anew
    assert SECRET not in out + err

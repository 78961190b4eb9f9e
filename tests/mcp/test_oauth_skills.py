"""Every path that connects to a skill server at a URL sends the OAuth login kept for it:
satchel's own skills server behind the SDK's authorization server
(servers/oauth_skills_server.py, one process per module on 127.0.0.1). After
``satchel mcp login`` (by URL, or by the name of an entry at that URL), a project's
served skills load and activate, ``satchel install mcp+http://...`` installs and the
gateway serves the server's skills; without one, each fails with
``mcp.skills.authorization_required`` naming the login, and nothing logs in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

import satchel
from satchel.cli import main
from satchel.runtime.mcp._oauth import login
from satchel.runtime.mcp._oauth_target import remote_target
from satchel.server._gateway import Spec, gateway_environment
from tests.support import put, skill_md, write_skill
from tests.support.checkout import CHECKOUT
from tests.support.keyring_file import VARIABLE
from tests.support.session import session

from .supervisor_support import SERVERS, port_printed

SERVICE = "satchel mcp oauth"
DEADLINE = 60  # seconds: only a "did not hang" bound
CODE = "mcp.skills.authorization_required"


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """satchel's skills server over a project holding the skill ``pdf``, behind OAuth;
    yields its /mcp URL."""
    root = tmp_path_factory.mktemp("served")
    (root / ".git").mkdir()
    write_skill(root / ".satchel" / "skills", "pdf", skill_md("pdf", "Work with PDFs.", "# PDF\n"))
    with port_printed([sys.executable, str(SERVERS / "oauth_skills_server.py"), str(root)]) as port:
        yield f"http://127.0.0.1:{port}/mcp"


def _stats(url: str) -> dict[str, int]:
    with urllib.request.urlopen(url.replace("/mcp", "/test/stats")) as answer:
        found: dict[str, int] = json.loads(answer.read())
        return found


def _unauthorized(label: str, url: str) -> tuple[str, str, str]:
    message = (
        f"skill server {label!r} ({url}) answered HTTP 401: it needs authorization, and "
        "satchel keeps none for its URL"
    )
    return CODE, message, f"run `satchel mcp login {url}`"


def _follow(url: str) -> None:
    with urllib.request.urlopen(url, timeout=DEADLINE) as answer:
        assert b"Authorization complete" in answer.read()


def _logged_in(layout: satchel.Layout, name: str) -> None:
    """``satchel mcp login NAME`` as the verb runs it (NAME a URL, or an entry's name),
    the authorization URL followed as a browser would."""
    remote = remote_target(satchel.load(layout=layout), name, {})

    async def opened(url: str) -> None:
        await anyio.to_thread.run_sync(_follow, url)

    async def run() -> bool:
        done = await login(layout, remote.server, remote.url, on_url=opened)
        return done.authorized

    assert anyio.run(run)


def _ring() -> dict[str, str]:
    path = Path(os.environ[VARIABLE])
    found: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}
    return found


def _tokens() -> list[str]:
    """Every access and refresh token the test's keyring holds."""
    found = []
    for text in _ring().values():
        tokens = json.loads(text).get("tokens") or {}
        found += [tokens[k] for k in ("access_token", "refresh_token") if k in tokens]
    return found


def _served(env: satchel.Environment) -> list[str]:
    return sorted(n for n, s in env.skills.items() if s.scope == "mcp")


def test_without_a_login_a_projects_skill_server_fails_naming_the_login(layout, guarded):
    before = _stats(guarded)
    env = satchel.load(layout=layout, skill_servers={"docs": {"url": guarded}})
    found = [(d.code, d.message, d.hint) for d in env.diagnostics if d.code.startswith("mcp.")]
    assert found == [_unauthorized("docs", guarded)]
    assert _served(env) == []
    assert _stats(guarded) == before  # no registration, no grant: loading never logs in
    assert _ring() == {}


def test_after_login_by_url_the_served_skills_load_and_activate_until_logout(layout, guarded):
    argv = [sys.executable, "-m", "satchel", "mcp", "login", guarded, "--no-browser", "--json"]
    where = ["--project", str(layout.project), "--home", str(layout.home)]
    environ = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    proc = subprocess.Popen(
        [*argv, *where], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environ
    )
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if "/authorize?" in line:
            _follow(line.strip())
            break
    out, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 0, "".join(seen) + err
    doc = json.loads(out)
    assert (doc["server"], doc["url"], doc["authorized"]) == (guarded, guarded, True)
    config = put(
        layout.project / ".satchel" / "config.toml", f'[skill_servers.docs]\nurl = "{guarded}"\n'
    )
    env = satchel.load(layout=layout)
    assert [d.code for d in env.diagnostics if d.code.startswith("mcp.")] == []
    assert _served(env) == ["docs:pdf"]
    assert env.skills["docs:pdf"].description == "Work with PDFs."
    active = session(env).activate("docs:pdf")  # the body is fetched with the token too
    assert "# PDF" in active.content
    tokens = _tokens()
    assert tokens
    shown = out + err + "".join(seen) + "".join(d.message for d in env.diagnostics)
    for token in tokens:
        assert token not in shown
        for root in (layout.home, layout.project):
            assert not [p for p in root.rglob("*") if p.is_file() and token in p.read_text()]
    assert config.read_text() == f'[skill_servers.docs]\nurl = "{guarded}"\n'
    assert main(["mcp", "logout", guarded, *where, "--json"]) == 0
    assert _ring() == {}  # the entry and the index
    again = satchel.load(layout=layout)
    found = [(d.code, d.message, d.hint) for d in again.diagnostics if d.code.startswith("mcp.")]
    assert found == [_unauthorized("docs", guarded)]


def test_a_login_by_an_entrys_name_is_found_by_the_servers_url(layout, guarded):
    servers = {"guarded": {"type": "http", "url": guarded}}
    (layout.project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    _logged_in(layout, "guarded")
    # the same server named with a trailing slash: one canonical resource URL
    env = satchel.load(layout=layout, skill_servers={"docs": {"url": guarded + "/"}})
    assert [d.code for d in env.diagnostics if d.code.startswith("mcp.")] == []
    assert _served(env) == ["docs:pdf"]
    # the login's entry, named by the server's name, and the index by its URL
    users = [k.removeprefix(f"{SERVICE}\t").split(" ") for k in _ring()]
    assert [u[0] for u in users[:1]] + [u[1] for u in users[1:]] == ["guarded", "index"]


def test_an_expired_token_is_refreshed_when_a_skill_server_is_listed(layout, guarded):
    _logged_in(layout, guarded)
    [(user, text)] = [(k, v) for k, v in _ring().items() if not k.endswith(" index")]
    first = json.loads(text)
    _expire(guarded)
    record = {**first, "expires_at": 1.0}  # satchel knows it expired (an hour passed)
    ring = Path(os.environ[VARIABLE])
    ring.write_text(json.dumps({**_ring(), user: json.dumps(record)}))
    before = _stats(guarded)
    env = satchel.load(layout=layout, skill_servers={"docs": {"url": guarded}})
    assert [d.code for d in env.diagnostics if d.code.startswith("mcp.")] == []
    assert _served(env) == ["docs:pdf"]
    assert _stats(guarded)["refresh_token"] == before["refresh_token"] + 1
    now = json.loads(_ring()[user])
    assert now["tokens"]["access_token"] != first["tokens"]["access_token"]


def _expire(url: str, query: str = "") -> None:
    """Every access token issued so far is refused from now on (`query`: and more)."""
    where = url.replace("/mcp", f"/test/expire{query}")
    urllib.request.urlopen(urllib.request.Request(where, method="POST")).close()


def test_a_kept_login_the_server_refuses_past_refreshing_names_the_login_again(layout, guarded):
    _logged_in(layout, guarded)
    _expire(guarded, "?refresh=revoke")  # and its refresh token with it
    before = _stats(guarded)
    env = satchel.load(layout=layout, skill_servers={"docs": {"url": guarded}})
    found = [(d.code, d.message, d.hint) for d in env.diagnostics if d.code.startswith("mcp.")]
    message = (
        f"skill server 'docs' ({guarded}) answered HTTP 401: it refused the authorization "
        "satchel keeps for its URL, which could not be refreshed"
    )
    assert found == [(CODE, message, f"run `satchel mcp login {guarded}`")]
    assert _served(env) == []
    assert _stats(guarded) == before  # the refresh was refused: no grant, no registration


def _install(
    layout: satchel.Layout, source: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    where = ["--project", str(layout.project), "--home", str(layout.home)]
    code = main(["install", source, *where])
    return code, capsys.readouterr().err


def test_install_from_a_guarded_server_needs_the_login_and_then_installs(layout, guarded, capsys):
    before = _stats(guarded)
    code, err = _install(layout, f"mcp+{guarded}", capsys)
    assert code != 0
    _, message, hint = _unauthorized(f"mcp+{guarded}", guarded)
    assert err.strip() == f"satchel: {CODE}: {message}\nhint: {hint}"
    assert _stats(guarded) == before
    assert not (layout.project / ".satchel" / "skills").exists()
    _logged_in(layout, guarded)
    code, err = _install(layout, f"mcp+{guarded}", capsys)
    assert code == 0, err
    installed = layout.project / ".satchel" / "skills" / "pdf" / "SKILL.md"
    assert installed.read_text() == skill_md("pdf", "Work with PDFs.", "# PDF\n")


def test_the_gateway_serves_a_guarded_servers_skills_only_after_the_login(
    layout, guarded, tmp_path
):
    source = f'[sources.docs]\nkind = "mcp"\nurl = "{guarded}"\n\n[filter]\nsources = ["docs"]\n'
    config = put(tmp_path / "gateway.toml", source)
    spec = Spec(directory=str(layout.project), home=str(layout.home), config=str(config))
    refused = gateway_environment(spec).environment
    assert dict(refused.skills) == {}
    found = [(d.code, d.message, d.hint) for d in refused.diagnostics if d.code.startswith("mcp.")]
    assert found == [_unauthorized("docs", guarded)]
    _logged_in(layout, guarded)
    env = gateway_environment(spec).environment
    assert sorted(env.skills) == ["pdf"]
    pdf = env.skills["pdf"]
    assert pdf.directory is not None
    assert (pdf.directory / "SKILL.md").read_text() == skill_md("pdf", "Work with PDFs.", "# PDF\n")

"""`satchel serve` driven by real clients: the MCP SDK's own, against a `satchel serve`
process over stdio and one over streamable HTTP on 127.0.0.1; and an independent one,
the MCP Inspector's CLI mode (TypeScript SDK), pinned and installed into .tools/ by
scripts/tools before the tests start, skipped with the reason when it is not there."""

from __future__ import annotations

import concurrent.futures
import contextlib
import http.client
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

import anyio
import pytest
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

import satchel
from mcp import Client
from satchel.cli import main
from satchel.server._serve import PAGE_SIZE, build_server

from ..support import put

# caveman's index, exactly
INDEX = (
    "Skills available to this agent. Load one only when its description matches the task.\n"
    'Call load_skill({"name":"<skill>"}) for instructions. Use its resource argument for '
    "referenced files.\n"
    "- refund-policy: The refund window, the exceptions, and who may approve one.\n"
)
BINARY = b"\x89PNG\r\n\x1a\n\x00\xff\xfe"
STARTUP = 60  # seconds a server may take to say where it listens: a "did not hang" bound


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, Path]:
    return _workspace(tmp_path)


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    """A project with one visible skill (files, a binary, a link out, a script), one
    hidden skill and two commands; and a stand-in home."""
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    skill = project / ".agents" / "skills" / "refund-policy"
    put(
        skill / "SKILL.md",
        "---\nname: refund-policy\n"
        "description: The refund window, the exceptions, and who may approve one.\n---\n\n"
        "# Refund policy\n\nRefunds inside 30 days are automatic.\n",
    )
    put(skill / "references" / "exceptions.md", "Past 30 days a supervisor approves.\n")
    put(skill / "assets" / "logo.png", BINARY)
    hello = '#!/bin/sh\necho "hello $1 ${SERVE_TOKEN:-unset} ${SERVE_OTHER:-unset}"\n'
    put(skill / "scripts" / "hello.sh", hello).chmod(0o755)
    secret = put(tmp_path / "secret.txt", "the secret\n")
    (skill / "references" / "leak.md").symlink_to(secret)
    put(
        project / ".agents" / "skills" / "hidden" / "SKILL.md",
        "---\nname: hidden\ndescription: Only the host may use it.\n"
        "disable-model-invocation: true\n---\n\nHidden.\n",
    )
    commands = project / ".claude" / "commands"
    put(
        commands / "deploy.md",
        '---\ndescription: Deploy the app\nargument-hint: "[env] [region]"\n---\n'
        "Deploy to $1 in $2.\n",
    )
    put(commands / "note.md", "Note this: $ARGUMENTS\n")
    return project, home


def _argv(project: Path, home: Path, *extra: str) -> list[str]:
    return ["-m", "satchel", "serve", str(project), "--home", str(home), "--trust", *extra]


def _stdio(project: Path, home: Path, *extra: str) -> StdioServerParameters:
    env = {"HOME": str(home), "SERVE_TOKEN": "t0k", "SERVE_OTHER": "no"}
    return StdioServerParameters(command=sys.executable, args=_argv(project, home, *extra), env=env)


async def _check_everything(client: Client) -> None:
    """What a host sees and gets from the served workspace, over any transport."""
    assert client.instructions == INDEX

    tools = (await client.list_tools()).tools
    assert [t.name for t in tools] == ["load_skill"]
    assert tools[0].input_schema["properties"]["name"]["enum"] == ["refund-policy"]

    loaded = await client.call_tool("load_skill", {"name": "refund-policy"})
    assert not loaded.is_error
    text = loaded.content[0].text  # type: ignore[union-attr]
    assert text.startswith('<skill_content name="refund-policy">\n# Refund policy\n')
    assert "  <file>references/exceptions.md</file>\n" in text

    escape = await client.call_tool(
        "load_skill", {"name": "refund-policy", "resource": "../../etc/passwd"}
    )
    assert escape.is_error
    assert escape.content[0].text == (  # type: ignore[union-attr]
        "Error (resource.path.traversal): the resource path has a .. segment: '../../etc/passwd'"
    )
    hidden = await client.call_tool("load_skill", {"name": "hidden"})
    assert hidden.is_error
    assert hidden.content[0].text.startswith("Error (session.skill.unknown)")  # type: ignore[union-attr]

    await _check_prompts(client)
    await _check_resources(client)


async def _check_prompts(client: Client) -> None:
    prompts = {p.name: p for p in (await client.list_prompts()).prompts}
    assert sorted(prompts) == ["deploy", "note"]
    assert prompts["deploy"].description == "Deploy the app"
    assert [(a.name, a.required) for a in prompts["deploy"].arguments or []] == [
        ("env", False),
        ("region", False),
    ]
    assert [a.name for a in prompts["note"].arguments or []] == ["arguments"]

    got = await client.get_prompt("deploy", {"env": "prod", "region": "eu west"})
    assert [m.role for m in got.messages] == ["user"]
    assert got.messages[0].content.text == "Deploy to prod in eu west."  # type: ignore[union-attr]
    note = await client.get_prompt("note", {"arguments": "call Bob"})
    assert note.messages[0].content.text == "Note this: call Bob"  # type: ignore[union-attr]

    with pytest.raises(MCPError) as caught:
        await client.get_prompt("nope")
    assert caught.value.data == {"code": "mcp.serve.prompt.unknown"}
    assert caught.value.message == "Error (mcp.serve.prompt.unknown): no prompt named 'nope'"


async def _check_resources(client: Client) -> None:
    listed = (await client.list_resources()).resources
    assert [r.uri for r in listed] == [
        "skill://refund-policy/SKILL.md",
        "skill://refund-policy/assets/logo.png",
        "skill://refund-policy/references/exceptions.md",
        "skill://refund-policy/scripts/hello.sh",
    ]  # the hidden skill is not listed, nor the link that leads out
    assert [r.mime_type for r in listed[:3]] == ["text/markdown", "image/png", "text/markdown"]
    # SKILL.md is named and described by its frontmatter (the Skills extension's SHOULD)
    assert [(r.name, r.description) for r in listed[:2]] == [
        ("refund-policy", "The refund window, the exceptions, and who may approve one."),
        ("refund-policy/assets/logo.png", None),
    ]

    read = await client.read_resource("skill://refund-policy/references/exceptions.md")
    assert read.contents[0].text == "Past 30 days a supervisor approves.\n"  # type: ignore[union-attr]
    blob = await client.read_resource("skill://refund-policy/assets/logo.png")
    assert blob.contents[0].blob == "iVBORw0KGgoA//4="  # type: ignore[union-attr]

    refused = {
        "skill://refund-policy/../../etc/passwd": "resource.path.traversal",
        "skill://refund-policy/%2e%2e/%2e%2e/etc/passwd": "resource.path.traversal",
        "skill://refund-policy//etc/passwd": "resource.path.absolute",
        "skill://refund-policy/references/leak.md": "resource.symlink.escape",
        "skill://hidden/SKILL.md": "session.skill.unknown",
        "file:///etc/passwd": "mcp.serve.uri.invalid",
    }
    for uri, code in refused.items():
        with pytest.raises(MCPError) as caught:
            await client.read_resource(uri)
        assert caught.value.data == {"code": code, "uri": uri}, uri  # data.uri: SHOULD
        assert caught.value.message.startswith(f"Error ({code}): "), uri
        assert "the secret" not in caught.value.message


def test_stdio_serves_tools_prompts_resources_and_the_index(workspace):
    project, home = workspace

    async def run() -> None:
        with anyio.fail_after(STARTUP * 2):
            async with Client(_stdio(project, home)) as client:
                await _check_everything(client)

    anyio.run(run)


def test_stdio_keeps_activation_state_for_zidanes_tools(workspace):
    project, home = workspace

    async def run() -> None:
        with anyio.fail_after(STARTUP * 2):
            async with Client(
                _stdio(project, home, "--tools", "skills", "--pass-env", "SERVE_TOKEN")
            ) as client:
                assert "<available_skills>" in (client.instructions or "")
                names = [t.name for t in (await client.list_tools()).tools]
                assert names == ["skills_use", "skills_read", "skills_run_script"]
                path = {"name": "refund-policy", "path": "references/exceptions.md"}
                before = await client.call_tool("skills_read", path)
                assert before.content[0].text == (  # type: ignore[union-attr]
                    "Error (session.skill.inactive): skill 'refund-policy' is not active; "
                    "call skills_use with its name first"
                )
                used = await client.call_tool("skills_use", {"name": "refund-policy"})
                assert not used.is_error
                after = await client.call_tool("skills_read", path)
                assert not after.is_error
                script = {"name": "refund-policy", "script": "scripts/hello.sh", "args": ["a b"]}
                ran = await client.call_tool("skills_run_script", script)
                assert not ran.is_error
                assert ran.structured_content["exitCode"] == 0
                # only the variable passed on reaches the script
                assert ran.structured_content["stdout"] == "hello a b t0k unset\n"

    anyio.run(run)


def test_resources_come_in_pages_in_process(workspace):
    """The SDK's in-process connection to `build_server`: paging, templates, a bad cursor."""
    project, home = workspace
    references = project / ".agents" / "skills" / "refund-policy" / "references"
    for i in range(PAGE_SIZE + 20):
        put(references / f"n{i:04}.md", f"{i}\n")
    layout = satchel.Layout.default(project, home=home, env={})
    server = build_server(satchel.load(layout=layout, trusted=True))

    async def run() -> None:
        with anyio.fail_after(STARTUP):
            async with Client(server) as client:
                first = await client.list_resources()
                assert len(first.resources) == PAGE_SIZE
                assert first.next_cursor == str(PAGE_SIZE)
                rest = await client.list_resources(cursor=first.next_cursor)
                assert rest.next_cursor is None
                uris = [r.uri for r in first.resources + rest.resources]
                assert (
                    len(uris) == len(set(uris)) == PAGE_SIZE + 20 + 4
                )  # and SKILL.md, logo, exceptions, hello.sh
                templates = (await client.list_resource_templates()).resource_templates
                assert [t.uri_template for t in templates] == ["skill://{skill}/{+path}"]
                with pytest.raises(MCPError) as caught:
                    await client.list_resources(cursor="nope")
                assert caught.value.data == {"code": "mcp.serve.cursor.invalid"}
                with pytest.raises(MCPError) as caught:
                    await client.get_prompt("deploy", {"zone": "a"})
                assert caught.value.message == (
                    "Error (mcp.serve.prompt.arguments): /deploy takes no argument 'zone' "
                    "(it takes: env, region)"
                )

    anyio.run(run)


def test_completions_come_from_argument_hints_and_the_skill_files(workspace):
    """``completion/complete``: a command's alternatives from its ``argument-hint``, the
    file template's skill names and the chosen skill's files; ``logging/setLevel`` is
    accepted at 2025-11-25."""
    project, home = workspace
    commands = project / ".claude" / "commands"
    put(commands / "bump.md", '---\nargument-hint: "[patch|minor|major] <dry|real>"\n---\nBump.\n')
    put(commands / "ship.md", '---\nargument-hint: "[staging|production] [now|later]"\n---\n$1\n')
    layout = satchel.Layout.default(project, home=home, env={})
    server = build_server(satchel.load(layout=layout, trusted=True))
    prompt = {"type": "ref/prompt", "name": "bump"}
    template = {"type": "ref/resource", "uri": "skill://{skill}/{+path}"}

    async def run() -> None:
        with anyio.fail_after(STARTUP):
            async with Client(server, mode="legacy") as client:

                async def values(ref: dict[str, str], name: str, value: str, **context: str):
                    done = await client.complete(
                        ref, {"name": name, "value": value}, context or None
                    )
                    return done.completion.values, done.completion.total, done.completion.has_more

                assert await values(prompt, "arguments", "") == (
                    ["patch", "minor", "major"],
                    3,
                    False,
                )
                assert await values(prompt, "arguments", "m") == (["minor", "major"], 2, False)
                assert await values(prompt, "arguments", "minor r") == (["minor real"], 1, False)
                ship = {"type": "ref/prompt", "name": "ship"}
                assert await values(ship, "arguments", "production n") == (
                    ["production now"],
                    1,
                    False,
                )
                assert await values(ship, "arguments", "a b c") == ([], 0, False)
                assert await values(prompt, "nope", "") == ([], 0, False)
                assert await values(template, "skill", "re") == (["refund-policy"], 1, False)
                assert await values(template, "path", "ref", skill="refund-policy") == (
                    ["references/exceptions.md"],
                    1,
                    False,
                )
                assert await values(template, "path", "", skill="hidden") == ([], 0, False)
                with pytest.raises(MCPError) as caught:
                    await values({"type": "ref/prompt", "name": "nope"}, "x", "")
                assert caught.value.data == {"code": "mcp.serve.prompt.unknown"}
                with pytest.warns(MCPDeprecationWarning):  # the client's: gone at 2026-07-28
                    assert await client.set_logging_level("warning") is not None

    anyio.run(run)


def test_before_tool_use_hooks_guard_served_calls(workspace):
    """A trusted project's hook denies scripts (exit 2) and rewrites a load_skill call;
    the served tools obey both, as any host's tools would."""
    project, home = workspace
    rewrite = {"name": "refund-policy", "resource": "references/exceptions.md"}
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": rewrite}}
    answer_file = put(project / "hooks" / "answer.json", json.dumps(answer))
    put(
        project / ".satchel" / "hooks.toml",
        '[[hooks.before_tool_use]]\nmatcher = "skills_run_script"\n'
        "[[hooks.before_tool_use.hooks]]\n"
        "command = \"echo 'no scripts here' >&2; exit 2\"\n"
        '[[hooks.before_tool_use]]\nmatcher = "load_skill"\n'
        "[[hooks.before_tool_use.hooks]]\n"
        f"command = \"cat '{answer_file}'\"\n",
    )
    layout = satchel.Layout.default(project, home=home, env={})
    server = build_server(satchel.load(layout=layout, trusted=True), tools="all")

    async def run() -> None:
        with anyio.fail_after(STARTUP):
            async with Client(server) as client:
                used = await client.call_tool("skills_use", {"name": "refund-policy"})
                assert not used.is_error
                script = {"name": "refund-policy", "script": "scripts/hello.sh"}
                denied = await client.call_tool("skills_run_script", script)
                assert denied.is_error
                assert denied.content[0].text == (  # type: ignore[union-attr]
                    "Error (mcp.serve.tool.denied): the call to skills_run_script was not run: "
                    "no scripts here"
                )
                rewritten = await client.call_tool("load_skill", {"name": "refund-policy"})
                assert rewritten.content[0].text == (  # type: ignore[union-attr]
                    "Past 30 days a supervisor approves.\n"
                )

    anyio.run(run)


@pytest.fixture
def start_http(workspace) -> Iterator[Callable[..., str]]:
    """start_http(*options) runs `satchel serve --http 127.0.0.1:0 --json` on the
    workspace and gives the URL it printed; every server is stopped (SIGTERM) after."""
    with _http_servers(*workspace) as start:
        yield start


@contextlib.contextmanager
def _http_servers(project: Path, home: Path) -> Iterator[Callable[..., str]]:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home)}
    with contextlib.ExitStack() as stack:

        def start(*extra: str) -> str:
            argv = [sys.executable, *_argv(project, home, "--http", "127.0.0.1:0", "--json")]
            proc = stack.enter_context(
                subprocess.Popen(
                    [*argv, *extra], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
                )
            )
            stack.callback(_stop, proc)
            lines: queue.Queue[bytes] = queue.Queue()
            err = proc.stderr
            assert err is not None
            threading.Thread(target=lambda: lines.put(err.readline()), daemon=True).start()
            summary = json.loads(lines.get(timeout=STARTUP))
            assert summary["transport"] == "http"
            assert summary["url"].startswith("http://127.0.0.1:")
            return str(summary["url"])

        yield start


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=STARTUP)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("satchel serve --http did not stop on SIGTERM")


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One `satchel serve --http` for the module's tests that neither change its options
    nor need a fresh process: each MCP session keeps a state of its own."""
    with _http_servers(*_workspace(tmp_path_factory.mktemp("served"))) as start:
        yield start()


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_streamable_http_on_loopback(http_server, mode):
    async def run() -> None:
        with anyio.fail_after(STARTUP * 2):
            async with Client(http_server, mode=mode) as client:
                await _check_everything(client)

    anyio.run(run)


def test_each_http_session_has_its_own_activation_state(start_http):
    url = start_http("--tools", "skills")
    read = {"name": "refund-policy", "path": "references/exceptions.md"}

    async def run() -> None:
        with anyio.fail_after(STARTUP * 2):
            async with Client(url, mode="legacy") as one, Client(url, mode="legacy") as two:
                assert not (await one.call_tool("skills_use", {"name": "refund-policy"})).is_error
                assert not (await one.call_tool("skills_read", read)).is_error
                other = await two.call_tool("skills_read", read)
                assert other.is_error  # the other MCP session activated nothing
                assert other.content[0].text.startswith("Error (session.skill.inactive)")  # type: ignore[union-attr]

    anyio.run(run)


def test_http_streams_open_with_a_priming_event_and_a_retry(http_server):
    """A POST's SSE stream starts with an event that has an id and empty data, and the
    ``retry:`` a client waits before it reconnects (2025-11-25, SEP-1699)."""
    where = urllib.parse.urlsplit(http_server)
    hello = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }  # fmt: skip
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=STARTUP)
    try:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        connection.request("POST", where.path, body=json.dumps(hello), headers=headers)
        response = connection.getresponse()
        assert response.status == 200
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
        first = []
        while (line := response.readline().decode().rstrip("\r\n")) != "":
            first.append(line)
    finally:
        connection.close()
    fields = dict(f.split(": ", 1) if ": " in f else (f.rstrip(":"), "") for f in first)
    assert fields.get("data") == ""
    assert fields["id"]
    assert fields["retry"] == "1000"


def test_http_refuses_a_host_header_that_is_not_loopback(http_server):
    """DNS rebinding: a page on attacker.example that resolves to 127.0.0.1 gets nothing."""
    where = urllib.parse.urlsplit(http_server)
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=STARTUP)
    try:
        headers = {"Host": "attacker.example", "Content-Type": "application/json"}
        connection.request("POST", where.path, body=b"{}", headers=headers)
        response = connection.getresponse()
        assert (response.status, response.read()) == (421, b"Invalid Host header")
    finally:
        connection.close()


def _answer(server_url: str, headers: dict[str, str]) -> tuple[int, bytes]:
    where = urllib.parse.urlsplit(server_url)
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=STARTUP)
    try:
        sent = {"Content-Type": "application/json", **headers}
        connection.request("POST", where.path, body=b"{}", headers=sent)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_http_reads_host_and_origin_exactly_never_as_a_prefix(http_server):
    """``Host: 127.0.0.1:PORT.evil.com`` and ``localhost:PORT@evil.com`` start like an
    allowed value but name another host: refused, as every other port or name is."""
    port = urllib.parse.urlsplit(http_server).port
    bad_hosts = [
        f"127.0.0.1:{port}.evil.com",
        f"localhost:{port}@evil.com",
        f"[::1]:{port}.evil.com",
        f"localhost:{port}:1",
        f"127.0.0.1:{port + 1 if port != 65535 else 1}",
        "127.0.0.1",
        "127.0.0.1:",
    ]
    assert {h: _answer(http_server, {"Host": h}) for h in bad_hosts} == {
        h: (421, b"Invalid Host header") for h in bad_hosts
    }
    bad_origins = [f"http://127.0.0.1:{port}.evil.com", f"http://localhost:{port}@evil.com"]
    found = {o: _answer(http_server, {"Origin": o}) for o in bad_origins}
    assert found == {o: (403, b"Invalid Origin header") for o in bad_origins}
    for good in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        status, _ = _answer(http_server, {"Host": good, "Origin": f"http://{good}"})
        assert status not in (403, 421), good


def test_refusals_come_before_anything_is_served(workspace, capsys):
    project, home = workspace
    code = main(["serve", str(project), "--home", str(home), "--http", "0.0.0.0:0"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert " ".join(captured.err.split()) == (
        "satchel: mcp.serve.address.refused: 0.0.0.0 is not a loopback address; pass "
        "--allow-remote to serve on it (anyone who can reach it can read skill files and "
        "run skill scripts)"
    )
    code = main(["serve", str(project), "--home", str(home), "--http", "[::1:0", "--json"])
    assert code == 2
    assert "'[::1:0' is not HOST:PORT" in capsys.readouterr().err
    code = main(["serve", str(project), "--home", str(home), "--pass-env", "LD_PRELOAD"])
    assert code == 2
    assert "LD_PRELOAD can make a script run code" in capsys.readouterr().err


def test_without_the_sdk_serve_says_how_to_install_it(workspace):
    project, home = workspace
    script = (
        "import sys; sys.modules['mcp'] = None\n"  # the extra is not installed
        "from satchel.cli import main\n"
        f"sys.exit(main(['serve', {str(project)!r}, '--home', {str(home)!r}, '--json']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=STARTUP
    )
    assert done.returncode == 1
    assert done.stdout == ""  # stdout is the MCP channel: nothing but MCP goes there
    assert json.loads(done.stderr) == {
        "version": 1,
        "error": {
            "code": "cli.mcp.sdk-missing",
            "message": "the MCP SDK is not installed; install it with: pip install 'satchel[mcp]'",
        },
        "diagnostics": [],
    }


def test_importing_satchel_does_not_import_the_sdk():
    script = (
        "import sys, satchel, satchel.session, satchel.cli.serve, satchel.server._serve, "
        "satchel.server._http\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'uvicorn'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=STARTUP
    )
    assert done.stdout == "[]\n", done.stderr


# -- an independent client: the MCP Inspector CLI (pinned) ------------------------------------

CALL = 120  # seconds one Inspector call may take: a "did not hang" bound


def _inspect(
    inspector: list[str], target: list[str], *method: str
) -> subprocess.CompletedProcess[str]:
    argv = [*inspector, *target, "--method", *method]
    return subprocess.run(argv, capture_output=True, text=True, timeout=CALL, env=dict(os.environ))


def _inspect_all(
    inspector: list[str], *calls: tuple[list[str], ...]
) -> list[subprocess.CompletedProcess[str]]:
    """The Inspector run once per call, all at once (each starts its own server), in
    the order given."""
    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(lambda call: _inspect(inspector, *call), calls))


def _served(workspace: tuple[Path, Path]) -> list[str]:
    project, home = workspace
    return [sys.executable, *_argv(project, home)]


def test_inspector_lists_and_calls_load_skill_over_stdio(inspector, workspace):
    listed, called = _inspect_all(
        inspector,
        (_served(workspace), "tools/list"),
        (
            _served(workspace),
            "tools/call",
            "--tool-name",
            "load_skill",
            "--tool-arg",
            "name=refund-policy",
            "resource=references/exceptions.md",
        ),
    )
    assert listed.returncode == 0, listed.stderr
    assert [t["name"] for t in json.loads(listed.stdout)["tools"]] == ["load_skill"]
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout) == {
        "content": [{"type": "text", "text": "Past 30 days a supervisor approves.\n"}],
        "isError": False,
    }


def test_inspector_gets_a_prompt_over_stdio(inspector, workspace):
    got = _inspect(
        inspector,
        _served(workspace),
        "prompts/get",
        "--prompt-name",
        "deploy",
        "--prompt-args",
        "env=prod",
        "region=eu",
    )
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "Deploy to prod in eu."}}
    ]


def test_inspector_is_refused_an_escape_over_stdio(inspector, workspace):
    read = _inspect(
        inspector,
        _served(workspace),
        "resources/read",
        "--uri",
        "skill://refund-policy/../../etc/passwd",
    )
    assert read.returncode == 1
    assert (
        "MCP error -32602: Error (resource.path.traversal): the resource path has a .. "
        "segment: '../../etc/passwd'"
    ) in read.stderr + read.stdout


def test_inspector_lists_resources_over_streamable_http(inspector, http_server):
    listed = _inspect(inspector, [http_server, "--transport", "http"], "resources/list")
    assert listed.returncode == 0, listed.stderr
    uris = [r["uri"] for r in json.loads(listed.stdout)["resources"]]
    assert uris[:1] == ["skill://refund-policy/SKILL.md"]
    assert "skill://refund-policy/references/exceptions.md" in uris

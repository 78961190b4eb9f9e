"""`satchel serve` and the MCP Skills extension (SEP-2640): a `satchel serve` process
driven by FastMCP 4.2.3's client (its skills mixin, an independent implementation of
the extension) over stdio and over streamable HTTP, the MCP Inspector CLI (which
cannot send a method it does not know, so it reads resources and calls an unknown
tool), and the entry rules on their own (the extension's limits, frontmatter JSON
cannot hold). Digests are checked against hashlib over the files on disk."""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote

import anyio
import mcp_types
import pytest
from fastmcp import Client
from fastmcp.client.transports import StdioTransport
from fastmcp.skills.client import SkillsClientExtension
from fastmcp.skills.models import ListSkillsParams, ListSkillsRequest
from mcp.shared.exceptions import MCPError
from pydantic import ConfigDict

import satchel
from satchel.server._serve import SkillServer
from satchel.server._skills_ext import (
    CACHE_SCOPE,
    MAX_SKILL_RESOURCES,
    SKILLS_PAGE,
    TTL_MS,
    entry,
    get_skill,
    list_page,
)

from ..support import check_golden, put
from ..support.checkout import examples_root
from .test_serve import CALL, STARTUP, _inspect_all, _stop

FILLERS = SKILLS_PAGE + 5  # more skills than one skills/list page holds
SKILL_MD = (
    "---\nname: refund-policy\ndescription: The refund window and its exceptions.\n"
    "created: 2024-05-01\nlicense: Apache-2.0\nmetadata:\n  owner: billing\n  version: '2'\n"
    "---\n\n# Refund policy\n\nSee references/ and assets/.\n"
)


class WireResult(mcp_types.Result):
    """A result as it came, every field kept."""

    model_config = ConfigDict(extra="allow")


class DirectoryParams(mcp_types.PaginatedRequestParams):
    uri: str


class DirectoryRequest(mcp_types.Request[DirectoryParams, Literal["resources/directory/read"]]):
    method: Literal["resources/directory/read"] = "resources/directory/read"
    params: DirectoryParams


class DirectoryResult(mcp_types.PaginatedResult):
    resources: list[mcp_types.Resource]


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, Path]:
    """A project: one skill with nested files, a binary, a file link and a directory
    link that lead out, and an empty directory; a hidden skill; `FILLERS` small ones."""
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    skills = project / ".agents" / "skills"
    skill = skills / "refund-policy"
    put(skill / "SKILL.md", SKILL_MD)
    put(skill / "references" / "exceptions.md", "Past 30 days a supervisor approves.\n")
    put(skill / "references" / "forms" / "late.md", "# Late refund form\n")
    put(skill / "assets" / "logo.png", b"\x89PNG\r\n\x1a\n\x00\xff")
    (skill / "empty").mkdir()
    put(tmp_path / "secret" / "key.txt", "the secret\n")
    (skill / "references" / "leak.md").symlink_to(tmp_path / "secret" / "key.txt")
    (skill / "outside").symlink_to(tmp_path / "secret", target_is_directory=True)
    put(
        skills / "hidden" / "SKILL.md",
        "---\nname: hidden\ndescription: Host only.\ndisable-model-invocation: true\n---\nx\n",
    )
    for i in range(FILLERS):
        put(
            skills / f"s-{i:02}" / "SKILL.md",
            f"---\nname: s-{i:02}\ndescription: Filler {i}.\n---\n{i}\n",
        )
    return project, home


def _argv(project: Path, home: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "satchel",
        "serve",
        str(project),
        "--home",
        str(home),
        "--trust",
        *extra,
    ]


def _env(home: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", ""), "HOME": str(home)}


@contextlib.contextmanager
def _http(project: Path, home: Path) -> Iterator[str]:
    """`satchel serve --http 127.0.0.1:0 --json` on the project: the URL it printed."""
    argv = _argv(project, home, "--http", "127.0.0.1:0", "--json")
    with subprocess.Popen(
        argv, env=_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    ) as proc:
        try:
            lines: queue.Queue[bytes] = queue.Queue()
            err = proc.stderr
            assert err is not None
            threading.Thread(target=lambda: lines.put(err.readline()), daemon=True).start()
            yield str(json.loads(lines.get(timeout=STARTUP))["url"])
        finally:
            _stop(proc)


def _client(target: Any) -> Client:
    return Client(target, extensions=[SkillsClientExtension()], timeout=STARTUP)


async def _refused(call: Any) -> MCPError:
    with pytest.raises(MCPError) as caught:
        await call
    assert caught.value.code == -32602
    return caught.value


async def _check_extension(client: Client, project: Path) -> None:
    """Every method of the extension, and its errors, as a FastMCP client sees them."""
    capabilities = client.server_capabilities
    assert capabilities.extensions == {"io.modelcontextprotocol/skills": {"directoryRead": True}}
    assert capabilities.resources is not None

    first = await client.list_skills_mcp()
    assert len(first.skills) == SKILLS_PAGE
    assert first.next_cursor == str(SKILLS_PAGE)
    assert (first.ttl_ms, first.cache_scope) == (TTL_MS, CACHE_SCOPE) == (0, "private")
    listed = await client.list_skills()
    names = [s.frontmatter.name for s in listed]
    assert names == ["refund-policy", *(f"s-{i:02}" for i in range(FILLERS))]  # not hidden

    policy = listed[0]
    assert policy.uri == "skill://refund-policy/SKILL.md"
    assert policy.frontmatter.root == {
        "name": "refund-policy",
        "description": "The refund window and its exceptions.",
        "created": "2024-05-01",  # the date as written: JSON has no date
        "license": "Apache-2.0",
        "metadata": {"owner": "billing", "version": "2"},
    }
    assert isinstance(policy.resources, list)
    assert [r.uri for r in policy.resources] == [
        "skill://refund-policy/SKILL.md",
        "skill://refund-policy/assets/logo.png",
        "skill://refund-policy/references/exceptions.md",
        "skill://refund-policy/references/forms/late.md",
    ]  # no link that leads out, as resources/list
    root = project / ".agents" / "skills" / "refund-policy"
    for record in policy.resources:
        data = (root / unquote(record.uri.removeprefix("skill://refund-policy/"))).read_bytes()
        assert record.digest == f"sha256:{hashlib.sha256(data).hexdigest()}"
        assert record.size == len(data)

    got = await client.get_skill_mcp("skill://refund-policy/SKILL.md")
    assert got.skill == policy
    assert (got.ttl_ms, got.cache_scope) == (0, "private")
    filler = await client.read_skill("skill://s-03/SKILL.md")  # FastMCP checks every digest
    assert (filler.name, filler.files["SKILL.md"]) == (
        "s-03",
        b"---\nname: s-03\ndescription: Filler 3.\n---\n3\n",
    )
    # FastMCP's own YAML reading makes a date of `created`, which it refuses to compare;
    # satchel serves the date as the string written (the extension's JSON has no date)
    with pytest.raises(ValueError, match="frontmatter must contain only finite JSON values"):
        await client.read_skill("skill://refund-policy/SKILL.md")

    unknown = await _refused(client.get_skill_mcp("skill://nope/SKILL.md"))
    assert unknown.data == {"code": "mcp.serve.skill.unknown", "uri": "skill://nope/SKILL.md"}
    assert unknown.message == (
        "Error (mcp.serve.skill.unknown): no skill is served at 'skill://nope/SKILL.md': "
        "no skill named 'nope'"
    )
    for uri in ("skill://hidden/SKILL.md", "skill://refund-policy/references/exceptions.md"):
        assert (await _refused(client.get_skill_mcp(uri))).data == {
            "code": "mcp.serve.skill.unknown",
            "uri": uri,
        }

    await _check_directories(client)
    await _check_tool_errors(client)


async def _read_directory(client: Client, uri: str) -> list[tuple[str, str | None]]:
    request = DirectoryRequest(params=DirectoryParams(uri=uri))
    result = await client.session.send_request(request, DirectoryResult)
    assert result.next_cursor is None
    return [(r.uri, r.mime_type) for r in result.resources]


async def _check_directories(client: Client) -> None:
    assert await _read_directory(client, "skill://refund-policy") == [
        ("skill://refund-policy/SKILL.md", "text/markdown"),
        ("skill://refund-policy/assets", "inode/directory"),
        ("skill://refund-policy/references", "inode/directory"),
    ]  # not `outside`, the link out, nor `empty`, which serves no file
    assert await _read_directory(client, "skill://refund-policy/references") == [
        ("skill://refund-policy/references/exceptions.md", "text/markdown"),
        ("skill://refund-policy/references/forms", "inode/directory"),
    ]
    assert await _read_directory(client, "skill://refund-policy/references/forms") == [
        ("skill://refund-policy/references/forms/late.md", "text/markdown"),
    ]
    refused = {
        "skill://refund-policy/references/../../secret": "resource.path.traversal",
        "skill://refund-policy/outside": "resource.symlink.escape",
        "skill://refund-policy/references/leak.md": "resource.symlink.escape",
        "skill://refund-policy/references/exceptions.md": "mcp.serve.directory.invalid",
        "skill://refund-policy/empty": "mcp.serve.directory.invalid",
        "skill://refund-policy/nowhere": "resource.missing",
        "skill://hidden": "session.skill.unknown",
    }
    for uri, code in refused.items():
        request = DirectoryRequest(params=DirectoryParams(uri=uri))
        error = await _refused(client.session.send_request(request, DirectoryResult))
        assert error.data == {"code": code, "uri": uri}, uri  # data.uri: SHOULD
        assert "the secret" not in error.message
    error = await _refused(
        client.session.send_request(
            DirectoryRequest(
                params=DirectoryParams(uri="skill://refund-policy/references/exceptions.md")
            ),
            DirectoryResult,
        )
    )
    assert error.message == (
        "Error (mcp.serve.directory.invalid): 'skill://refund-policy/references/exceptions.md' "
        "is not a directory resource: it is a file"
    )


async def _check_tool_errors(client: Client) -> None:
    """An unknown tool is JSON-RPC error -32602; a known tool's refusal stays a result."""
    unknown = await _refused(client.call_tool_mcp("no_such_tool", {}))
    assert unknown.data == {"code": "session.tool.unknown"}
    assert (
        unknown.message == "Error (session.tool.unknown): this session has no tool 'no_such_tool'"
    )
    refused = await client.call_tool_mcp("load_skill", {"name": "hidden"})
    assert refused.is_error
    assert refused.content[0].text.startswith("Error (session.skill.unknown)")  # type: ignore[union-attr]


def test_fastmcp_client_uses_the_extension_over_stdio(workspace):
    project, home = workspace

    async def run() -> None:
        with anyio.fail_after(STARTUP * 2):
            transport = StdioTransport(
                command=sys.executable, args=_argv(project, home)[1:], env=_env(home)
            )
            async with _client(transport) as client:
                await _check_extension(client, project)

    anyio.run(run)


def test_fastmcp_client_uses_the_extension_over_streamable_http(workspace):
    project, home = workspace

    async def run(url: str) -> None:
        with anyio.fail_after(STARTUP * 2):
            async with _client(url) as client:
                await _check_extension(client, project)

    with _http(project, home) as url:
        anyio.run(run, url)


def test_skills_list_of_the_example_workspace(tmp_path):
    """One skills/list page over stdio for examples/workspace, whole: the plugin skills
    (``lint-kit:lint-fix`` ...) are not in it, since their URI cannot end in their name."""
    home = tmp_path / "home"
    home.mkdir()
    examples = examples_root() / "examples"  # what git tracks, never the checkout's own
    argv = _argv(examples / "workspace", examples / "home")

    async def run() -> dict[str, Any]:
        with anyio.fail_after(STARTUP * 2):
            transport = StdioTransport(command=argv[0], args=argv[1:], env=_env(home))
            async with _client(transport) as client:
                request = ListSkillsRequest(params=ListSkillsParams())
                result = await client.session.send_request(request, WireResult)
                return result.model_dump(by_alias=True, mode="json", exclude={"meta"})

    text = json.dumps(anyio.run(run), indent=2, ensure_ascii=False) + "\n"
    check_golden("serve/skills-list.json", text)


# -- the MCP Inspector CLI ----------------------------------------------------------------


def test_inspector_has_no_skills_methods_so_it_reads_and_calls(inspector, workspace):
    """The Inspector CLI 0.15 sends only the methods it names (no skills/list); what it
    can call: the bytes it reads hash to the manifest's digest, and an unknown tool is
    the JSON-RPC error -32602."""
    project, home = workspace
    skill = project / ".agents" / "skills" / "refund-policy"
    session = satchel.Layout.default(project, home=home, env={})
    served = SkillServer(satchel.load(layout=session, trusted=True))
    found = get_skill(served.session, "skill://refund-policy/SKILL.md")
    assert isinstance(found, dict)
    digests = {r["uri"]: r["digest"] for r in found["skill"]["resources"]}

    uri = "skill://refund-policy/references/exceptions.md"
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        helped = pool.submit(
            subprocess.run, [*inspector, "--help"], capture_output=True, text=True, timeout=CALL
        )
        unsupported, read, called = _inspect_all(
            inspector,
            (_argv(project, home), "skills/list"),
            (_argv(project, home), "resources/read", "--uri", uri),
            (_argv(project, home), "tools/call", "--tool-name", "no_such_tool"),
        )
        help_text = helped.result()
    assert "--method <method>" in help_text.stdout + help_text.stderr
    assert unsupported.returncode == 1
    assert "Unsupported method: skills/list" in unsupported.stderr + unsupported.stdout

    assert read.returncode == 0, read.stderr
    text = json.loads(read.stdout)["contents"][0]["text"]
    assert text.encode() == (skill / "references" / "exceptions.md").read_bytes()
    assert digests[uri] == f"sha256:{hashlib.sha256(text.encode()).hexdigest()}"

    assert called.returncode == 1
    assert (
        "MCP error -32602: Error (session.tool.unknown): this session has no tool 'no_such_tool'"
        in called.stderr + called.stdout
    )


# -- the entry rules, in process -------------------------------------------------------------


def _session(project: Path, home: Path) -> satchel.Session:
    layout = satchel.Layout.default(project, home=home, env={})
    return SkillServer(satchel.load(layout=layout, trusted=True)).session


def test_a_skill_over_the_file_limit_is_not_served_as_a_skill(workspace):
    """512 files per skill is the extension's limit and an incomplete manifest is not
    allowed: such a skill is left out of skills/list and skills/get says why."""
    project, home = workspace
    crowded = project / ".agents" / "skills" / "crowded"
    put(crowded / "SKILL.md", "---\nname: crowded\ndescription: Many files.\n---\nx\n")
    for i in range(MAX_SKILL_RESOURCES - 1):
        put(crowded / "files" / f"f{i:03}.txt", "x")
    session = _session(project, home)
    skill = session.activation.find("crowded")
    made = entry(skill, session.activation.options.resource_cap)
    assert not isinstance(made, str)
    assert len(made.resources) == MAX_SKILL_RESOURCES  # SKILL.md and 511: at the limit

    put(crowded / "files" / "one-more.txt", "x")
    assert entry(skill, session.activation.options.resource_cap) == (
        f"it has more than {MAX_SKILL_RESOURCES} files, the extension's limit per skill"
    )
    got = get_skill(session, "skill://crowded/SKILL.md")
    assert isinstance(got, satchel.Diagnostic)
    assert (got.code, got.message) == (
        "mcp.serve.skill.unknown",
        "no skill is served at 'skill://crowded/SKILL.md': skill 'crowded' is not served as a "
        f"skill: it has more than {MAX_SKILL_RESOURCES} files, the extension's limit per skill",
    )


@pytest.mark.parametrize(
    ("yaml", "why"),
    [
        ("name: odd\nweight: .nan\n", "its frontmatter holds the number nan, which JSON cannot"),
        (
            "name: odd\nmetadata:\n  1: one\n",
            "its frontmatter holds a key that is not a string (1), which JSON cannot",
        ),
        ("name: other\n", "its frontmatter name is 'other', not 'odd'"),
    ],
)
def test_frontmatter_json_cannot_hold_keeps_a_skill_out(workspace, yaml, why):
    project, home = workspace
    odd = project / ".agents" / "skills" / "odd"
    put(odd / "SKILL.md", "---\nname: odd\ndescription: Odd.\n---\nx\n")
    session = _session(project, home)
    skill = session.activation.find("odd")
    put(odd / "SKILL.md", f"---\ndescription: Odd.\n{yaml}---\nx\n")
    assert entry(skill, session.activation.options.resource_cap) == why


def test_visibility_is_that_of_resources_read(workspace):
    """A listing override ``off`` and a conditional skill no touched file has matched
    are not listed (nor the hidden one); once a file matches, the conditional one is."""
    project, home = workspace
    skills = project / ".agents" / "skills"
    put(skills / "off-one" / "SKILL.md", "---\nname: off-one\ndescription: Off.\n---\nx\n")
    put(
        skills / "on-touch" / "SKILL.md",
        "---\nname: on-touch\ndescription: For SQL.\npaths: ['**/*.sql']\n---\nx\n",
    )
    put(project / "db" / "a.sql", "select 1;\n")
    layout = satchel.Layout.default(project, home=home, env={})
    env = satchel.load(layout=layout, trusted=True, skill_overrides={"off-one": "off"})
    session = SkillServer(env).session

    def names() -> list[str]:
        pages = [list_page(session, start) for start in range(0, 100, SKILLS_PAGE)]
        return [s["frontmatter"]["name"] for page in pages for s in page["skills"]]

    assert {"off-one", "on-touch", "hidden"}.isdisjoint(names())
    session.touch(project / "db" / "a.sql")
    assert "on-touch" in names()
    assert isinstance(get_skill(session, "skill://on-touch/SKILL.md"), dict)


def test_a_connection_before_2026_07_28_has_no_skills_methods(workspace):
    """The 2025-11-25 capabilities have no ``extensions``: the extension is not declared
    there, so its methods are unknown methods (-32601)."""
    from mcp import Client as SdkClient
    from satchel.server import build_server

    project, home = workspace
    layout = satchel.Layout.default(project, home=home, env={})
    server = build_server(satchel.load(layout=layout, trusted=True))

    async def run() -> None:
        with anyio.fail_after(STARTUP):
            async with SdkClient(server, mode="legacy") as client:
                request = ListSkillsRequest(params=ListSkillsParams())
                with pytest.raises(MCPError) as caught:
                    await client.session.send_request(request, WireResult)
                assert caught.value.code == -32601
                assert caught.value.message == (
                    "skills/list is served at protocol revision 2026-07-28 or later, where "
                    "the Skills extension is declared (this connection is at 2025-11-25)"
                )

    anyio.run(run)

"""A ported plugin's hooks fire in each target host as they do in the source's host:
the same decision and the same effect for the same tool calls.

One guard plugin is written in each of three hosts' own formats (a Claude Code plugin,
a Codex plugin, a Gemini CLI extension): a hook before a shell call that refuses
``rm -rf`` (exit 2, its reason on stderr) and a hook after a shell call that appends
the command to a log, both scripts found through the host's plugin-root variable
(``${CLAUDE_PLUGIN_ROOT}``, ``${PLUGIN_ROOT}``, ``${extensionPath}``) and both on the
shell tool in the host's name for it. Each is run in its own host, and ported with
`satchel port` to each of the other two and run there: nine runs, each installed the
way its host installs a plugin (``claude --plugin-dir``; ``codex plugin marketplace
add`` and ``codex plugin add``; ``gemini extensions link``) into a scratch HOME, and
one scripted turn in which the model runs ``echo allowed-1`` and then ``rm -rf
victim``, ``touch forbidden`` and ``mkdir blocked``. Every run must refuse the second
call (exit 2) and the fourth (``{"decision": "block"}``) with the guard's reason
reaching the model and nothing done, and log exactly the calls that ran. The third is
refused by Claude Code's JSON answer (``hookSpecificOutput.permissionDecision``) only
where the host reads it (`PortHooks.answers`): Gemini CLI 0.61.0 runs it. Codex's run also
shows that ``${CLAUDE_PLUGIN_ROOT}``, which port keeps in a Codex manifest, reaches
the plugin's folder there.

The guard also ships an MCP server (``desk``, standard library only, tools ``lookup``
and ``purge``) and a hook before a call of either tool, its matcher naming both in
the source's host's name for its plugin's own server's tools (Claude Code's
``mcp__plugin_guard_desk__lookup``, Codex's ``mcp__desk__lookup``, Gemini CLI's
``mcp_desk_lookup``): after the shell calls the model calls ``lookup``, then
``purge``. In every run the hook sees each call under the target's name, the server's
answer to ``lookup`` reaches the model, and ``purge`` is refused (exit 2) with its
reason reaching the model and never reaches the server. The runs start three at a
time, once per test run."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from satchel.port import TARGETS, port
from satchel.port._answers import PERMISSION_DECISION
from tests.hostloop.hosts import Turn, run_claude, run_codex, run_gemini
from tests.hostloop.model import Call, Reply, Text
from tests.hostloop.shared import once
from tests.hosts.test_codex_plugin_parts import install
from tests.support import put
from tests.tools import CALL, gemini_env

HOSTS = ("claude", "codex", "gemini")
TARGET = {"claude": "claude-code", "codex": "codex", "gemini": "gemini"}
PAIRS = tuple((s, t) for s in HOSTS for t in HOSTS)
REASON = "guard: rm -rf is not allowed"
ANSWERED = "guard: no touching"
BLOCKED = "guard: no mkdir"
ALLOWED, DENIED = "echo allowed-1", "rm -rf victim"
REFUSED, BLOCKING = "touch forbidden", "mkdir blocked"
# by call: exit 2 with the reason on stderr; Claude Code's JSON answer; the JSON
# decision every host reads
_ANSWER = {"permissionDecision": "deny", "permissionDecisionReason": ANSWERED}
_DENY = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", **_ANSWER}})
_BLOCK = json.dumps({"decision": "block", "reason": BLOCKED})
GUARD = (
    f'#!/bin/sh\ncase "$(cat)" in\n  *"rm -rf"*) echo "{REASON}" >&2; exit 2;;\n'
    f"  *touch*) echo '{_DENY}';;\n  *mkdir*) echo '{_BLOCK}';;\nesac\nexit 0\n"
)
# the plugin's MCP server: it answers a call with its tool's name and logs it
DESK = (
    "import json, sys\n"
    "tools = [{'name': n, 'description': n, 'inputSchema': {'type': 'object'}} "
    "for n in ('lookup', 'purge')]\n"
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    "    if 'id' not in m:\n"
    "        continue\n"
    "    method, params = m['method'], m.get('params') or {}\n"
    "    result = {'tools': tools} if method == 'tools/list' else {}\n"
    "    if method == 'initialize':\n"
    "        result = {'protocolVersion': params['protocolVersion'], 'capabilities': "
    "{'tools': {}}, 'serverInfo': {'name': 'desk', 'version': '1.0.0'}}\n"
    "    if method == 'tools/call':\n"
    "        open(sys.argv[1], 'a').write(params['name'] + '\\n')\n"
    "        text = 'desk answered ' + params['name']\n"
    "        result = {'content': [{'type': 'text', 'text': text}], 'isError': False}\n"
    "    print(json.dumps({'jsonrpc': '2.0', 'id': m['id'], 'result': result}), flush=True)\n"
)
PURGED = "guard: no purging"
# the hook on the MCP tools: logs the tool's name in the payload, refuses purge
MCP_GUARD = (
    "#!/bin/sh\nname=$(python3 -c 'import json, sys; print(json.load(sys.stdin)[\"tool_name\"])')\n"
    'echo "$name" >> "$1"\n'
    f'case "$name" in\n  *purge) echo "{PURGED}" >&2; exit 2;;\nesac\nexit 0\n'
)
LOG = (
    "#!/bin/sh\npython3 -c 'import json, sys; "
    'print(json.load(sys.stdin)["tool_input"]["command"])\' >> "$1"\n'
)
# each host's own name for the plugin's MCP server's tool (observed: Claude Code
# registers a plugin's server as plugin:<plugin>:<server>)
MCP_TOOL = {
    "claude": "mcp__plugin_guard_desk__{}",
    "codex": "mcp__desk__{}",
    "gemini": "mcp_desk_{}",
}
# each host's own spelling: the shell tool, its events, its plugin root, its units
SPELLING = {
    "claude": ("Bash", "PreToolUse", "PostToolUse", "${CLAUDE_PLUGIN_ROOT}", 1),
    "codex": ("Bash", "PreToolUse", "PostToolUse", "${PLUGIN_ROOT}", 1),
    "gemini": ("run_shell_command", "BeforeTool", "AfterTool", "${extensionPath}", 1000),
}


def _hooks(host: str, log: Path) -> dict[str, Any]:
    tool, before, after, root, unit = SPELLING[host]
    guard = {"type": "command", "command": f'sh "{root}/guard.sh"', "timeout": 10 * unit}
    logger = {"type": "command", "command": f'sh "{root}/log.sh" "{log}"', "timeout": 10 * unit}
    mcp = {"type": "command", "command": f'sh "{root}/mcp.sh" "{log.parent}/mcp"'}
    named = "|".join(MCP_TOOL[host].format(t) for t in ("lookup", "purge"))
    return {before: [{"matcher": tool, "hooks": [guard]}, {"matcher": named, "hooks": [mcp]}],
            after: [{"matcher": tool, "hooks": [logger]}]}  # fmt: skip


def _server(host: str, log: Path) -> dict[str, Any]:
    """The desk server as the host's own plugin declares it, the server script found
    through the host's plugin root (Codex: its own folder, ``cwd: "."``)."""
    if host == "codex":
        return {"command": "python3", "args": ["./desk.py", str(log)], "cwd": "."}
    return {"command": "python3", "args": [f"{SPELLING[host][3]}/desk.py", str(log)]}


def guard_plugin(root: Path, host: str, log: Path) -> Path:
    """The guard plugin in `host`'s own format."""
    put(root / "guard.sh", GUARD)
    put(root / "log.sh", LOG)
    put(root / "mcp.sh", MCP_GUARD)
    put(root / "desk.py", DESK)
    manifest: dict[str, Any] = {"name": "guard", "version": "1.0.0", "description": "Guard."}
    hooks = {"hooks": _hooks(host, log)}
    servers = {"desk": _server(host, log.parent / "desk")}
    if host == "codex":
        codex = {**manifest, "hooks": hooks, "mcpServers": servers}
        put(root / ".codex-plugin/plugin.json", json.dumps(codex))
    elif host == "claude":
        put(root / ".claude-plugin/plugin.json", json.dumps(manifest))
        put(root / ".mcp.json", json.dumps({"mcpServers": servers}))
        put(root / "hooks/hooks.json", json.dumps(hooks))
    else:
        put(root / "gemini-extension.json", json.dumps({**manifest, "mcpServers": servers}))
        put(root / "hooks/hooks.json", json.dumps(hooks))
    return root


def _script(host: str) -> tuple[Reply, ...]:
    def shell(command: str) -> Reply:
        if host == "codex":
            code = f'text(JSON.stringify(await tools.exec_command({{cmd: "{command}"}})));'
            return Call("exec", code)
        return Call(SPELLING[host][0], {"command": command})

    def mcp(tool: str) -> Reply:
        name = MCP_TOOL[host].format(tool)
        if host == "codex":
            return Call("exec", f"text(JSON.stringify(await tools.{name}({{}})));")
        return Call(name, {})

    shells = (shell(ALLOWED), shell(DENIED), shell(REFUSED), shell(BLOCKING))
    return (*shells, mcp("lookup"), mcp("purge"), Text("done"))


def _claude(binary: Path, case: Path, root: Path) -> Turn:
    args = [
        "--plugin-dir",
        str(root),
        "--allowedTools",
        "Bash(echo:*) Bash(rm:*) Bash(touch:*) Bash(mkdir:*) "
        + " ".join(MCP_TOOL["claude"].format(t) for t in ("lookup", "purge")),
    ]
    return run_claude(binary, case / "project", case / "home", "go", _script("claude"), args=args)


def _codex(binary: Path, case: Path, root: Path) -> Turn:
    market = {"name": "local", "plugins": [{
        "name": "guard", "category": "Productivity", "policy": {"installation": "AVAILABLE"},
        "source": {"source": "local", "path": "./plugins/guard"}}]}  # fmt: skip
    put(case / "market/.agents/plugins/marketplace.json", json.dumps(market))
    config = install(binary, case, case / "home", ("guard",))
    (case / "project/.git").mkdir(parents=True, exist_ok=True)
    args = ["--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox"]
    return run_codex(binary, case / "project", case / "home", "go", _script("codex"),
                     args=args, config=config)  # fmt: skip


def _gemini(script: Path, case: Path, root: Path) -> Turn:
    home = case / "home"
    put(home / ".gemini/settings.json", "{}")
    node = shutil.which("node") or "node"
    linked = subprocess.run(
        [node, str(script), "extensions", "link", str(root), "--consent"], cwd=home,
        env=gemini_env(home), capture_output=True, text=True, timeout=CALL, check=False,
    )  # fmt: skip
    assert linked.returncode == 0, linked.stderr
    return run_gemini(script, case / "project", home, "go", _script("gemini"), args=["--yolo"])


RUNS: dict[str, Callable[[Path, Path, Path], Turn]] = {
    "claude": _claude, "codex": _codex, "gemini": _gemini,
}  # fmt: skip


@pytest.fixture(scope="module")
def ran(
    claude_code: Path, codex: Path, gemini: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, Turn]]:
    binaries = {"claude": claude_code, "codex": codex, "gemini": gemini}

    def one(case: Path, source: str, target: str) -> Turn:
        root = guard_plugin(case / "market/plugins/guard", source, case / "marks/log")
        (case / "marks").mkdir(parents=True)
        (case / "project/victim").mkdir(parents=True)
        if source != target:
            (report,) = port(root, [TARGET[target]]).targets
            # port says which answer the target does not read (port.hook.answer, on
            # the guard: once before each tool call it is on), and nothing else
            unread = PERMISSION_DECISION not in (TARGETS[TARGET[target]].hooks.answers or ())
            said = [d.diagnostic.code for d in report.drops]
            assert said == (["port.hook.answer"] if unread else []), report.drops
        return RUNS[target](binaries[target], case, root)

    def make(base: Path) -> dict[str, Turn]:
        with ThreadPoolExecutor(max_workers=3) as pool:
            jobs = {f"{s}-{t}": pool.submit(one, base / f"{s}-{t}", s, t) for s, t in PAIRS}
            return {name: job.result() for name, job in jobs.items()}

    return once(tmp_path_factory, "port-hooks-in-hosts", make)


def _told(turn: Turn, n: int) -> str:
    """What the host sent its model after its `n`-th call (the next turn's request)."""
    return json.dumps(turn.turns[n].body)


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_the_guard_refuses_the_call_and_its_reason_reaches_the_model(ran, source, target):
    base, turns = ran
    turn = turns[f"{source}-{target}"]
    assert turn.returncode == 0, turn.stderr[-2000:]
    assert len(turn.turns) == 7, turn.stderr[-2000:]
    assert REASON in _told(turn, 2) and REASON not in _told(turn, 1)
    assert (base / f"{source}-{target}/project/victim").is_dir()


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_a_json_decision_block_refuses_the_call_in_every_host(ran, source, target):
    base, turns = ran
    turn = turns[f"{source}-{target}"]
    assert BLOCKED in _told(turn, 4) and BLOCKED not in _told(turn, 3)
    assert not (base / f"{source}-{target}/project/blocked").exists()


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_claude_codes_json_deny_refuses_only_where_the_host_reads_it(ran, source, target):
    """The answer shape port cannot translate (it does not read the scripts): Gemini
    CLI 0.61.0 reads no ``hookSpecificOutput.permissionDecision`` and runs the call;
    each host's `PortHooks.answers` says which it reads."""
    base, turns = ran
    turn = turns[f"{source}-{target}"]
    reads = PERMISSION_DECISION in (TARGETS[TARGET[target]].hooks.answers or ())
    assert (ANSWERED in _told(turn, 3)) is reads
    assert (base / f"{source}-{target}/project/forbidden").exists() is not reads


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_the_logger_logs_exactly_the_calls_that_ran(ran, source, target):
    base, _ = ran
    log = base / f"{source}-{target}/marks/log"
    ran_too = (
        [] if PERMISSION_DECISION in (TARGETS[TARGET[target]].hooks.answers or ()) else [REFUSED]
    )
    assert log.read_text(encoding="utf-8").splitlines() == [ALLOWED, *ran_too]


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_the_mcp_hook_fires_in_the_target_for_its_name_of_the_tool(ran, source, target):
    """The matcher names the plugin's MCP tools in the source's spelling; in the
    target the hook sees the target's name for each call (its payload's
    ``tool_name``)."""
    base, _ = ran
    log = base / f"{source}-{target}/marks/mcp"
    names = [MCP_TOOL[target].format(t) for t in ("lookup", "purge")]
    assert log.read_text(encoding="utf-8").splitlines() == names


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_the_mcp_hook_lets_one_call_through_and_refuses_the_other(ran, source, target):
    """Allowed: the server's answer reaches the model. Refused (exit 2): the reason
    reaches the model, and the server never runs the call."""
    base, turns = ran
    turn = turns[f"{source}-{target}"]
    assert "desk answered lookup" in _told(turn, 5), turn.stderr[-2000:]
    assert PURGED in _told(turn, 6) and PURGED not in _told(turn, 5)
    assert "desk answered purge" not in _told(turn, 6)
    desk = base / f"{source}-{target}/marks/desk"
    assert desk.read_text(encoding="utf-8").splitlines() == ["lookup"]

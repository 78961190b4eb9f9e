"""What Codex 0.171.0 keeps for itself in ``$CODEX_HOME``, read by satchel under the codex
profile as Codex reads it: the plugins it installed, the MCP servers of its config
files, the skills ``[[skills.config]]`` turns off, ``project_doc_fallback_filenames``
with ``project_doc_max_bytes``, and its hook files with the hooks it trusts.

One scratch HOME holds a ``~/.codex`` with installed plugins of every kind (a
``.codex-plugin``, ``.claude-plugin``, ``.cursor-plugin`` and Agent Plugins manifest,
none at all, several version folders, ``local``, disabled, not named in the config,
named but missing) and a trusted git project beside an untrusted one. The real Codex
runs once per test run (`tests.hostloop.shared.once`): ``codex debug prompt-input``
from a folder of the trusted project (the skills and instructions the model sees), and
``codex mcp list --json`` in both projects, and the app server's ``hooks/list`` (each
hook's state key, hash and trust status). Each test then loads the same tree with
satchel and compares.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.hostloop.hosts import Turn
from tests.hostloop.shared import once
from tests.hosts.trees import git_repo, skill
from tests.support import put
from tests.tools import CodexPrompt, parse_codex_prompt

CALL = 120
MARKET = "mkt"
GUIDE = "guide text at the root\n"
CAP = 100
# the hash Codex gives a PreToolUse hook matching Bash that runs `echo one` (observed)
ECHO_ONE = "sha256:f97aa936612a54bff7f97c1abb2210b93dfefd476fb11691a3ab6d4a0dbb7aa9"


def _hooks(*groups: tuple[str, str | None, list[dict[str, Any]]]) -> str:
    events: dict[str, list[dict[str, Any]]] = {}
    for event, matcher, handlers in groups:
        group: dict[str, Any] = {"hooks": handlers}
        if matcher is not None:
            group["matcher"] = matcher
        events.setdefault(event, []).append(group)
    return json.dumps({"hooks": events})


def _command(command: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **fields}


def _plugin(codex: Path, name: str, at: str, manifest: str | None, **fields: Any) -> Path:
    """An installed plugin folder (version folder `at`) with one skill named after the
    plugin and version."""
    root = codex / "plugins/cache" / MARKET / name / at
    if manifest is not None:
        put(root / manifest, json.dumps({"name": name, **fields}))
    folder = fields.get("skills", "./skills").removeprefix("./")
    skill(root / folder, f"{name}-{at.replace('.', '-')}")
    return root


def build(base: Path) -> dict[str, Path]:
    """The scratch HOME and its two projects (see the module docstring)."""
    home = base / "home"
    codex = home / ".codex"
    trusted = git_repo(base / "trusted")
    plain = git_repo(base / "plain")
    zero = git_repo(base / "zero")  # its own config sets the cap to 0
    cwd = trusted / "pkg"
    for version in ("1.9.0", "1.10.0", "1.2.0"):  # 1.10.0 is the highest
        _plugin(codex, "alpha", version, ".codex-plugin/plugin.json")
    beta = _plugin(codex, "beta", "2.0.0", ".claude-plugin/plugin.json")
    servers = {"beta-srv": {"command": "echo"}, "beta-off": {"command": "echo"}}
    put(beta / ".mcp.json", json.dumps({"mcpServers": servers}))
    put(beta / "hooks/hooks.json", _hooks(("Stop", None, [_command("echo plugin")])))
    _plugin(codex, "gamma", "local", None)  # no manifest: Codex loads nothing of it
    _plugin(codex, "delta", "1.0.0", ".codex-plugin/plugin.json")  # disabled
    _plugin(codex, "unnamed", "1.0.0", ".codex-plugin/plugin.json")  # not in config.toml
    for version in ("3.0.0", "local"):  # local wins over any version
        _plugin(codex, "zeta", version, ".codex-plugin/plugin.json")
    _plugin(codex, "eta", "1.0.0", ".codex-plugin/plugin.json")  # no enabled key
    _plugin(codex, "cur", "1.0.0", ".cursor-plugin/plugin.json")
    schema = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
    _plugin(codex, "ap", "1.0.0", "plugin.json", **{"$schema": schema, "version": "1.0.0"})
    both = _plugin(codex, "both", "1.0.0", ".codex-plugin/plugin.json", skills="./cx")
    put(both / ".claude-plugin/plugin.json", json.dumps({"name": "both", "skills": "./cl"}))
    skill(both / "cl", "from-claude")
    skill(both / "skills", "from-default")  # a manifest's skills replace skills/
    skill(home / ".agents/skills", "user-on")
    skill(home / ".agents/skills", "user-off")
    skill(trusted / ".agents/skills", "project-off")
    put(
        codex / "config.toml",
        f"""project_doc_fallback_filenames = ["GUIDE.md"]
project_doc_max_bytes = {CAP}

[plugins."alpha@{MARKET}"]
enabled = true
[plugins."beta@{MARKET}"]
enabled = true
[plugins."beta@{MARKET}".mcp_servers.beta-off]
enabled = false
[plugins."gamma@{MARKET}"]
enabled = true
[plugins."delta@{MARKET}"]
enabled = false
[plugins."zeta@{MARKET}"]
enabled = true
[plugins."eta@{MARKET}"]
[plugins."cur@{MARKET}"]
enabled = true
[plugins."ap@{MARKET}"]
enabled = true
[plugins."both@{MARKET}"]
enabled = true
[plugins."missing@{MARKET}"]
enabled = true

[mcp_servers.user-srv]
command = "echo"
args = ["user"]
[mcp_servers.off-srv]
command = "echo"
enabled = false

[projects."{trusted}"]
trust_level = "trusted"
[projects."{zero}"]
trust_level = "trusted"

[[skills.config]]
path = "{home}/.agents/skills/user-off/SKILL.md"
enabled = false
[[skills.config]]
name = "project-off"
enabled = false
[[skills.config]]
name = "beta:beta-2-0-0"
enabled = false
""",
    )
    project_config = """[mcp_servers.project-srv]
url = "http://127.0.0.1:9/mcp"

[[skills.config]]
name = "eta:eta-1-0-0"
enabled = false
"""
    put(trusted / ".codex/config.toml", project_config)  # skills.config here: not read
    put(plain / ".codex/config.toml", project_config)  # Codex does not trust it
    put(
        codex / "hooks.json",
        _hooks(
            ("PreToolUse", "Bash", [_command("echo one"), _command("echo two", timeout=30)]),
            ("Stop", None, [_command("echo off")]),
            ("SessionEnd", "m", [_command("echo end")]),
        ),
    )
    put(
        trusted / ".codex/hooks.json",
        _hooks(
            (
                "UserPromptSubmit",
                "ignored",
                [
                    _command("echo project", statusMessage="checking"),
                    {"type": "prompt", "prompt": "is this fine?"},
                    _command("echo after"),
                ],
            ),
        ),
    )
    put(plain / ".codex/hooks.json", _hooks(("Stop", None, [_command("echo plain")])))
    user_hooks = codex / "hooks.json"
    with open(codex / "config.toml", "a", encoding="utf-8") as config:
        config.write(
            f"""
[[hooks.PreToolUse]]
matcher = "Edit"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "echo toml"
timeout = 5

[hooks.state."{user_hooks}:pre_tool_use:0:0"]
trusted_hash = "{ECHO_ONE}"
[hooks.state."{user_hooks}:pre_tool_use:0:1"]
trusted_hash = "sha256:0000"
[hooks.state."{user_hooks}:stop:0:0"]
enabled = false
"""
        )
    put(trusted / "GUIDE.md", GUIDE)
    put(cwd / "AGENTS.md", "x" * 150)
    put(zero / ".codex/config.toml", "project_doc_max_bytes = 0\n")
    put(zero / "AGENTS.md", "not read\n")
    put(codex / "GUIDE.md", "a fallback name is for project folders only\n")
    return {
        "home": home,
        "codex": codex,
        "trusted": trusted,
        "plain": plain,
        "zero": zero,
        "cwd": cwd,
    }


def _run(binary: Path, home: Path, cwd: Path, *args: str) -> Turn:
    env = {
        "HOME": str(home),
        "CODEX_HOME": str(home / ".codex"),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    done = subprocess.run(
        [str(binary), *args], capture_output=True, text=True, timeout=CALL, env=env, cwd=cwd
    )
    return Turn(done.returncode, done.stdout, done.stderr, ())


def _hook_list(binary: Path, home: Path, cwd: Path) -> Turn:
    """The app server's ``hooks/list`` for `cwd`: initialize, then the one request,
    answered on stdout as JSON-RPC (the server is stopped once it answers)."""
    env = {
        "HOME": str(home),
        "CODEX_HOME": str(home / ".codex"),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    messages = [
        {"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "t", "version": "1"}}},
        {"method": "initialized"},
        {"id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}},
    ]
    with subprocess.Popen(
        [str(binary), "app-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
        text=True,
    ) as server:
        assert server.stdin is not None and server.stdout is not None
        try:
            for message in messages:
                server.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
            server.stdin.flush()
            answer = _answer(server.stdout, 2, time.monotonic() + CALL)
        finally:
            server.kill()
    return Turn(0 if answer is not None else 1, answer or "", "", ())


def _answer(stream: Any, wanted: int, deadline: float) -> str | None:
    """The line of `stream` answering request `wanted` (None: none before `deadline`)."""
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not selector.select(timeout=max(0.0, deadline - time.monotonic())):
                return None
            line = stream.readline()
            if not line:
                return None
            if json.loads(line).get("id") == wanted:
                return str(line)
    return None


@pytest.fixture(scope="module")
def ran(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Path], Any]:
    """The tree and what Codex printed for it, run once per test run."""

    def make(base: Path) -> dict[str, Turn]:
        tree = build(base)
        home = tree["home"]
        return {
            "prompt": _run(codex, home, tree["cwd"], "debug", "prompt-input"),
            "mcp": _run(codex, home, tree["cwd"], "mcp", "list", "--json"),
            "mcp-plain": _run(codex, home, tree["plain"], "mcp", "list", "--json"),
            "hooks": _hook_list(codex, home, tree["cwd"]),
            "prompt-zero": _run(codex, home, tree["zero"], "debug", "prompt-input"),
        }

    base, turns = once(tmp_path_factory, "codex-state", make)
    for key, turn in turns.items():
        assert turn.returncode == 0, f"codex {key}: {turn.stderr}"
    tree = {
        "home": base / "home",
        "codex": base / "home/.codex",
        "trusted": base / "trusted",
        "plain": base / "plain",
        "zero": base / "zero",
        "cwd": base / "trusted/pkg",
    }
    return tree, turns


def prompt_of(ran: Any) -> CodexPrompt:
    tree, turns = ran
    return parse_codex_prompt(turns["prompt"].stdout, tree["codex"] / "skills/.system")


def servers_of(turn: Turn) -> list[tuple[str, bool]]:
    return sorted((s["name"], s["enabled"]) for s in json.loads(turn.stdout))


def satchel_codex(cwd: Path, home: Path) -> Any:
    """satchel's load of `cwd` under the codex profile, the folder trusted by satchel
    (Codex's own trust still decides which project config files count)."""
    from satchel import hosts, load  # type: ignore[attr-defined]

    layout = hosts.get("codex").layout(cwd, home=home, env={})
    return load(layout=layout, host="codex", trusted=True)


def own(env: Any, prompt: CodexPrompt) -> list[tuple[str, Path]]:
    """(name, path) of satchel's skills but Codex's bundled ones."""
    return sorted(
        (s.name, s.path.resolve())
        for s in env.skills.values()
        if not s.path.is_relative_to(prompt.system)
    )


def by_code(env: Any, code: str) -> list[str]:
    return [d.message for d in env.diagnostics if d.code == code]


# --- installed plugins -----------------------------------------------------------------


def test_codex_lists_the_skills_of_the_plugins_its_config_enables(ran: Any):
    names = sorted(s.name for s in prompt_of(ran).own)
    assert names == [
        "alpha:alpha-1-10-0",  # the highest version; no other
        "ap:ap-1-0-0",  # a root plugin.json with an Agent Plugins $schema
        "both:both-1-0-0",  # .codex-plugin wins, its skills path replaces skills/
        "cur:cur-1-0-0",  # .cursor-plugin
        "eta:eta-1-0-0",  # no enabled key: enabled (project skills.config not read)
        "user-on",
        "zeta:zeta-local",  # local wins over 3.0.0
    ]  # beta's one skill is off by name; gamma, delta, unnamed and missing give nothing


def test_satchel_matches_codex_installed_plugins_and_skill_rules(ran: Any):
    tree, _ = ran
    prompt = prompt_of(ran)
    env = satchel_codex(tree["cwd"], tree["home"])
    assert own(env, prompt) == sorted((s.name, s.path.resolve()) for s in prompt.own)


def test_satchel_lists_each_installed_plugin_with_its_state(ran: Any):
    tree, _ = ran
    env = satchel_codex(tree["cwd"], tree["home"])
    cache = tree["codex"] / "plugins/cache" / MARKET
    found = {p.installed: (p.enabled, p.root) for p in env.plugins.plugins.values()}
    assert found == {
        f"alpha@{MARKET}": (True, cache / "alpha/1.10.0"),
        f"ap@{MARKET}": (True, cache / "ap/1.0.0"),
        f"beta@{MARKET}": (True, cache / "beta/2.0.0"),
        f"both@{MARKET}": (True, cache / "both/1.0.0"),
        f"cur@{MARKET}": (True, cache / "cur/1.0.0"),
        f"delta@{MARKET}": (False, cache / "delta/1.0.0"),
        f"eta@{MARKET}": (True, cache / "eta/1.0.0"),
        f"zeta@{MARKET}": (True, cache / "zeta/local"),
    }


def test_satchel_says_why_an_installed_plugin_does_not_load(ran: Any):
    tree, _ = ran
    env = satchel_codex(tree["cwd"], tree["home"])
    cache = tree["codex"] / "plugins/cache" / MARKET
    config = tree["codex"] / "config.toml"
    assert by_code(env, "plugin.disabled") == [
        f"plugin 'delta' (delta@{MARKET}) is not enabled: it is disabled in {config}; "
        "nothing of it loads"
    ]
    assert by_code(env, "plugin.installed.invalid") == [
        f"Codex's entry for 'gamma@{MARKET}' is not used: {cache / 'gamma/local'} holds no "
        "plugin manifest (.codex-plugin/plugin.json, .claude-plugin/plugin.json, "
        ".cursor-plugin/plugin.json, plugin.json); Codex loads none of it"
    ]
    assert by_code(env, "plugin.installed.missing") == [
        f"Codex enables 'missing@{MARKET}' but it is not installed: no version folder in "
        f"{cache / 'missing'}"
    ]


def test_satchel_says_which_skills_codex_turns_off(ran: Any):
    tree, _ = ran
    env = satchel_codex(tree["cwd"], tree["home"])
    config = tree["codex"] / "config.toml"
    said = f"is turned off by Codex's [[skills.config]] in {config}; it is not loaded"
    assert sorted(by_code(env, "skill.disabled")) == sorted(
        f"skill {name!r} {said}" for name in ("beta:beta-2-0-0", "project-off", "user-off")
    )


def test_the_default_profile_reads_no_codex_install(ran: Any):
    # satchel's own profile reads Claude Code's installed plugins, not Codex's
    import satchel

    tree, _ = ran
    env = satchel.load(layout=satchel.Layout.default(tree["cwd"], home=tree["home"]))
    assert not [p for p in env.plugins.plugins.values() if p.installed]


# --- MCP servers -----------------------------------------------------------------------


def test_codex_lists_user_project_and_plugin_servers(ran: Any):
    _, turns = ran
    assert servers_of(turns["mcp"]) == [
        ("beta-off", False),  # the plugin's entry switches it off
        ("beta-srv", True),
        ("off-srv", False),
        ("project-srv", True),
        ("user-srv", True),
    ]
    assert servers_of(turns["mcp-plain"]) == [  # an untrusted project's are left out
        ("beta-off", False),
        ("beta-srv", True),
        ("off-srv", False),
        ("user-srv", True),
    ]


def test_satchel_says_codex_does_not_read_an_untrusted_project(ran: Any):
    tree, _ = ran
    env = satchel_codex(tree["plain"], tree["home"])
    assert by_code(env, "host.config.untrusted") == [
        f"Codex does not read {tree['plain'] / '.codex'} (its config, MCP servers and hooks): "
        f"{tree['codex'] / 'config.toml'} does not trust the project "
        '([projects."<path>"] trust_level = "trusted")'
    ]
    assert not [h for h in env.hooks.hooks if h.spec.command == "echo plain"]


@pytest.mark.parametrize("where", ["cwd", "plain"])
def test_satchel_matches_codex_servers(ran: Any, where: str):
    tree, turns = ran
    env = satchel_codex(tree[where], tree["home"])
    ours = sorted((s.name, s.enabled) for s in env.mcp_servers.servers)
    assert ours == servers_of(turns["mcp" if where == "cwd" else "mcp-plain"])


# --- instructions ----------------------------------------------------------------------


def test_codex_reads_the_fallback_file_and_caps_the_project_files(ran: Any):
    assert prompt_of(ran).instructions == GUIDE + "\n\n" + "x" * (CAP - len(GUIDE))


def test_a_project_config_setting_the_cap_to_zero_reads_no_project_file(ran: Any):
    tree, turns = ran
    codex = parse_codex_prompt(turns["prompt-zero"].stdout, tree["codex"] / "skills/.system")
    assert codex.instructions is None  # nor the user's GUIDE.md: fallbacks are per project
    assert satchel_codex(tree["zero"], tree["home"]).instructions == ()


def test_satchel_matches_codex_fallback_and_cap(ran: Any):
    tree, _ = ran
    env = satchel_codex(tree["cwd"], tree["home"])
    assert [(f.path, f.text) for f in env.instructions] == [
        (tree["trusted"] / "GUIDE.md", GUIDE),
        (tree["cwd"] / "AGENTS.md", "x" * (CAP - len(GUIDE))),
    ]
    assert prompt_of(ran).instructions == "\n\n".join(f.text for f in env.instructions)


# --- hooks and Codex's trust in them ---------------------------------------------------


def codex_hooks(ran: Any) -> list[dict[str, Any]]:
    _, turns = ran
    [listed] = json.loads(turns["hooks"].stdout)["result"]["data"]
    return list(listed["hooks"])


def test_codex_keys_hashes_and_trusts_each_hook(ran: Any):
    tree, _ = ran
    found = {h["key"]: (h["trustStatus"], h["enabled"]) for h in codex_hooks(ran)}
    user, project = tree["codex"], tree["trusted"] / ".codex"
    assert found == {
        f"{user}/hooks.json:pre_tool_use:0:0": ("trusted", True),
        f"{user}/hooks.json:pre_tool_use:0:1": ("modified", True),
        f"{user}/hooks.json:stop:0:0": ("untrusted", False),
        f"{user}/hooks.json:session_end:0:0": ("untrusted", True),
        f"{user}/config.toml:pre_tool_use:0:0": ("untrusted", True),
        f"{project}/hooks.json:user_prompt_submit:0:0": ("untrusted", True),
        f"{project}/hooks.json:user_prompt_submit:0:2": ("untrusted", True),  # after a prompt
        f"beta@{MARKET}:hooks/hooks.json:stop:0:0": ("untrusted", True),
    }  # the untrusted project's hooks.json is not read


def test_satchel_keys_and_hashes_each_hook_as_codex_does(ran: Any):
    from satchel.foundations._host_state import host_config
    from satchel.hooks._host_hooks import host_hooks, plugin_hook_file
    from satchel.hosts._codex import CODEX_STATE

    tree, _ = ran
    layout = satchel_codex(tree["cwd"], tree["home"]).layout
    beta = tree["codex"] / "plugins/cache" / MARKET / "beta/2.0.0"
    extra = plugin_hook_file(f"beta@{MARKET}", beta, beta / "hooks/hooks.json")
    assert extra is not None
    config = host_config(layout, CODEX_STATE, trust_project=True)
    ours = {
        h.key: (h.current, h.status, h.enabled) for h in host_hooks(CODEX_STATE, config, (extra,))
    }
    # a plugin's hook hash carries a second part (after "/") satchel does not reproduce
    assert ours == {
        h["key"]: (h["currentHash"].split("/")[0], h["trustStatus"], h["enabled"])
        for h in codex_hooks(ran)
    }


def test_satchel_runs_only_the_hooks_codex_runs(ran: Any):
    tree, _ = ran
    env = satchel_codex(tree["cwd"], tree["home"])
    runs = sorted(
        h["command"] for h in codex_hooks(ran) if h["enabled"] and h["trustStatus"] == "trusted"
    )
    ours = sorted(h.spec.command for h in env.hooks.loaded())
    assert ours == runs == ["echo one"]


def test_satchel_names_the_hooks_codex_skips_without_a_word(ran: Any):
    tree, _ = ran
    env = satchel_codex(tree["cwd"], tree["home"])
    config = tree["codex"] / "config.toml"
    skipped = {
        (h["command"], h["key"], h["trustStatus"], h["currentHash"])
        for h in codex_hooks(ran)
        if h["enabled"] and h["trustStatus"] != "trusted"
    }
    expected = []
    for command, key, status, current in sorted(skipped):
        event = next(h["eventName"] for h in codex_hooks(ran) if h["key"] == key)
        event = event[0].upper() + event[1:]
        where = key.rsplit(":", 3)[0]
        if where.startswith(f"beta@{MARKET}:"):
            where = str(tree["codex"] / "plugins/cache" / MARKET / "beta/2.0.0/hooks/hooks.json")
        if status == "untrusted":
            why = f"it has never been trusted (no trusted_hash for {key!r}"
        else:
            why = (
                f"it changed since it was trusted (the trusted_hash for {key!r} is not its "
                f"{current}"
            )
        expected.append(
            f"Codex skips the {event} hook {command!r} of {where} without a word: {why} "
            f"in {config})"
        )
    assert sorted(by_code(env, "hook.host.untrusted")) == sorted(expected)
    assert len(expected) == 6

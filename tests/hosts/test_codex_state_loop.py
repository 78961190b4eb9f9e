"""What Codex 0.171.0 keeps for itself in ``$CODEX_HOME``, read by satchel under the codex
profile as Codex reads it: the plugins it installed, the MCP servers of its config
files, the skills ``[[skills.config]]`` turns off, and ``project_doc_fallback_filenames``
with ``project_doc_max_bytes``.

One scratch HOME holds a ``~/.codex`` with installed plugins of every kind (a
``.codex-plugin``, ``.claude-plugin``, ``.cursor-plugin`` and Agent Plugins manifest,
none at all, several version folders, ``local``, disabled, not named in the config,
named but missing) and a trusted git project beside an untrusted one. The real Codex
runs once per test run (`tests.hostloop.shared.once`): ``codex debug prompt-input``
from a folder of the trusted project (the skills and instructions the model sees), and
``codex mcp list --json`` in both projects. Each test then loads the same tree with
satchel and compares.
"""

from __future__ import annotations

import json
import os
import subprocess
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
    cwd = trusted / "pkg"
    for version in ("1.9.0", "1.10.0", "1.2.0"):  # 1.10.0 is the highest
        _plugin(codex, "alpha", version, ".codex-plugin/plugin.json")
    beta = _plugin(codex, "beta", "2.0.0", ".claude-plugin/plugin.json")
    put(beta / ".mcp.json", json.dumps({"mcpServers": {"beta-srv": {"command": "echo"}}}))
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
    put(trusted / "GUIDE.md", GUIDE)
    put(cwd / "AGENTS.md", "x" * 150)
    return {"home": home, "codex": codex, "trusted": trusted, "plain": plain, "cwd": cwd}


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
        }

    base, turns = once(tmp_path_factory, "codex-state", make)
    for key, turn in turns.items():
        assert turn.returncode == 0, f"codex {key}: {turn.stderr}"
    tree = {
        "home": base / "home",
        "codex": base / "home/.codex",
        "trusted": base / "trusted",
        "plain": base / "plain",
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
        ("beta-srv", True),
        ("off-srv", False),
        ("project-srv", True),
        ("user-srv", True),
    ]
    assert servers_of(turns["mcp-plain"]) == [  # an untrusted project's are left out
        ("beta-srv", True),
        ("off-srv", False),
        ("user-srv", True),
    ]


@pytest.mark.parametrize("where", ["cwd", "plain"])
def test_satchel_matches_codex_servers(ran: Any, where: str):
    tree, turns = ran
    env = satchel_codex(tree[where], tree["home"])
    ours = sorted((s.name, s.enabled) for s in env.mcp_servers.servers)
    assert ours == servers_of(turns["mcp" if where == "cwd" else "mcp-plain"])


# --- instructions ----------------------------------------------------------------------


def test_codex_reads_the_fallback_file_and_caps_the_project_files(ran: Any):
    assert prompt_of(ran).instructions == GUIDE + "\n\n" + "x" * (CAP - len(GUIDE))


def test_satchel_matches_codex_fallback_and_cap(ran: Any):
    tree, _ = ran
    env = satchel_codex(tree["cwd"], tree["home"])
    assert [(f.path, f.text) for f in env.instructions] == [
        (tree["trusted"] / "GUIDE.md", GUIDE),
        (tree["cwd"] / "AGENTS.md", "x" * (CAP - len(GUIDE))),
    ]
    assert prompt_of(ran).instructions == "\n\n".join(f.text for f in env.instructions)

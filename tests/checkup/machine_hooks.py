"""One scratch machine whose hooks the real hosts installed and ran, for the hook checks
of ``satchel doctor --hosts`` (tests/checkup/test_hooks.py, test_hook_files.py).

`build` makes, under one HOME:

* a local Claude Code marketplace with two plugins, installed with the real ``claude
  plugin marketplace add`` and ``claude plugin install``: `echo`, whose
  ``hooks/hooks.json`` registers the probe on UserPromptSubmit, as
  ``~/.claude/settings.json`` does too; and `dual`, a repository that is also a
  Gemini CLI extension, whose one ``hooks/hooks.json`` is written in Claude Code's
  dialect;
* Gemini CLI extensions installed with the real ``gemini extensions install``:
  `alpha` and `beta`, each registering the probe on BeforeAgent, and `dual`; `alpha`
  also registers a hook on AfterAgent that ``hooksConfig.disabled`` names in
  ``~/.gemini/settings.json``; `delta` and `epsilon` each register one probe on
  BeforeAgent under a name of their own (``n-delta``, ``n-epsilon``) and another
  under a matcher of their own (``x``, ``y``);
* Codex's ``~/.codex/hooks.json`` and ``[hooks]`` of its ``config.toml`` each
  registering the probe on UserPromptSubmit, both trusted in ``[hooks.state]``, and a
  Stop hook in ``hooks.json`` never trusted.

a second machine (``off/``) where each host has one hook and the setting that
turns every hook off, and a third (``nested/``): Codex's trusted user hooks in a
trusted git project whose folder ``sub`` holds ``.codex/config.toml`` with ``[features]
hooks = false``, Codex run in ``sub``. Then each host runs one turn on each machine (``claude -p``,
``codex exec``, ``gemini -p``) against a scripted model on 127.0.0.1, and the probes
count what ran. `MACHINE` runs it once per
test run (`tests.hostloop.shared.once`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from satchel.reports.checkup import HostFinding, MachineReport, check_hosts
from tests.hostloop.hookprobe import probe
from tests.hostloop.hosts import GEMINI_SETTINGS, Turn, run_claude, run_codex, run_gemini
from tests.hostloop.model import Text
from tests.hostloop.shared import once
from tests.hosts.trees import git_repo
from tests.support import put
from tests.tools import CALL, claude_code, claude_plugin, codex, gemini_cli

__all__ = ["MARKET", "build", "findings_of", "command", "gemini_cli_run", "paths", "ran", "report"]

MARKET = "hook-tools"
DUAL_HOOKS = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh"}],
            }
        ],
        "SessionStart": [
            {"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/hello.sh"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "echo stopped"}]}],
    }
}


def paths(base: Path) -> dict[str, Path]:
    """The folders of the machine `build` makes in `base`."""
    return {
        "home": base / "home",
        "project": base / "project",
        "market": base / "market",
        "claude-code": base / "probes/claude-code",
        "codex": base / "probes/codex",
        "gemini": base / "probes/gemini",
        "stop": base / "probes/codex-stop",
        "off": base / "probes/codex-off",
        "gemini-off": base / "probes/gemini-off",
        "gemini-named": base / "probes/gemini-named",
        "gemini-matched": base / "probes/gemini-matched",
        "nested-home": base / "nested/home",
        "nested-project": base / "nested/project",
        "nested-codex": base / "probes/nested-codex",
        "off-home": base / "off/home",
        "off-project": base / "off/project",
        "off-claude-code": base / "probes/off-claude-code",
        "off-codex": base / "probes/off-codex",
        "off-gemini": base / "probes/off-gemini",
    }


def _hooks(event: str, command: str) -> dict[str, object]:
    return {"hooks": {event: [{"hooks": [{"type": "command", "command": command}]}]}}


def _marketplace(root: Path, command: str) -> None:
    """Claude Code's marketplace: `echo` registers `command`, `dual` is also a Gemini
    CLI extension."""
    entries = [{"name": n, "source": f"./plugins/{n}"} for n in ("echo", "dual")]
    catalogue = {"name": MARKET, "owner": {"name": "Team"}, "plugins": entries}
    put(root, ".claude-plugin/marketplace.json", json.dumps(catalogue))
    echo = root / "plugins/echo"
    put(echo, ".claude-plugin/plugin.json", json.dumps({"name": "echo", "version": "1.0.0"}))
    put(echo, "hooks/hooks.json", json.dumps(_hooks("UserPromptSubmit", command)))
    dual = root / "plugins/dual"
    put(dual, ".claude-plugin/plugin.json", json.dumps({"name": "dual", "version": "1.0.0"}))
    put(dual, "gemini-extension.json", json.dumps({"name": "dual", "version": "1.0.0"}))
    put(dual, "hooks/hooks.json", json.dumps(DUAL_HOOKS, indent=2))
    put(dual, "scripts/guard.sh", "#!/bin/sh\nexit 0\n", mode=0o755)
    put(dual, "scripts/hello.sh", "#!/bin/sh\necho hello from dual\n", mode=0o755)


def _extension(root: Path, name: str, command: str, off: str | None = None) -> Path:
    """A Gemini CLI extension registering `command` on BeforeAgent (and `off` on
    AfterAgent)."""
    put(root, "gemini-extension.json", json.dumps({"name": name, "version": "1.0.0"}))
    hooks = _hooks("BeforeAgent", command)
    if off is not None:
        hooks["hooks"]["AfterAgent"] = _hooks("AfterAgent", off)["hooks"]["AfterAgent"]  # type: ignore[index]
    put(root, "hooks/hooks.json", json.dumps(hooks))
    return root


def _named(root: Path, name: str, named: str, matched: str, matcher: str) -> Path:
    """A Gemini CLI extension registering on BeforeAgent `named` as the hook
    ``n-<name>`` and `matched` under `matcher`."""
    put(root, "gemini-extension.json", json.dumps({"name": name, "version": "1.0.0"}))
    groups = [
        {"hooks": [{"type": "command", "name": f"n-{name}", "command": named}]},
        {"matcher": matcher, "hooks": [{"type": "command", "command": matched}]},
    ]
    put(root, "hooks/hooks.json", json.dumps({"hooks": {"BeforeAgent": groups}}))
    return root


def gemini_cli_run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Gemini CLI with HOME=`home`, its updates and statistics off, offline."""
    script = gemini_cli()
    assert script is not None
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "GEMINI_CLI_NO_RELAUNCH": "true",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / "system-settings.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / "system-defaults.json"),
    }
    node = shutil.which("node") or "node"
    return subprocess.run(
        [node, str(script), *args], capture_output=True, text=True, timeout=CALL, env=env, cwd=home
    )


def _claude_install(base: Path, claude: str) -> None:
    """Claude Code's marketplace and plugins, installed by it; `claude` the probe
    command `echo` registers."""
    where = paths(base)
    binary = claude_code()
    assert binary is not None
    _marketplace(where["market"], claude)
    for args in (
        ("marketplace", "add", str(where["market"])),
        ("install", f"echo@{MARKET}"),
        ("install", f"dual@{MARKET}"),
    ):
        done = claude_plugin(binary, where["home"], where["project"], *args)
        assert done.returncode == 0, f"claude plugin {args}: {done.stderr}"


def _gemini_install(home: Path, sources: Sequence[Path]) -> None:
    """The extensions in `sources`, installed by Gemini CLI into `home`, one after
    another (an install writes files every extension shares)."""
    put(home / ".gemini", "settings.json", json.dumps(GEMINI_SETTINGS))
    # Gemini CLI installs from a local folder only once the user trusts it
    trusted = {str(source): "TRUST_FOLDER" for source in sources}
    put(home / ".gemini", "trustedFolders.json", json.dumps(trusted))
    for source in sources:
        done = gemini_cli_run(home, "extensions", "install", str(source), "--consent")
        installed = home / ".gemini/extensions" / source.name / "gemini-extension.json"
        assert installed.is_file(), f"gemini extensions install {source}: {done.stderr}"


def _codex_config(home: Path, command: str, stop: str | None = None, off: str | None = None) -> str:
    """The hook part of Codex's config.toml. ``hooks.json`` and ``[hooks]`` each
    register `command` on UserPromptSubmit, both trusted; ``hooks.json``'s Stop hook
    `stop` is never trusted; its SessionStart hook `off` is trusted and turned off
    (``enabled = false``). Keys and hashes are Codex's, as satchel reproduces them
    (tests/hosts/test_codex_state_loop.py compares them with Codex's own)."""
    import tomllib

    from satchel.foundations._host_state import HostConfig
    from satchel.hooks._host_hooks import host_hooks
    from satchel.hosts._codex import CODEX_STATE

    codex_home = home / ".codex"
    events: dict[str, object] = {}
    for event, given in (("UserPromptSubmit", command), ("Stop", stop), ("SessionStart", off)):
        if given is not None:
            events[event] = [{"hooks": [{"type": "command", "command": given}]}]
    put(codex_home, "hooks.json", json.dumps({"hooks": events}))
    table = (
        "[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\n"
        f'type = "command"\ncommand = {json.dumps(command)}\n'
    )
    config = HostConfig(codex_home / "config.toml", tomllib.loads(table))
    state = []
    for hook in host_hooks(CODEX_STATE, config):
        if hook.command in (command, off):
            state.append(f'[hooks.state.{json.dumps(hook.key)}]\ntrusted_hash = "{hook.current}"\n')
        if hook.command == off:
            state.append("enabled = false\n")
    assert len(state) == (2 if off is None else 4)
    return table + "".join(state)


def _switched_off(base: Path) -> tuple[Path, str]:
    """The second machine: each host with one hook (a probe of its own) and the
    setting that turns every hook off, as its settings spell it. The Gemini CLI
    extension to install there, and the hook part of Codex's config."""
    where = paths(base)
    home, project = where["off-home"], where["off-project"]
    (project / ".git").mkdir(parents=True)
    command = {n: probe(where[f"off-{n}"], ()) for n in ("claude-code", "codex", "gemini")}
    claude = {**_hooks("UserPromptSubmit", command["claude-code"]), "disableAllHooks": True}
    put(home / ".claude", "settings.json", json.dumps(claude))
    gamma = _extension(base / "extensions/gamma", "gamma", command["gemini"])
    return gamma, "[features]\nhooks = false\n" + _codex_config(home, command["codex"])


def _nested(base: Path) -> str:
    """The third machine: Codex's user hooks (trusted) in a trusted project whose
    folder ``sub`` turns every hook off in its own ``.codex/config.toml``; the hook part
    of Codex's user config."""
    where = paths(base)
    home, project = where["nested-home"], git_repo(where["nested-project"])
    put(project / "sub/.codex", "config.toml", "[features]\nhooks = false\n")
    trust = f'[projects.{json.dumps(str(project))}]\ntrust_level = "trusted"\n'
    return trust + _codex_config(home, probe(where["nested-codex"], ()))


def build(base: Path) -> Mapping[str, Turn]:
    """Both machines (see the module docstring), each host run once on each."""
    where = paths(base)
    home, project = where["home"], where["project"]
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    command = {name: probe(where[name], ()) for name in ("claude-code", "codex", "gemini")}
    stop, off = probe(where["stop"], ()), probe(where["off"], ())
    gemini_off = probe(where["gemini-off"], ())
    gamma, off_codex = _switched_off(base)
    nested_codex = _nested(base)
    named, matched = probe(where["gemini-named"], ()), probe(where["gemini-matched"], ())
    extensions = (
        _extension(base / "extensions/alpha", "alpha", command["gemini"], gemini_off),
        _extension(base / "extensions/beta", "beta", command["gemini"]),
        where["market"] / "plugins/dual",
        _named(base / "extensions/delta", "delta", named, matched, "x"),
        _named(base / "extensions/epsilon", "epsilon", named, matched, "y"),
    )
    with ThreadPoolExecutor(max_workers=3) as pool:  # each writes a home of its own
        installs = [
            pool.submit(_claude_install, base, command["claude-code"]),
            pool.submit(_gemini_install, home, extensions),
            pool.submit(_gemini_install, where["off-home"], (gamma,)),
        ]
        for done in installs:
            done.result()
    settings = home / ".claude/settings.json"  # as `claude plugin install` left it
    written = json.loads(settings.read_text(encoding="utf-8"))
    written.update(_hooks("UserPromptSubmit", command["claude-code"]))
    settings.write_text(json.dumps(written, indent=2), encoding="utf-8")
    project_hook = _hooks("UserPromptSubmit", command["claude-code"])
    put(project / ".claude", "settings.json", json.dumps(project_hook))
    codex_hooks = _codex_config(home, command["codex"], stop, off)
    binaries = (claude_code(), codex(), gemini_cli())
    assert all(binaries)
    claude, codex_binary, gemini = binaries
    script = [Text("done")]
    off_home, off_project = where["off-home"], where["off-project"]
    runs = {
        "claude-code": lambda: run_claude(claude, project, home, "go", script),  # type: ignore[arg-type]
        "codex": lambda: run_codex(codex_binary, project, home, "go", script, config=codex_hooks),  # type: ignore[arg-type]
        "gemini": lambda: run_gemini(  # type: ignore[arg-type]
            gemini,
            project,
            home,
            "go",
            script,
            settings={"hooksConfig": {"disabled": [gemini_off]}},
        ),
        "nested-codex": lambda: run_codex(  # type: ignore[arg-type]
            codex_binary,
            where["nested-project"] / "sub",
            where["nested-home"],
            "go",
            script,
            config=nested_codex,
        ),
        "off-claude-code": lambda: run_claude(claude, off_project, off_home, "go", script),  # type: ignore[arg-type]
        "off-codex": lambda: run_codex(  # type: ignore[arg-type]
            codex_binary, off_project, off_home, "go", script, config=off_codex
        ),
        "off-gemini": lambda: run_gemini(  # type: ignore[arg-type]
            gemini,
            off_project,
            off_home,
            "go",
            script,
            settings={"hooksConfig": {"enabled": False}},
        ),
    }
    with ThreadPoolExecutor(max_workers=len(runs)) as pool:
        futures = {name: pool.submit(run) for name, run in runs.items()}
        return {name: f.result() for name, f in futures.items()}


def ran(factory: pytest.TempPathFactory) -> tuple[Path, Mapping[str, Turn]]:
    """The machine and each host's turn on it, made once per test run."""
    base, turns = once(factory, "checkup-hooks", build)
    for name, turn in turns.items():
        assert turn.returncode == 0, f"{name}: {turn.stderr}"
    return base, turns


def report(base: Path) -> MachineReport:
    """``satchel doctor --hosts`` of the three hosts on the machine in `base`."""
    where = paths(base)
    names = ("claude-code", "codex", "gemini")
    return check_hosts(where["project"], home=where["home"], names=names, env={"PATH": "/bin"})


def command(base: Path, name: str) -> str:
    """The probe command of `name` (a host's, ``stop``, ``off``), as the files hold it."""
    return f'"{sys.executable}" "{paths(base)[name] / "probe.py"}"'


def findings_of(found: Sequence[HostFinding], host: str, prefix: str) -> list[HostFinding]:
    """The findings of `host` whose code starts with `prefix`, in report order."""
    return [f for f in found if f.host == host and f.code.startswith(prefix)]

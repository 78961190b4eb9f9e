"""Run a real host through one turn, offline, against a scripted `Model`.

Each runner takes the host's pinned program, a project folder, a scratch home, the
user's prompt and the model's script, writes what the host needs to reach the model on
127.0.0.1 into the scratch home (never anywhere else), runs the host in the project
and returns a `Turn`: what it printed and every request it sent the model.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.hostloop.model import Model, Recorded, Reply

__all__ = ["Turn", "run_claude", "run_codex", "run_gemini"]

CALL = 180  # seconds a host may take for one turn: a "did not hang" bound


@dataclass(frozen=True, slots=True)
class Turn:
    """What one run of a host did: its exit code, output, and the requests it sent."""

    returncode: int
    stdout: str
    stderr: str
    requests: tuple[Recorded, ...]

    @property
    def turns(self) -> tuple[Recorded, ...]:
        """The requests of the host's own loop (those that offered tools), in order."""
        return tuple(r for r in self.requests if r.turn)


def _base_env(home: Path, extra: Mapping[str, str] | None) -> dict[str, str]:
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
    }
    env.update(extra or {})
    return env


def _run(argv: Sequence[str], cwd: Path, env: Mapping[str, str], model: Model) -> Turn:
    done = subprocess.run(
        list(argv),
        cwd=cwd,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=CALL,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    return Turn(done.returncode, done.stdout, done.stderr, tuple(model.requests))


def run_claude(
    binary: Path,
    project: Path,
    home: Path,
    prompt: str,
    script: Sequence[Reply] = (),
    *,
    args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> Turn:
    """``claude -p PROMPT ARGS`` in `project` with HOME=`home`, its model on 127.0.0.1
    (``ANTHROPIC_BASE_URL``), no update check and no other traffic."""
    home.mkdir(parents=True, exist_ok=True)
    with Model(list(script)) as model:
        full = _base_env(
            home,
            {
                "ANTHROPIC_BASE_URL": model.url,
                "ANTHROPIC_API_KEY": "sk-ant-offline",
                "DISABLE_AUTOUPDATER": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                **(env or {}),
            },
        )
        return _run([str(binary), "-p", prompt, *args], project, full, model)


def codex_config(url: str, extra: str = "") -> str:
    """A ``config.toml`` that sends Codex's model requests to `url` (Responses API)."""
    return (
        'model_provider = "offline"\n'
        f"{extra}\n"
        "[model_providers.offline]\n"
        'name = "offline"\n'
        f'base_url = "{url}/v1"\n'
        'wire_api = "responses"\n'
        'env_key = "OFFLINE_API_KEY"\n'
        "request_max_retries = 0\n"
        "stream_max_retries = 0\n"
    )


def run_codex(
    binary: Path,
    project: Path,
    home: Path,
    prompt: str,
    script: Sequence[Reply] = (),
    *,
    args: Sequence[str] = (),
    config: str = "",
    env: Mapping[str, str] | None = None,
) -> Turn:
    """``codex exec --skip-git-repo-check ARGS PROMPT`` in `project`, with CODEX_HOME=
    `home/.codex` whose ``config.toml`` points at the scripted model (`config`: more
    top-level keys, written before the provider table)."""
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    with Model(list(script)) as model:
        (codex_home / "config.toml").write_text(codex_config(model.url, config), encoding="utf-8")
        full = _base_env(
            home, {"CODEX_HOME": str(codex_home), "OFFLINE_API_KEY": "offline", **(env or {})}
        )
        argv = [str(binary), "exec", "--skip-git-repo-check", *args, prompt]
        return _run(argv, project, full, model)


GEMINI_SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}


def run_gemini(
    script_path: Path,
    project: Path,
    home: Path,
    prompt: str,
    script: Sequence[Reply] = (),
    *,
    args: Sequence[str] = (),
    settings: Mapping[str, object] | None = None,
    trusted: bool = True,
    env: Mapping[str, str] | None = None,
) -> Turn:
    """``gemini -p PROMPT ARGS`` in `project` with HOME=`home`: API-key auth against
    the scripted model (``GOOGLE_GEMINI_BASE_URL``), no updates or statistics, the
    project trusted when `trusted`, system settings kept inside `home`. `settings`
    are merged over the defaults at the top level."""
    gemini = home / ".gemini"
    gemini.mkdir(parents=True, exist_ok=True)
    merged = {**GEMINI_SETTINGS, **(settings or {})}
    (gemini / "settings.json").write_text(json.dumps(merged), encoding="utf-8")
    folders = {str(project): "TRUST_FOLDER"} if trusted else {}
    (gemini / "trustedFolders.json").write_text(json.dumps(folders), encoding="utf-8")
    node = shutil.which("node") or "node"
    with Model(list(script)) as model:
        full = _base_env(
            home,
            {
                "GEMINI_API_KEY": "offline",
                "GOOGLE_GEMINI_BASE_URL": model.url,
                "GEMINI_CLI_NO_RELAUNCH": "true",
                "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / "system-settings.json"),
                "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / "system-defaults.json"),
                **(env or {}),
            },
        )
        return _run([node, str(script_path), "-p", prompt, *args], project, full, model)

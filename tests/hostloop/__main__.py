"""``python -m tests.hostloop PROJECT --host H [script]``: run a project through a real
host, offline, with a scripted model, and print what the host sent the model and which
hooks it ran with which payloads (``scripts/hostloop`` runs this).

The host runs in a scratch copy of PROJECT with a scratch HOME (filled from ``--home``
when given): the project and the user's home are only read. The script is the model's
replies, in order, from ``--script FILE`` (JSON or TOML) and then the flags ``--text``,
``--call``, ``--skill`` and ``--agent`` in the order given.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests import tools
from tests.hostloop.capture import observe, ran, wrap_project
from tests.hostloop.hosts import Turn, run_claude, run_codex, run_gemini
from tests.hostloop.model import Call, Reply, Text
from tests.hostloop.show import Seen, render, seen

HOSTS = {
    "claude-code": ("claude", tools.claude_code),
    f"claude-code-{tools.CLAUDE_VERSION}": ("claude", tools.claude_code),
    f"claude-code-{tools.CLAUDE_NEXT_VERSION}": ("claude", tools.claude_code_next),
    "codex": ("codex", tools.codex),
    "gemini": ("gemini", tools.gemini_cli),
}
# Events given an observer hook in the scratch home: the payload of each is recorded
# even where the project has no hook for it (names both pinned versions accept).
CLAUDE_OBSERVED = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "SessionEnd",
)
CODEX_OBSERVED = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")
GEMINI_OBSERVED = (
    "SessionStart",
    "BeforeAgent",
    "BeforeTool",
    "AfterTool",
    "AfterAgent",
    "SessionEnd",
)
OBSERVERS = {
    "claude": (".claude/settings.json", CLAUDE_OBSERVED),
    "codex": (".codex/hooks.json", CODEX_OBSERVED),
    "gemini": (".gemini/settings.json", GEMINI_OBSERVED),
}
SKIPPED = frozenset((".git", ".venv", "node_modules", "__pycache__"))


class Usage(Exception):
    """A script or flag the chosen host cannot run."""


class _Reply(argparse.Action):
    """Append this flag's reply to the one ordered list all reply flags share."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        kind = (option_string or "").lstrip("-")
        got = [values] if isinstance(values, str) else list(values or ())
        namespace.replies = [*(getattr(namespace, "replies", None) or []), (kind, got)]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="scripts/hostloop",
        description="Run PROJECT through a real host against a scripted model on 127.0.0.1 "
        "and print what the host sent the model and which hooks it ran.",
    )
    p.add_argument("project", nargs="?", default=".", type=Path, help="the project (read only)")
    p.add_argument("--host", choices=sorted(HOSTS), default="claude-code")
    p.add_argument("--prompt", default=None, help="the user's prompt (default: go)")
    p.add_argument("--script", type=Path, help="a JSON or TOML script file")
    p.add_argument("--text", action=_Reply, metavar="TEXT", help="the model answers TEXT")
    p.add_argument(
        "--call",
        action=_Reply,
        nargs=2,
        metavar=("TOOL", "ARGS"),
        help="the model calls TOOL "
        "with ARGS (a JSON object, else free text: a Codex custom tool's input)",
    )
    p.add_argument("--skill", action=_Reply, metavar="NAME", help="the model activates skill NAME")
    p.add_argument(
        "--agent",
        action=_Reply,
        nargs=2,
        metavar=("TYPE", "PROMPT"),
        help="the model starts a subagent of TYPE with PROMPT (its own turns follow)",
    )
    p.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="RULE",
        help="Claude Code: a permission rule for --allowedTools, e.g. 'Bash(echo:*)'",
    )
    p.add_argument("--home", type=Path, help="a folder copied into the scratch HOME first")
    p.add_argument("--no-observe", action="store_true", help="record the project's hooks only")
    p.add_argument("--system", action="store_true", help="print the whole system text too")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(replies=[])
    return p


def _load_script(path: Path) -> dict[str, Any]:
    raw = path.read_text(encoding="utf-8")
    doc = tomllib.loads(raw) if path.suffix == ".toml" else json.loads(raw)
    if not isinstance(doc, dict):
        raise Usage(f"{path}: a script is a table with `prompt` and `replies`")
    return doc


def _arguments(raw: Any) -> dict[str, Any] | str:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return str(raw)
    return value if isinstance(value, dict) else str(raw)


def reply(kind: str, host: str, values: Sequence[Any]) -> Reply:
    """One reply of the script in `host`'s own tool names."""
    if kind == "text":
        return Text(str(values[0]))
    if kind == "call":
        return Call(str(values[0]), _arguments(values[1]))
    if kind == "skill":
        if host == "claude":
            return Call("Skill", {"skill": str(values[0])})
        if host == "gemini":
            return Call("activate_skill", {"name": str(values[0])})
        raise Usage("Codex has no skill tool: its model reads SKILL.md with a tool call")
    if kind == "agent":
        kind_, prompt = str(values[0]), str(values[1])
        if host == "claude":
            return Call("Agent", {"subagent_type": kind_, "description": kind_, "prompt": prompt})
        if host == "gemini":
            return Call("invoke_agent", {"agent_name": kind_, "prompt": prompt})
        raise Usage("the Codex runner here does not script a subagent call")
    raise Usage(f"unknown reply {kind!r}")


def _from_file(entry: Any, host: str) -> Reply:
    if not isinstance(entry, dict):
        raise Usage(f"a reply is a table, not {entry!r}")
    if "text" in entry:
        return reply("text", host, [entry["text"]])
    if "call" in entry:
        return reply("call", host, [entry["call"], entry.get("arguments", {})])
    if "skill" in entry:
        return reply("skill", host, [entry["skill"]])
    if "agent" in entry:
        return reply("agent", host, [entry["agent"], entry.get("prompt", "")])
    raise Usage(f"a reply has `text`, `call`, `skill` or `agent`: {entry!r}")


def _copy_project(project: Path, to: Path) -> None:
    shutil.copytree(
        project, to, symlinks=True, ignore=lambda _d, names: [n for n in names if n in SKIPPED]
    )
    if (project / ".git").exists():
        (to / ".git").mkdir()  # the copy stays a repository root, without its history


def _run(
    host: str,
    binary: Path,
    copy: Path,
    home: Path,
    prompt: str,
    script: list[Reply],
    allow: Sequence[str],
) -> Turn:
    if host == "claude":
        args = ["--allowedTools", *allow] if allow else []
        return run_claude(binary, copy, home, prompt, script, args=args)
    if host == "codex":  # the copy trusted, so its .codex/ layer (and hooks.json) loads
        trusted = f'[projects."{copy}"]\ntrust_level = "trusted"\n'
        args = ["--dangerously-bypass-hook-trust"]
        return run_codex(binary, copy, home, prompt, script, config=trusted, args=args)
    return run_gemini(binary, copy, home, prompt, script, args=["--yolo"], settings=_settings(home))


def _settings(home: Path) -> dict[str, Any]:
    """The scratch home's Gemini settings (its observers) to keep beside the defaults."""
    try:
        doc = json.loads((home / ".gemini" / "settings.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _unscratch(text: str, pairs: Sequence[tuple[str, str]]) -> str:
    for old, new in pairs:
        text = text.replace(old, new)
    return text


def run(options: argparse.Namespace) -> tuple[Seen, dict[str, str]]:
    """Run the host as `options` say: what it showed its model, the scratch paths."""
    host, find = HOSTS[options.host]
    binary = find()
    if binary is None:
        raise Usage(f"{options.host} is not installed in .tools/ (run scripts/tools)")
    doc = _load_script(options.script) if options.script else {}
    script = [_from_file(e, host) for e in doc.get("replies") or ()]
    script += [reply(kind, host, values) for kind, values in options.replies]
    prompt = options.prompt or str(doc.get("prompt") or "go")
    allow = [*(doc.get("allow") or ()), *options.allow]
    project = options.project.resolve()
    with tempfile.TemporaryDirectory(prefix="hostloop-") as tmp:
        scratch = Path(tmp).resolve()
        copy, home, log = scratch / project.name, scratch / "home", scratch / "hooks.jsonl"
        _copy_project(project, copy)
        if options.home:
            shutil.copytree(options.home, home, symlinks=True)
        home.mkdir(exist_ok=True)
        labels = wrap_project(copy, scratch, log)
        if not options.no_observe:
            labels |= observe(home / OBSERVERS[host][0], OBSERVERS[host][1], scratch, log)
        turn = _run(host, binary, copy, home, prompt, script, allow)
        hooks = tuple(ran(log, labels))
        paths = {"project": str(copy), "home": str(home)}
        return seen(host, turn, hooks), paths


def main(argv: Sequence[str] | None = None) -> int:
    options = parser().parse_args(argv)
    try:
        s, paths = run(options)
    except (Usage, OSError, ValueError) as error:
        print(f"hostloop: {error}", file=sys.stderr)
        return 2
    pairs = [(paths["project"], str(options.project.resolve())), (paths["home"], "<home>")]
    if options.json:
        print(_unscratch(json.dumps({"version": 1, **s.to_json()}, indent=2), pairs))
    else:
        print(_unscratch(render(s, system=options.system), pairs), end="")
    return 0 if s.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

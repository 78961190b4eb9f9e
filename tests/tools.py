"""The pinned programs `scripts/tools` installs into `.tools/`, for differential tests.

Each finder returns the program's path, or None when it is not installed (no npm on the
machine); the fixtures in `tests/conftest.py` skip with that reason."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TOOLS = Path(__file__).resolve().parent.parent / ".tools"
CLAUDE_VERSION = "2.1.332"
CLAUDE_NEXT_VERSION = "2.1.337"  # the Agent SDK platform package's `claude` binary
INSPECTOR_VERSION = "0.15.0"
CODEX_VERSION = "0.171.0"
GEMINI_VERSION = "0.61.0"
CONFORMANCE_VERSION = "0.2.0-alpha.12"
CALL = 120  # seconds one call may take: a "did not hang" bound, not a speed claim


def claude_code() -> Path | None:
    """Claude Code's native binary at its pinned version."""
    path = TOOLS / f"claude-code-{CLAUDE_VERSION}" / "claude"
    return path if os.access(path, os.X_OK) else None


def claude_code_next() -> Path | None:
    """Claude Code's newest binary (from the Agent SDK's platform package) at its pin."""
    path = TOOLS / f"claude-code-{CLAUDE_NEXT_VERSION}" / "claude"
    return path if os.access(path, os.X_OK) else None


def codex() -> Path | None:
    """Codex's native binary at its pinned version (``vendor/<target>/bin/codex``)."""
    found = sorted((TOOLS / f"codex-{CODEX_VERSION}" / "vendor").glob("*/bin/codex"))
    return found[0] if found and os.access(found[0], os.X_OK) else None


def gemini_env(home: Path) -> dict[str, str]:
    """The environment Gemini CLI runs offline in with HOME `home`: no relaunch, and
    system settings files of its own in that home (none of the machine's)."""
    return {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "GEMINI_CLI_NO_RELAUNCH": "true",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / "system-settings.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / "system-defaults.json"),
    }


def gemini_cli() -> Path | None:
    """Gemini CLI's bundled entry script at its pinned version (run with node)."""
    path = (
        TOOLS / f"gemini-cli-{GEMINI_VERSION}" / "node_modules/@google/gemini-cli/bundle/gemini.js"
    )
    return path if path.is_file() and shutil.which("node") else None


def inspector_cli() -> Path | None:
    """The MCP Inspector CLI's entry script (run with node)."""
    path = (
        TOOLS
        / f"inspector-{INSPECTOR_VERSION}"
        / "node_modules/@modelcontextprotocol/inspector-cli/build/index.js"
    )
    return path if path.is_file() else None


def conformance() -> list[str] | None:
    """The argv of the MCP conformance suite's CLI on the Node.js 22 installed beside it."""
    root = TOOLS / f"conformance-{CONFORMANCE_VERSION}" / "node_modules"
    script = root / "@modelcontextprotocol/conformance/dist/index.js"
    nodes = sorted(root.glob("node-linux-*/bin/node"))
    if not script.is_file() or not nodes or not os.access(nodes[0], os.X_OK):
        return None
    return [str(nodes[0]), str(script)]


def claude_plugin(
    binary: Path, home: Path, cwd: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    """`claude plugin ARGS...` with a scratch HOME, offline, in `cwd`: what it did."""
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    return subprocess.run(
        [str(binary), "plugin", *args],
        capture_output=True,
        text=True,
        timeout=CALL,
        env=env,
        cwd=cwd,
        check=False,
    )


def claude_validate(binary: Path, plugin: Path, home: Path) -> dict[str, Any]:
    """`claude plugin validate --json PLUGIN` with a scratch HOME, offline: the report."""
    done = claude_plugin(binary, home, home, "validate", "--json", str(plugin))
    try:
        report: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError as error:
        raise AssertionError(f"claude plugin validate printed no JSON: {done.stderr}") from error
    return report


# --- Codex: `codex debug prompt-input` -----------------------------------------------------
# It prints the model-visible prompt as a JSON list of items. One developer message holds
# `<skills_instructions>`: a `### Skill roots` table (- `rN` = `DIR`) and one line per
# skill (- NAME: DESCRIPTION (file: rN/REL)); one user message holds the AGENTS.md text
# ("# AGENTS.md instructions for CWD" then the text between <INSTRUCTIONS> tags).
_ROOT_LINE = re.compile(r"^- `(r\d+)` = `(.+)`$")
_SKILL_LINE = re.compile(r"^- (.+?): (.*) \(file: (r\d+)/(.+)\)$")
_AGENTS = re.compile(
    r"^# AGENTS\.md instructions for .*\n\n<INSTRUCTIONS>\n(.*)\n</INSTRUCTIONS>$", re.S
)


@dataclass(frozen=True, slots=True)
class CodexSkill:
    """One line of Codex's skill list: the name and description as the model sees them,
    the SKILL.md path (its root from the roots table joined with the short path)."""

    name: str
    description: str
    path: Path
    root: Path


@dataclass(frozen=True, slots=True)
class CodexPrompt:
    """What Codex put in the prompt: every skill line in its order, the roots table in
    its order, and the AGENTS.md text (None when there is none). `system` is Codex's own
    root of bundled skills (``$CODEX_HOME/skills/.system``), which it writes itself."""

    skills: tuple[CodexSkill, ...]
    roots: tuple[Path, ...]
    instructions: str | None
    system: Path

    @property
    def own(self) -> list[CodexSkill]:
        """The skills of the project and home, without Codex's bundled ones."""
        return [s for s in self.skills if s.root != self.system]


def _texts(items: list[dict[str, Any]]) -> list[str]:
    return [
        part["text"]
        for item in items
        for part in item.get("content") or ()
        if isinstance(part, dict) and isinstance(part.get("text"), str)
    ]


def parse_codex_prompt(text: str, system: Path) -> CodexPrompt:
    """Codex's prompt JSON read into a `CodexPrompt`, line by line, exactly."""
    texts = _texts(json.loads(text))
    listing = [t for t in texts if t.startswith("<skills_instructions>")]
    agents = [m.group(1) for t in texts if (m := _AGENTS.match(t))]
    roots: dict[str, Path] = {}
    skills: list[CodexSkill] = []
    for line in (listing[0] if listing else "").splitlines():
        if root := _ROOT_LINE.match(line):
            roots[root.group(1)] = Path(root.group(2))
        elif (skill := _SKILL_LINE.match(line)) and skill.group(3) in roots:
            base = roots[skill.group(3)]
            path = base / skill.group(4)
            skills.append(CodexSkill(skill.group(1), skill.group(2), path, base))
    return CodexPrompt(tuple(skills), tuple(roots.values()), agents[0] if agents else None, system)


def codex_prompt(binary: Path, project: Path, home: Path) -> CodexPrompt:
    """`codex debug prompt-input` run in `project` with HOME=`home` and CODEX_HOME=
    `home/.codex`, offline and logged out (it needs neither): what the prompt shows."""
    return parse_codex_prompt(codex_prompt_text(binary, project, home), codex_system(home))


def codex_system(home: Path) -> Path:
    """Codex's root of bundled skills under HOME=`home` (`codex_prompt`'s CODEX_HOME)."""
    return home / ".codex" / "skills" / ".system"


def codex_prompt_text(binary: Path, project: Path, home: Path) -> str:
    """The JSON `codex debug prompt-input` prints, run as `codex_prompt` runs it."""
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    env = {
        "HOME": str(home),
        "CODEX_HOME": str(codex_home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    done = subprocess.run(
        [str(binary), "debug", "prompt-input"],
        capture_output=True,
        text=True,
        timeout=CALL,
        env=env,
        cwd=project,
    )
    if done.returncode != 0:
        raise AssertionError(f"codex debug prompt-input failed: {done.stderr}")
    return done.stdout


def codex_skills(binary: Path, project: Path, home: Path) -> list[CodexSkill]:
    """The project's and home's skills Codex lists for `project`, in its order."""
    return codex_prompt(binary, project, home).own


# --- Gemini CLI: `gemini skills list --all --debug` ----------------------------------------
# stdout: "Discovered Agent Skills:" then one block per skill, a blank line between:
#   NAME [Enabled|Disabled][ [Built-in]]
#     Description: TEXT          (the line is left out when there is no description text)
#     Location:    PATH
# stderr (with --debug): "Skill conflict detected: ..." lines and the memory files read.
_GEMINI_HEAD = re.compile(r"^(.+?) \[(Enabled|Disabled)\]( \[Built-in\])?$")
_CONFLICT = re.compile(
    r'^Skill conflict detected: "(.+)" from "(.+)" is overriding the same skill from "(.+)"\.$'
)
_MEMORY = re.compile(r"Successfully read and processed imports: (.+) \(Length: \d+\)$")


@dataclass(frozen=True, slots=True)
class GeminiSkill:
    """One skill Gemini CLI lists: name, description ("" when it shows none), SKILL.md
    path, whether it is enabled and whether it is one of Gemini's own."""

    name: str
    description: str
    path: Path
    enabled: bool = True
    builtin: bool = False


@dataclass(frozen=True, slots=True)
class GeminiConflict:
    """``Skill conflict detected``: `winner` (a SKILL.md path) overrides `loser`."""

    name: str
    winner: Path
    loser: Path


@dataclass(frozen=True, slots=True)
class GeminiView:
    """What Gemini CLI listed (its order), the conflicts it reported (its order) and the
    context (GEMINI.md) files it read, each once, in the order it first read them."""

    skills: tuple[GeminiSkill, ...]
    conflicts: tuple[GeminiConflict, ...]
    memory: tuple[Path, ...]

    @property
    def own(self) -> list[GeminiSkill]:
        """The skills of the project and home, without Gemini's built-in ones."""
        return [s for s in self.skills if not s.builtin]


def parse_gemini_list(stdout: str, stderr: str) -> GeminiView:
    """`gemini skills list --all --debug` output read into a `GeminiView`, exactly."""
    skills: list[GeminiSkill] = []
    head: re.Match[str] | None = None
    description = ""
    for line in stdout.splitlines():
        if head is None:
            head = _GEMINI_HEAD.match(line)
            description = ""
        elif line.startswith("  Description: "):
            description = line.removeprefix("  Description: ")
        elif line.startswith("  Location:    "):
            path = Path(line.removeprefix("  Location:    "))
            enabled, builtin = head.group(2) == "Enabled", head.group(3) is not None
            skills.append(GeminiSkill(head.group(1), description, path, enabled, builtin))
            head = None
    conflicts = [
        GeminiConflict(m.group(1), Path(m.group(2)), Path(m.group(3)))
        for line in stderr.splitlines()
        if (m := _CONFLICT.match(line))
    ]
    memory = [Path(m.group(1)) for line in stderr.splitlines() if (m := _MEMORY.search(line))]
    return GeminiView(tuple(skills), tuple(conflicts), tuple(dict.fromkeys(memory)))


# No update check, no usage statistics, no telemetry: nothing is sent anywhere.
GEMINI_SETTINGS = {
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}


def gemini_view(script: Path, project: Path, home: Path, *, trusted: bool = True) -> GeminiView:
    """`gemini skills list --all --debug` run in `project` with HOME=`home`: a settings
    file that turns off updates and statistics, `project` in trustedFolders.json when
    `trusted` (else no folder is trusted), and system settings pointed into `home` so
    the machine's /etc/gemini-cli is not read. No login is needed to list skills."""
    return parse_gemini_list(*gemini_list_output(script, project, home, trusted=trusted))


def gemini_list_output(
    script: Path, project: Path, home: Path, *, trusted: bool = True
) -> tuple[str, str]:
    """The stdout and stderr of `gemini skills list --all --debug`, run as `gemini_view`
    runs it."""
    gemini = home / ".gemini"
    gemini.mkdir(parents=True, exist_ok=True)
    settings = gemini / "settings.json"
    if not settings.exists():
        settings.write_text(json.dumps(GEMINI_SETTINGS), encoding="utf-8")
    folders = {str(project): "TRUST_FOLDER"} if trusted else {}
    (gemini / "trustedFolders.json").write_text(json.dumps(folders), encoding="utf-8")
    env = gemini_env(home)
    node = shutil.which("node") or "node"
    done = subprocess.run(
        [node, str(script), "skills", "list", "--all", "--debug"],
        capture_output=True,
        text=True,
        timeout=CALL,
        env=env,
        cwd=project,
    )
    if done.returncode != 0:
        raise AssertionError(f"gemini skills list failed: {done.stderr}")
    return done.stdout, done.stderr


def gemini_skills(
    script: Path, project: Path, home: Path, *, trusted: bool = True
) -> list[GeminiSkill]:
    """The project's and home's skills Gemini CLI lists for `project`, in its order."""
    return gemini_view(script, project, home, trusted=trusted).own

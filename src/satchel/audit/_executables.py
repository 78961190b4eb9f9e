"""Rules for declared executables: hooks, MCP servers, allowed-tools, agent types.

These read the values the loaders built (`HookSpec`, `McpServer`, `Skill`,
`AgentType`), so an audit sees exactly what a session would act on. Nothing starts.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator, Sequence
from pathlib import Path

from satchel.agents import AgentType
from satchel.audit._model import Finding
from satchel.core._text import escape
from satchel.hooks._spec import HookSpec
from satchel.mcp._spec import McpServer
from satchel.plugins._model import Plugin
from satchel.skills._model import Skill

__all__ = [
    "LOADER_VARIABLES",
    "agent_findings",
    "agent_tools_findings",
    "allowed_tools_findings",
    "hook_findings",
    "program_findings",
    "script_findings",
    "server_findings",
]

# Variables that make a program load code it was not given on its command line.
LOADER_VARIABLES = frozenset(
    (
        "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES",
        "DYLD_LIBRARY_PATH", "NODE_OPTIONS", "NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP",
        "PYTHONHOME", "PYTHONINSPECT", "BASH_ENV", "ENV", "ZDOTDIR", "PERL5OPT", "PERL5LIB",
        "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "GIT_SSH_COMMAND",
        "GIT_EXEC_PATH", "PATH",
    )
)  # fmt: skip
RUNNERS = {"npx": "npm", "bunx": "npm", "pnpx": "npm", "uvx": "pypi", "pipx": "pypi"}
SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "fish", "cmd", "powershell", "pwsh"))
SHELL_TOOLS = frozenset(("bash", "shell", "run_shell_command", "exec_command"))
_BROAD = frozenset(("", "*", ":*", "*:*", "* *", "**"))
_PINNED = {
    "npm": re.compile(r"^(?:@[^/@\s]+/)?[^@\s]+@v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$"),
    "pypi": re.compile(r"^[A-Za-z0-9._\[\],-]+==\d+(?:\.\d+)*(?:[.-]?[0-9A-Za-z]+)*$"),
}
# Runner options that take a value: the word after them is not the package.
_VALUED = frozenset(("-p", "--package", "--from", "--with", "--python", "-c", "--call"))


def hook_findings(
    spec: HookSpec, source: str, trust: str, skipped: str | None = None
) -> Iterator[Finding]:
    """One `A-HOOK-PRESENT` for a hook: its event, matcher, source and command
    (`skipped`: why the loader will not run it, even in a trusted folder)."""
    command = spec.command if spec.args is None else shlex.join([spec.command, *spec.args])
    matcher = f" (matcher {_q(spec.matcher)})" if spec.matcher else ""
    message = f"{source} hook on {spec.event}{matcher} runs {_q(command)}"
    if skipped is not None:
        message += f" (skipped: {skipped})"
    yield Finding.of("A-HOOK-PRESENT", message, spec.path, None, trust)


def server_findings(server: McpServer, trust: str) -> Iterator[Finding]:
    """What an MCP server would start or reach, and what makes it riskier."""
    where = f"MCP server {_q(server.name)}" + (
        f" of plugin {server.plugin}" if server.plugin else ""
    )
    if not server.enabled:
        where += " (declared with enabled = false)"
    if server.transport != "stdio":
        message = f"{where} connects to {_q(_no_query(server.url or ''))} ({server.transport})"
        yield Finding.of("A-MCP-REMOTE-URL", message, server.path, None, trust)
        helper = server.extras.get("headersHelper")
        if isinstance(helper, str) and helper.strip():
            message = f"{where} runs {_q(helper)} for its request headers"
            yield Finding.of("A-MCP-HEADERS-HELPER", message, server.path, None, trust)
        return
    argv = [server.command or "", *server.args]
    env = f" with env {', '.join(sorted(server.env))}" if server.env else ""
    message = f"{where} starts {_q(shlex.join(argv))}{env}"
    yield Finding.of("A-MCP-SERVER", message, server.path, None, trust)
    yield from _unpinned(where, argv, server.path, trust)
    yield from _shell(where, argv, server.path, trust)
    for name in sorted(server.env):
        if name.upper() in LOADER_VARIABLES:
            message = f"{where} sets {name}, which makes the program load other code"
            yield Finding.of("A-MCP-ENV-DANGEROUS", message, server.path, None, trust)


def script_findings(plugin: Plugin, trust: str) -> Iterator[Finding]:
    """One `A-PLUGIN-JS` for each workflow and hooks module: JavaScript Claude Code runs
    (in its workflow sandbox, or in its engine) and satchel only lists."""
    for workflow in plugin.workflows:
        message = (
            f"plugin {plugin.name} ships workflow {_q(workflow.id)}: a script Claude Code runs"
        )
        yield Finding.of("A-PLUGIN-JS", message, workflow.path, None, trust)
    for module in plugin.modules:
        hooks = ", ".join(module.events) or "no event satchel can read"
        message = f"plugin {plugin.name} ships hooks module {_q(module.relative)} hooking {hooks}"
        yield Finding.of("A-PLUGIN-JS", message, module.path, None, trust)


def program_findings(plugin: Plugin, trust: str) -> Iterator[Finding]:
    """What a plugin's language servers, monitors and bin/ programs would run: one
    `A-LSP-SERVER` per server (and what makes it riskier, as for an MCP server), one
    `A-MONITOR` per monitor, one `A-PLUGIN-BIN` for its bin/."""
    for server in plugin.lsp_servers:
        where = f"language server {_q(server.name)} of plugin {plugin.name}"
        argv = [server.command, *server.args]
        env = f" with env {', '.join(sorted(server.env))}" if server.env else ""
        message = f"{where} starts {_q(shlex.join(argv))}{env}"
        yield Finding.of("A-LSP-SERVER", message, server.path, None, trust)
        yield from _unpinned(where, argv, server.path, trust)
        yield from _shell(where, argv, server.path, trust)
    for monitor in plugin.monitors:
        armed = "at session start" if monitor.skill is None else f"when {monitor.skill} runs"
        message = (
            f"monitor {_q(monitor.name)} of plugin {plugin.name} runs {_q(monitor.command)} "
            f"in the background, armed {armed}"
        )
        yield Finding.of("A-MONITOR", message, monitor.path, None, trust)
    settings = plugin.settings
    line = None if settings is None else settings.subagent_status_line
    command = None if line is None else line.get("command")
    if isinstance(command, str) and settings is not None:
        message = f"plugin {plugin.name}'s settings run {_q(command)} as the subagent status line"
        yield Finding.of("A-STATUS-LINE", message, settings.sources[-1], None, trust)
    yield from _option_defaults(plugin, trust)
    if plugin.bin:
        names = ", ".join(plugin.bin)
        message = f"plugin {plugin.name} puts bin/ programs first on the shell's PATH: {names}"
        yield Finding.of("A-PLUGIN-BIN", message, plugin.root / "bin", None, trust)


_OPTION = re.compile(r"\$\{user_config\.(\w+)\}")


def _option_defaults(plugin: Plugin, trust: str) -> Iterator[Finding]:
    """A server (MCP or language) whose command, arguments or environment take a
    ``${user_config.KEY}`` that has a default: it runs with that default until the user
    sets one (Claude Code 2.1.337's ``runs.optionDefaults``). Values are never shown."""
    defaults = {o.key for o in plugin.user_config if o.default is not None}
    servers = [
        *(("MCP server", s.name, [s.command or "", *s.args], s.env, s.path)
          for s in plugin.mcp_servers if s.transport == "stdio"),
        *(("language server", s.name, [s.command, *s.args], s.env, s.path)
          for s in plugin.lsp_servers),
    ]  # fmt: skip
    for kind, name, argv, env, path in servers:
        used = {k for text in [*argv, *env.values()] for k in _OPTION.findall(str(text))}
        for key in sorted(used & defaults):
            message = (
                f"{kind} {_q(name)} of plugin {plugin.name} runs with the default of its "
                f"option {_q(key)} until the user sets one"
            )
            yield Finding.of("A-OPTION-DEFAULT", message, path, None, trust)


def allowed_tools_findings(skill: Skill, line: int | None, trust: str) -> Iterator[Finding]:
    """`allowed-tools` entries that let the skill run any shell command unasked."""
    for entry in skill.allowed_tools:
        name, _, rest = entry.strip().partition("(")
        pattern = rest[:-1].strip() if rest.endswith(")") else rest.strip()
        if name.strip().lower() in SHELL_TOOLS and pattern in _BROAD:
            message = f"skill {_q(skill.name)} allows {_q(entry)}: any shell command, unasked"
            yield Finding.of("A-ALLOWED-TOOLS-BROAD", message, skill.path, line, trust)


def agent_findings(agent: AgentType, trust: str) -> Iterator[Finding]:
    """Agent types whose safety lets them act without asking."""
    written = agent.safety_as_written
    note = f" (the file asks for {written})" if written and written != agent.safety else ""
    if agent.safety == "yolo":
        message = f"agent type {_q(agent.name)} has safety yolo: it approves every tool call"
        yield Finding.of("A-AGENT-YOLO", message, agent.path, None, trust)
    elif agent.safety == "destructive" or written in ("yolo", "destructive"):
        message = (
            f"agent type {_q(agent.name)} has safety {agent.safety}: it may run destructive "
            f"tools without asking{note}"
        )
        yield Finding.of("A-AGENT-DESTRUCTIVE", message, agent.path, None, trust)


def agent_tools_findings(agent: AgentType, line: int | None, trust: str) -> Iterator[Finding]:
    """An agent type's tool list entries that grant any shell command: ``Bash``,
    ``Bash(*)``, ``*`` (every tool). An agent with no list inherits the session's tools
    and is not reported: it can do no more than the session it runs in."""
    for entry in agent.tools_as_written or agent.tools or ():
        name, _, rest = entry.strip().partition("(")
        pattern = rest[:-1].strip() if rest.endswith(")") else rest.strip()
        if entry.strip() in ("*", "all"):
            why = "every tool, any shell command included"
        elif name.strip().lower() in (*SHELL_TOOLS, "execute_command") and pattern in _BROAD:
            why = "any shell command, unasked"
        else:
            continue
        message = f"agent type {_q(agent.name)} may use {_q(entry)}: {why}"
        yield Finding.of("A-AGENT-TOOLS-BROAD", message, agent.path, line, trust)


def _unpinned(where: str, argv: Sequence[str], path: Path | None, trust: str) -> Iterator[Finding]:
    runner = os.path.basename(argv[0]).lower()
    rest = list(argv[1:])
    if runner == "pipx" and rest[:1] == ["run"]:
        rest = rest[1:]
    elif runner == "pipx":
        return
    registry = RUNNERS.get(runner)
    if registry is None:
        return
    package = _package(rest)
    if package is None or not _PINNED[registry].match(package):
        shown = "no package" if package is None else _q(package)
        message = f"{where} runs {runner} with {shown}: not an exact version"
        yield Finding.of("A-MCP-UNPINNED-PACKAGE", message, path, None, trust)


def _package(args: Sequence[str]) -> str | None:
    """The package a runner is asked for: the value of --package/--from when given,
    else the first word that is not an option."""
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg in ("-p", "--package", "--from") and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(("--package=", "--from=")):
            return arg.partition("=")[2]
        if arg in _VALUED:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def _shell(where: str, argv: Sequence[str], path: Path | None, trust: str) -> Iterator[Finding]:
    shell = os.path.basename(argv[0]).lower().removesuffix(".exe")
    flags = {a.lower() for a in argv[1:] if a.startswith(("-", "/"))}
    if shell in SHELLS and flags & {"-c", "-lc", "/c", "-command", "-encodedcommand"}:
        message = f"{where} runs its command through {shell} {sorted(flags)[0]}"
        yield Finding.of("A-MCP-SHELL-WRAPPER", message, path, None, trust)


def _no_query(url: str) -> str:
    return url.split("?", 1)[0] + ("?***" if "?" in url else "")


def _q(text: str, width: int = 120) -> str:
    line = escape(text, newlines=True)
    return '"' + (line if len(line) <= width else line[: width - 3] + "...") + '"'

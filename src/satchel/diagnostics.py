"""Diagnostics: what loading found wrong, as values with stable codes.

Every loader returns values plus a tuple of `Diagnostic`. A code names one kind of
problem and never changes meaning; `CODES` is the registry, and `docs/diagnostics.md`
lists the same codes (a test keeps the two in step).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["CODES", "Diagnostic", "Severity", "diagnostic", "type_name"]

Severity = Literal["error", "warning", "info"]

SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")

# code -> (default severity, what it means). Keep sorted by code.
CODES: dict[str, tuple[Severity, str]] = {
    "agent.builtin.protected": (
        "warning",
        "a project agent file tries to redefine a built-in agent type; it is skipped",
    ),
    "agent.field.unknown": (
        "warning",
        "an agent file holds a key satchel does not know; it is ignored",
    ),
    "agent.invalid": ("error", "an agent definition could not be loaded"),
    "agent.limit": ("warning", "more agent files or bytes than the limits allow"),
    "agent.model.alias": (
        "info",
        "an agent's model is not in provider/model form; the session model is used",
    ),
    "agent.name.invalid": ("warning", "an agent name breaks the naming rule"),
    "agent.safety.capped": (
        "warning",
        "a project or plugin agent asked for more safety latitude than it may have",
    ),
    "agent.shadowed": (
        "warning",
        "an agent type is hidden by a same-named one of higher precedence",
    ),
    "agent.tool.unknown": (
        "info",
        "an agent names a tool satchel does not map; it is kept as written",
    ),
    "cli.io.error": ("error", "a file or directory the command needed could not be used"),
    "cli.mcp.sdk-missing": (
        "error",
        "satchel mcp check and satchel serve need the mcp extra, which is not installed",
    ),
    "cli.skill.exists": ("error", "the skill to create already has a SKILL.md"),
    "cli.skill.invalid": ("error", "the skill to create breaks the Agent Skills spec"),
    "cli.skill.unknown": ("error", "no skill that loads has the name asked for"),
    "cli.skill.unreadable": ("error", "the body of the skill asked for could not be read"),
    "cli.usage": ("error", "the command line is not one satchel understands (exit 2)"),
    "command.builtin": (
        "warning",
        "a command file is named like a built-in command and is skipped",
    ),
    "command.name.collision": ("warning", "two commands in one root have the same name"),
    "command.name.invalid": ("warning", "a command name breaks the [a-z0-9-]+ rule"),
    "command.read.error": ("error", "a command file could not be read"),
    "command.shadowed": (
        "warning",
        "a command is hidden by a same-named one of higher precedence",
    ),
    "config.invalid": (
        "warning",
        "satchel's config.toml could not be read; its settings are ignored",
    ),
    "config.mcp.invalid": (
        "warning",
        "an MCP server in the host's config is invalid; it is skipped",
    ),
    "config.trust.invalid": (
        "warning",
        "the list of trusted folders could not be read; no folder is trusted",
    ),
    "discovery.limit": ("warning", "a bounded walk stopped at its depth or directory limit"),
    "discovery.root.not-directory": ("warning", "a configured skills root is not a directory"),
    "discovery.root.unreadable": ("warning", "a skills root could not be listed"),
    "discovery.untrusted": (
        "info",
        "project skills, commands, agents or plugins were not loaded: the project is not trusted",
    ),
    "encoding.not-utf8": ("error", "the file is not valid UTF-8"),
    "encoding.nul": ("error", "the file holds a NUL byte"),
    "exec.env.refused": (
        "warning",
        "an environment variable that can inject code into a process was refused",
    ),
    "exec.interpolation.failed": ("warning", "a shell interpolation command failed or timed out"),
    "exec.interpolation.refused": ("warning", "a shell interpolation command was not run"),
    "exec.output.truncated": (
        "warning",
        "a process wrote more output than the cap; the rest was cut",
    ),
    "exec.start": ("error", "a process could not be started"),
    "exec.timeout": ("error", "a process ran past its timeout and its process group was killed"),
    "frontmatter.field.type": ("error", "a frontmatter field has the wrong type"),
    "frontmatter.missing": ("error", "the file does not open with a --- frontmatter fence"),
    "frontmatter.not-mapping": ("error", "the frontmatter is not a YAML mapping"),
    "frontmatter.too-large": ("error", "the frontmatter is larger than the cap"),
    "frontmatter.unterminated": ("error", "the frontmatter has no closing --- fence"),
    "frontmatter.yaml.alias": ("error", "the frontmatter uses YAML anchors or aliases"),
    "frontmatter.yaml.colon-fallback": (
        "warning",
        "the frontmatter parsed only after the lenient retry (a value quoted or read whole)",
    ),
    "frontmatter.yaml.depth": ("error", "the frontmatter nests deeper than the limit"),
    "frontmatter.yaml.duplicate-key": ("error", "a key appears twice in one mapping"),
    "frontmatter.yaml.merge": ("error", "the frontmatter uses a YAML merge key (<<)"),
    "frontmatter.yaml.number": ("error", "the frontmatter holds a number too long to read"),
    "frontmatter.yaml.syntax": ("error", "the frontmatter is not valid YAML"),
    "frontmatter.yaml.tag": (
        "error",
        "the frontmatter uses a YAML tag outside the safe core schema",
    ),
    "hook.decision.misplaced": (
        "warning",
        "a hook put permissionDecision at the top level of its JSON; it is not honoured",
    ),
    "hook.env.ignored": (
        "warning",
        "a line a hook wrote to CLAUDE_ENV_FILE is not an export satchel reads back",
    ),
    "hook.event.unknown": ("warning", "a hook names an event satchel does not know; it is kept"),
    "hook.failed": ("warning", "a hook exited non-zero (not 2), crashed or could not start"),
    "hook.file.invalid": (
        "warning",
        "a hooks.toml or settings.json, or one hook in it, is invalid",
    ),
    "hook.matcher.invalid": (
        "warning",
        "a hook's matcher is an invalid or unsafe regex; the hook never runs",
    ),
    "hook.output.invalid": ("warning", "a hook's output could not be read as its protocol says"),
    "hook.output.truncated": (
        "warning",
        "a hook wrote more output than the cap; the cut output counts as unparseable",
    ),
    "hook.rewrite.conflict": (
        "warning",
        "hooks rewrote one tool input differently; the last in declared order wins",
    ),
    "hook.timeout": ("warning", "a hook ran past its timeout; its process group was killed"),
    "hook.timeout.capped": (
        "warning",
        "a hook declares a timeout above the runner's cap; it runs for the cap at most",
    ),
    "hook.untrusted": ("info", "the project's hooks do not run: the project is not trusted"),
    "instructions.read.error": ("error", "an instruction file could not be read"),
    "instructions.replaced": (
        "info",
        "CLAUDE.md was not read because the directory has AGENTS.md",
    ),
    "instructions.truncated": ("warning", "instruction files went past the byte cap and were cut"),
    "install.archive.duplicate": (
        "error",
        "an archive holds one path twice (up to case and Unicode form)",
    ),
    "install.archive.invalid": ("error", "a download or file is not an archive satchel reads"),
    "install.archive.link": (
        "error",
        "an archive holds a hardlink, a link leaving its tree, or writes through a link",
    ),
    "install.archive.path": (
        "error",
        "an archive entry's path is absolute, has .., or is too deep",
    ),
    "install.archive.special": (
        "error",
        "an archive holds a device, a FIFO or another special file",
    ),
    "install.archive.too-large": (
        "error",
        "an archive passes the size, file-count or compression-ratio bound",
    ),
    "install.commit.unreachable": (
        "error",
        "a pinned commit is not reachable from any branch or tag of the repository",
    ),
    "install.fetch.failed": ("error", "a source could not be fetched"),
    "install.git.lfs-pointer": (
        "warning",
        "an installed file is a Git LFS pointer; its content was not fetched",
    ),
    "install.git.submodule-ignored": (
        "warning",
        "a repository has submodules; they are not fetched",
    ),
    "install.integrity": ("error", "an installed or fetched tree does not match its locked hash"),
    "install.lock.invalid": ("error", "the lock file could not be read"),
    "install.lock.missing": ("error", "install --frozen found no lock file in the scope"),
    "install.not-installed": ("error", "no skill or plugin of that name is in the lock file"),
    "install.npm.scripts": (
        "warning",
        "an npm package declares lifecycle scripts; they are never run",
    ),
    "install.plugin.partial": (
        "warning",
        "a plugin shown or installed will not load everything its manifest declares",
    ),
    "install.ref.moved": ("warning", "a ref now names another commit than the lock records"),
    "install.root.escape": (
        "error",
        "a project's install directory is a symlink leading out of the project",
    ),
    "install.skill.exists": (
        "error",
        "a skill or plugin satchel did not install is where it would install one",
    ),
    "install.skill.invalid": ("error", "a skill or plugin to install fails validation"),
    "install.skill.none": ("error", "the source holds no skill or plugin"),
    "install.skill.unknown": ("error", "a picked skill is not in the source"),
    "install.source.invalid": ("error", "the text given is not a source satchel can read"),
    "mcp.message.too_deep": (
        "warning",
        "an MCP server answered a call with JSON nesting too deep to read; the call failed",
    ),
    "mcp.serve.address.refused": (
        "error",
        "satchel serve --http was given an address that is not loopback without --allow-remote",
    ),
    "mcp.serve.cursor.invalid": ("error", "a resources/list cursor the server never gave"),
    "mcp.serve.prompt.arguments": (
        "error",
        "a prompt was asked for with an argument it does not take, or without a required one",
    ),
    "mcp.serve.prompt.unknown": ("error", "no served prompt has the name asked for"),
    "mcp.serve.tool.denied": (
        "error",
        "a before_tool_use hook denied a served tool call, or asked for a user the server lacks",
    ),
    "mcp.serve.uri.invalid": ("error", "a resource URI is not skill://<skill>/<path>"),
    "mcp.server.authorization_required": (
        "error",
        "one of the host's MCP servers answered that it needs authorization",
    ),
    "mcp.server.connection_failed": (
        "error",
        "one of the host's MCP servers failed to start, connect or finish the handshake",
    ),
    "mcp.server.shadowed": (
        "warning",
        "an MCP server is hidden by a same-named one of higher precedence",
    ),
    "mcp.tool.collision": (
        "warning",
        "two MCP tools or prompts have the same host name; the later one is hidden",
    ),
    "permission.rule.invalid": ("warning", "an allowed-tools or permission rule cannot be parsed"),
    "plugin.agent.invalid": (
        "warning",
        "one agent document of a plugin failed validation; the rest of the plugin loads",
    ),
    "plugin.agents.unsupported": (
        "info",
        "plugin agents recognised and not loaded by a declarative-only client",
    ),
    "plugin.compatibility.adapter_unavailable": (
        "error",
        "the only manifest found is one satchel recognises and does not read (Gemini CLI)",
    ),
    "plugin.compatibility.executable_format_unsupported": (
        "warning",
        "a plugin's code (JS/TS) is detected and never run",
    ),
    "plugin.compatibility.format_ambiguous": (
        "error",
        "a directory carries manifests of more than one foreign format (refused by setting)",
    ),
    "plugin.compatibility.format_unrecognized": ("error", "no supported plugin manifest found"),
    "plugin.compatibility.manifest_unused": (
        "info",
        "a directory holds several hosts' manifests; one is read, the others are named",
    ),
    "plugin.connectors.invalid": ("warning", "connectors.json failed to load"),
    "plugin.disabled": ("info", "a plugin is disabled in the config file"),
    "plugin.extension.invalid": (
        "warning",
        "the manifest's extensions field is not an object, or an extension is invalid",
    ),
    "plugin.hooks.invalid": ("warning", "one hook entry of a plugin failed validation"),
    "plugin.hooks.unsupported": (
        "info",
        "plugin hooks recognised and not run by a declarative-only client",
    ),
    "plugin.knowledge.invalid": ("warning", "one knowledge folder of a plugin failed validation"),
    "plugin.libraries.invalid": ("warning", "libraries.json failed to load"),
    "plugin.library.alias_collision": (
        "warning",
        "a library alias is shared across plugins and dropped from all",
    ),
    "plugin.library.invalid": ("warning", "one library path is invalid"),
    "plugin.manifest.field.unknown": (
        "warning",
        "the manifest has a top-level field the format does not define; it is ignored",
    ),
    "plugin.manifest.invalid": ("error", "the plugin manifest is missing, unreadable or invalid"),
    "plugin.mcp.authorization_required": ("error", "an MCP server needs authorization"),
    "plugin.mcp.connection_failed": ("error", "an MCP server did not answer"),
    "plugin.mcp.invalid": ("warning", "mcp.json, or one server entry in it, is invalid"),
    "plugin.mcp.transport_unsupported": (
        "warning",
        "an MCP server entry uses a transport satchel does not start",
    ),
    "plugin.mcp.unsupported": (
        "info",
        "plugin MCP servers recognised and not started by a declarative-only client",
    ),
    "plugin.name.collision": ("error", "two plugins share a name at the same scope"),
    "plugin.namespace.collision": ("error", "two plugins claim one namespace"),
    "plugin.namespace.reserved": ("error", "the plugin's namespace is reserved"),
    "plugin.path.outside_root": ("error", "a declared path escapes the plugin root"),
    "plugin.rules.unsupported": ("info", "a Cursor plugin's rules are recognised, not loaded"),
    "plugin.schema.version_unsupported": ("error", "unsupported Agent Plugins schema version"),
    "plugin.shadowed": ("warning", "a user plugin is hidden by a project plugin of the same name"),
    "plugin.skill.invalid": ("warning", "one SKILL.md of a plugin failed to parse"),
    "plugin.tool_override.unused": ("warning", "a toolOverrides key matched no tool"),
    "resource.area": ("error", "a resource path is outside the folders the tool may read"),
    "resource.hardlink": ("error", "a resource file has more than one hard link"),
    "resource.missing": ("error", "no file at the resource path"),
    "resource.not-regular": ("error", "a resource is not a regular file"),
    "resource.not-text": ("error", "a resource is not UTF-8 text"),
    "resource.path.absolute": ("error", "a resource path is absolute or names a drive or share"),
    "resource.path.invalid": (
        "error",
        "a resource path is empty, too long, or holds a character refused in paths",
    ),
    "resource.path.traversal": ("error", "a resource path has a .. segment"),
    "resource.symlink.escape": (
        "error",
        "a symlink on a resource path leads out of the skill directory",
    ),
    "resource.symlink.loop": ("error", "symlinks on a resource path loop or nest too deep"),
    "resource.too-large": ("error", "a resource is larger than the cap"),
    "resource.unreadable": ("error", "a resource could not be opened or read"),
    "session.context.collision": (
        "error",
        "the host already has a context segment with the session's id",
    ),
    "session.history.unreadable": (
        "warning",
        "an entry of a transcript could not be read and was skipped",
    ),
    "session.max-active": ("error", "activating one more skill would pass max_active"),
    "session.skill.inactive": ("error", "the tool needs the skill to be active first"),
    "session.skill.unknown": ("error", "no skill of that name is available to the session"),
    "session.skills.off": ("error", "skills are turned off for this session"),
    "session.tool.arguments": (
        "error",
        "a tool call's arguments do not fit the tool's input schema",
    ),
    "session.tool.collision": (
        "error",
        "the host already has a tool with one of the session's tool names",
    ),
    "session.tool.failed": ("error", "a tool failed inside satchel: a bug, reported as a result"),
    "session.tool.not-allowed": (
        "error",
        "an active skill's allowed-tools does not allow the tool call",
    ),
    "session.tool.unknown": ("error", "a tool call names a tool the session does not have"),
    "skill.allowed-tools.invalid": (
        "warning",
        "allowed-tools is neither a string nor a list of strings",
    ),
    "skill.compatibility.invalid": (
        "warning",
        "compatibility is empty or longer than 500 characters",
    ),
    "skill.description.missing": ("error", "the skill has no description"),
    "skill.description.placeholder": (
        "error",
        "the description is a placeholder (TODO...); an error when strict, else a warning",
    ),
    "skill.description.too-long": ("warning", "the description is longer than 1024 characters"),
    "skill.field.deprecated": ("info", "a deprecated top-level field was moved into metadata"),
    "skill.field.unknown": (
        "info",
        "a frontmatter field outside the spec and the known host extras",
    ),
    "skill.file.misnamed": ("warning", "a skill file is not named exactly SKILL.md"),
    "skill.file.not-regular": ("error", "SKILL.md is not a regular file"),
    "skill.file.twin": ("warning", "SKILL.md and skill.md both exist in one directory"),
    "skill.index.omitted": (
        "warning",
        "a skill is left out of the index by its cap on skills or bytes",
    ),
    "skill.metadata.invalid": ("warning", "metadata is not a mapping of strings to strings"),
    "skill.name.collision": ("warning", "two skills in one root have the same name"),
    "skill.name.invalid": ("warning", "the name breaks the Agent Skills name rule"),
    "skill.name.mismatch": ("warning", "the name differs from the skill's directory name"),
    "skill.name.missing": ("warning", "the frontmatter has no name; the directory name is used"),
    "skill.name.too-long": ("warning", "the name is longer than 64 characters"),
    "skill.read.error": ("error", "SKILL.md could not be read"),
    "skill.shadowed": ("warning", "a skill is hidden by a same-named skill of higher precedence"),
    "skill.size": ("error", "SKILL.md is larger than the size cap"),
    "skill.symlink.escape": ("error", "SKILL.md is a symlink that leaves its skill directory"),
    "skill.symlink.loop": ("error", "a symlink loop where a skill was expected"),
    "skill.text.hidden-unicode": (
        "warning",
        "name or description holds invisible, bidi or control characters",
    ),
    "skill.write.failed": ("error", "a skill defined in code could not be written to disk"),
    "trust.changed": (
        "error",
        "a project hook or MCP server changed, or is new, since the folder was trusted",
    ),
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found while loading or validating.

    `path` is the file (or directory) concerned and `line` a 1-based line in it when
    known. `hint` says how to fix it, when there is something to say.
    """

    code: str
    severity: Severity
    message: str
    path: Path | None = None
    line: int | None = None
    hint: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "path": None if self.path is None else str(self.path),
            "line": self.line,
            "hint": self.hint,
        }


def diagnostic(
    code: str,
    message: str,
    path: Path | None = None,
    *,
    line: int | None = None,
    hint: str | None = None,
    severity: Severity | None = None,
) -> Diagnostic:
    """Build a diagnostic for a registered code; an unknown code is a satchel bug."""
    default, _ = CODES[code]
    return Diagnostic(code, severity or default, message, path, line, hint)


_TYPE_NAMES = {
    bool: "a boolean",
    int: "a number",
    float: "a number",
    list: "a list",
    dict: "a mapping",
    str: "a string",
    type(None): "null",
}


def type_name(value: object) -> str:
    """How messages name the type of a parsed value: "a number", "a list", "null"."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)

"""Diagnostics: what loading found wrong, as values with stable codes.

Every loader returns values plus a tuple of `Diagnostic`. A code names one kind of
problem and never changes meaning; `CODES` is the registry (read-only), and
`docs/diagnostics.md` lists the same codes with the same severities (a test keeps the
two in step). Each entry names every severity its code is emitted at: `diagnostic()`
refuses any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from satchel.core._model import model

__all__ = ["CODES", "Diagnostic", "Entry", "Severity", "diagnostic", "recast", "type_name"]

Severity = Literal["error", "warning", "info"]

SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


class Entry(NamedTuple):
    """One registered code: the `severity` `diagnostic()` gives it, what it means, and
    the other severities it is emitted at (`also`: a call site that passes one says
    what changed, e.g. a problem that drops one part of a plugin, not the plugin)."""

    severity: Severity
    meaning: str
    also: tuple[Severity, ...] = ()

    @property
    def emitted(self) -> tuple[Severity, ...]:
        """Every severity the code is emitted at, the default first."""
        return (self.severity, *self.also)


# code -> its entry. Keep sorted by code.
CODES: Mapping[str, Entry] = MappingProxyType(
    {
        "agent.builtin.protected": Entry(
            "warning", "a project agent file tries to redefine a built-in agent type; it is skipped"
        ),
        "agent.field.ignored": Entry(
            "warning", "a plugin's agent sets a field Claude Code ignores there; it is ignored"
        ),
        "agent.field.invalid": Entry(
            "warning", "an agent field has a value its host does not accept; it is dropped"
        ),
        "agent.field.unknown": Entry(
            "warning", "an agent file holds a key satchel does not know; it is ignored"
        ),
        "agent.invalid": Entry(
            "error", "an agent definition could not be loaded", also=("warning",)
        ),
        "agent.limit": Entry("warning", "more agent files or bytes than the limits allow"),
        "agent.mcp.missing": Entry(
            "warning", "an agent names an MCP server that is not configured; it is left out"
        ),
        "agent.model.alias": Entry(
            "info", "an agent's model is not in provider/model form; the session model is used"
        ),
        "agent.name.invalid": Entry(
            "warning", "an agent name breaks the naming rule", also=("error",)
        ),
        "agent.preload.missing": Entry(
            "warning", "an agent preloads a skill that is not loaded or cannot be read"
        ),
        "agent.safety.capped": Entry(
            "warning", "a project or plugin agent asked for more safety latitude than it may have"
        ),
        "agent.shadowed": Entry(
            "warning", "an agent type is hidden by a same-named one of higher precedence"
        ),
        "agent.tool.unknown": Entry(
            "info", "an agent names a tool satchel does not map; it is kept as written"
        ),
        "catalogue.entry.duplicate": Entry(
            "warning", "a catalogue lists a plugin name twice; the first entry is kept"
        ),
        "catalogue.entry.invalid": Entry(
            "warning", "one entry of a plugin catalogue is not valid; it is skipped"
        ),
        "catalogue.entry.name_mismatch": Entry(
            "error", "a catalogue entry names its plugin otherwise than the plugin's manifest"
        ),
        "catalogue.entry.source_mismatch": Entry(
            "error", "two catalogues of a repository list one plugin from two places"
        ),
        "catalogue.entry.source_missing": Entry(
            "error", "a catalogue entry's relative source holds no plugin"
        ),
        "catalogue.entry.unlisted": Entry(
            "warning", "a catalogue of a repository lacks a plugin another one lists"
        ),
        "catalogue.entry.version_mismatch": Entry(
            "warning", "a catalogue entry gives its plugin another version than its manifest"
        ),
        "catalogue.invalid": Entry("error", "a plugin catalogue (marketplace.json) cannot be used"),
        "cli.io.error": Entry("error", "a file or directory the command needed could not be used"),
        "cli.mcp.sdk-missing": Entry(
            "error",
            "satchel mcp check and satchel serve need the MCP SDK, which this environment lacks",
        ),
        "cli.mcp.unknown-server": Entry(
            "error", "satchel mcp login / logout: no configured MCP server has the name asked for"
        ),
        "cli.plugin.unknown": Entry("error", "no plugin that loads has the name asked for"),
        "cli.skill.exists": Entry("error", "the skill to create already has a SKILL.md"),
        "cli.skill.invalid": Entry("error", "the skill to create breaks the Agent Skills spec"),
        "cli.skill.unknown": Entry("error", "no skill that loads has the name asked for"),
        "cli.skill.unreadable": Entry("error", "the body of the skill asked for could not be read"),
        "cli.usage": Entry("error", "the command line is not one satchel understands (exit 2)"),
        "command.builtin": Entry(
            "warning", "a command file is named like a built-in command and is skipped"
        ),
        "command.injection.unsupported": Entry(
            "info",
            "a Gemini CLI command's !{...} or @{...} is not run or read; it stays as written",
        ),
        "command.name.collision": Entry("warning", "two commands in one root have the same name"),
        "command.name.invalid": Entry(
            "warning", "a command name breaks the [a-z0-9-]+ rule", also=("error",)
        ),
        "command.read.error": Entry("error", "a command file could not be read", also=("warning",)),
        "command.shadowed": Entry(
            "warning", "a command is hidden by a same-named one of higher precedence"
        ),
        "command.toml.invalid": Entry(
            "warning", "a Gemini CLI TOML command is not TOML or lacks its prompt; it is skipped"
        ),
        "compat.component.unread": Entry(
            "warning", "a part of a plugin other hosts load, which this host's manifest omits"
        ),
        "compat.description.cut": Entry(
            "warning", "a host cuts a skill description longer than its limit"
        ),
        "compat.event.missing": Entry("warning", "a hook's event is one the host never fires"),
        "compat.hook.timeout.capped": Entry(
            "warning", "satchel stops a hook at 600 s where the host waits its longer timeout"
        ),
        "compat.executable.off": Entry(
            "error", "a declarative-only host leaves a plugin's hooks, servers or agents alone"
        ),
        "compat.field.ignored": Entry("warning", "a SKILL.md field the host does not read"),
        "compat.hook.stricter": Entry(
            "info", "satchel's runner keeps a hook's refusal that the host lets pass"
        ),
        "compat.format.unread": Entry(
            "error", "the host reads none of the plugin manifests in a directory"
        ),
        "compat.index.over": Entry(
            "warning", "the always-on skill index is over the host's budget"
        ),
        "compat.load.refused": Entry(
            "error", "the host's load refuses a file (the loader says why)"
        ),
        "compat.name.refused": Entry(
            "error", "the host refuses a skill's name (too long, or its plugin skill rule)"
        ),
        "compat.port.uncopied": Entry(
            "warning", "satchel compat: the plugin could not be copied to work out its port view"
        ),
        "compat.root.unread": Entry("error", "an item sits in a folder the host does not read"),
        "config.invalid": Entry(
            "warning", "satchel's config.toml could not be read; its settings are ignored"
        ),
        "config.mcp.invalid": Entry(
            "warning", "an MCP server in the host's config is invalid; it is skipped"
        ),
        "config.skill_servers.invalid": Entry(
            "warning", "a [skill_servers.<label>] entry is invalid and is skipped"
        ),
        "config.trust.invalid": Entry(
            "warning", "the list of trusted folders could not be read; no folder is trusted"
        ),
        "discovery.limit": Entry(
            "warning", "a bounded walk stopped at its depth or directory limit"
        ),
        "discovery.root.not-directory": Entry(
            "warning", "a configured skills root is not a directory"
        ),
        "discovery.root.unreadable": Entry("warning", "a skills root could not be listed"),
        "discovery.untrusted": Entry(
            "info",
            "project skills, commands, agents or plugins were not loaded: "
            "the project is not trusted",
        ),
        "encoding.not-utf8": Entry("error", "the file is not valid UTF-8", also=("warning",)),
        "encoding.nul": Entry("error", "the file holds a NUL byte"),
        "exec.env.refused": Entry(
            "warning", "an environment variable that can inject code into a process was refused"
        ),
        "exec.interpolation.failed": Entry(
            "warning", "a shell interpolation command failed or timed out"
        ),
        "exec.interpolation.refused": Entry("warning", "a shell interpolation command was not run"),
        "exec.output.truncated": Entry(
            "warning", "a process wrote more output than the cap; the rest was cut"
        ),
        "exec.start": Entry("error", "a process could not be started"),
        "exec.timeout": Entry(
            "error", "a process ran past its timeout and its process group was killed"
        ),
        "frontmatter.field.type": Entry(
            "error", "a frontmatter field has the wrong type", also=("warning",)
        ),
        "frontmatter.missing": Entry(
            "error", "the file does not open with a --- frontmatter fence", also=("warning",)
        ),
        "frontmatter.not-mapping": Entry(
            "error", "the frontmatter is not a YAML mapping", also=("warning",)
        ),
        "frontmatter.too-large": Entry(
            "error", "the frontmatter is larger than the cap", also=("warning",)
        ),
        "frontmatter.unterminated": Entry(
            "error", "the frontmatter has no closing --- fence", also=("warning",)
        ),
        "frontmatter.yaml.alias": Entry(
            "error", "the frontmatter uses YAML anchors or aliases", also=("warning",)
        ),
        "frontmatter.yaml.colon-fallback": Entry(
            "warning",
            "the frontmatter parsed only after the lenient retry (a value quoted or read whole)",
        ),
        "frontmatter.yaml.depth": Entry(
            "error", "the frontmatter nests deeper than the limit", also=("warning",)
        ),
        "frontmatter.yaml.duplicate-key": Entry(
            "error", "a key appears twice in one mapping", also=("warning",)
        ),
        "frontmatter.yaml.merge": Entry(
            "error", "the frontmatter uses a YAML merge key (<<)", also=("warning",)
        ),
        "frontmatter.yaml.number": Entry(
            "error", "the frontmatter holds a number too long to read", also=("warning",)
        ),
        "frontmatter.yaml.syntax": Entry(
            "error", "the frontmatter is not valid YAML", also=("warning",)
        ),
        "frontmatter.yaml.tag": Entry(
            "error",
            "the frontmatter uses a YAML tag outside the safe core schema",
            also=("warning",),
        ),
        "hook.decision.misplaced": Entry(
            "warning",
            "a hook put permissionDecision at the top level of its JSON; it is not honoured",
        ),
        "hook.env.ignored": Entry(
            "warning", "a line a hook wrote to CLAUDE_ENV_FILE is not an export satchel reads back"
        ),
        "hook.env.path": Entry(
            "warning", "a hook's CLAUDE_ENV_FILE puts a directory of the project first on PATH"
        ),
        "hook.event.unknown": Entry(
            "warning", "a hook names an event satchel does not know; it is kept"
        ),
        "hook.failed": Entry(
            "warning", "a hook exited non-zero (not 2), crashed or could not start"
        ),
        "hook.file.invalid": Entry(
            "warning", "a hooks.toml or settings.json, or one hook in it, is invalid"
        ),
        "hook.host.untrusted": Entry(
            "warning",
            "a host skips the hook without a word: it never trusted it, or it changed since",
        ),
        "hook.http.failed": Entry(
            "warning", "an http hook could not post, or its server answered with a non-2xx status"
        ),
        "hook.http.refused": Entry(
            "warning", "an http hook's URL is not in the allowed URL patterns; nothing is sent"
        ),
        "hook.matcher.invalid": Entry(
            "warning", "a hook's matcher is an invalid or unsafe regex; the hook never runs"
        ),
        "hook.mcp_tool.failed": Entry(
            "warning", "an mcp_tool hook's tool is not running or gave an error result"
        ),
        "hook.mcp_tool.unavailable": Entry(
            "warning", "an mcp_tool hook ran with no MCP supervisor; it is skipped"
        ),
        "hook.model.failed": Entry(
            "warning", "the host's callback for a prompt or agent hook raised"
        ),
        "hook.model.unavailable": Entry(
            "warning", "a prompt or agent hook ran with no host callback; it is skipped"
        ),
        "hook.output.invalid": Entry(
            "warning", "a hook's output could not be read as its protocol says"
        ),
        "hook.output.truncated": Entry(
            "warning", "a hook wrote more output than the cap; the cut output counts as unparseable"
        ),
        "hook.python.failed": Entry("warning", "a Python hook callback raised; it has no opinion"),
        "hook.rewrite.conflict": Entry(
            "warning", "hooks rewrote one tool input differently; the last in declared order wins"
        ),
        "hook.timeout": Entry(
            "warning", "a hook ran past its timeout; its process group was killed"
        ),
        "hook.timeout.capped": Entry(
            "warning",
            "a hook declares a timeout above the runner's cap; it runs for the cap at most",
        ),
        "hook.untrusted": Entry(
            "info", "the project's hooks do not run: the project is not trusted"
        ),
        "host.config.invalid": Entry(
            "warning",
            "a [hosts.<name>] table of config.toml is not valid; the profile or the key "
            "is left out",
        ),
        "host.config.untrusted": Entry(
            "info",
            "a host does not read a project's own config folder: it does not trust the project",
        ),
        "host.managed.locked": Entry(
            "info", "Claude Code's managed settings lock a surface: its .claude roots are not read"
        ),
        "host.managed.sideload_refused": Entry(
            "warning", "Claude Code's managed settings refuse the plugin directories given"
        ),
        "host.model-unknown": Entry(
            "warning",
            "the host does not know the model named; its listing budget is taken of the "
            "host's fallback context window",
        ),
        "host.trust.none": Entry(
            "error", "satchel trust --from names a host that keeps no list of trusted folders"
        ),
        "host.unknown": Entry("error", "no host profile has that name"),
        "hosts.hook.disabled": Entry(
            "warning", "a host setting turns a hook, or every hook of the host, off"
        ),
        "hosts.hook.duplicate": Entry(
            "info", "two files register one hook; the host runs it once, the first file's"
        ),
        "hosts.hook.twice": Entry(
            "warning", "two files register one hook and the host runs it from each"
        ),
        "hosts.hook.two-meanings": Entry(
            "warning", "two hosts read one hook file, each with a meaning of its own"
        ),
        "hosts.hook.untrusted": Entry(
            "warning", "a host skips a hook without a word: it never trusted it, or it changed"
        ),
        "hosts.instructions.cut": Entry(
            "warning", "a host cuts an instruction file at its size cap; the rest is lost"
        ),
        "hosts.instructions.unread": Entry(
            "warning",
            "a host does not read an instruction file: its size cap was reached before it",
        ),
        "hosts.link.broken": Entry(
            "warning", "a symlink on the way to a host's folder or instruction file leads nowhere"
        ),
        "hosts.link.loop": Entry(
            "warning", "symlinks on the way to a host's folder or instruction file loop"
        ),
        "hosts.link.outside": Entry(
            "info", "a symlink to a host's folder leads out of the project (or the home)"
        ),
        "hosts.link.plain-file": Entry(
            "warning", "a host's folder or instruction file is a plain file holding a link's path"
        ),
        "hosts.listing.dropped": Entry(
            "warning", "a host's skill listing leaves a skill out: its budget is spent"
        ),
        "hosts.listing.name-only": Entry(
            "warning",
            "a host's skill listing names a skill without its description, for its budget",
        ),
        "hosts.listing.shortened": Entry(
            "warning", "a host's skill listing shortens a skill's description"
        ),
        "hosts.mcp.differs": Entry(
            "warning", "an MCP server of one name is configured differently in several hosts"
        ),
        "hosts.mcp.missing-command": Entry(
            "error", "an MCP server's command is not found on PATH or in its config's folder"
        ),
        "hosts.mcp.off": Entry("info", "an MCP server is turned off in the host's config"),
        "hosts.mcp.policy": Entry(
            "warning", "the host's settings block an MCP server by name: it is not started"
        ),
        "hosts.mcp.untrusted": Entry(
            "warning", "the host will not start an MCP server its trust rules hold back"
        ),
        "install.catalogue.conflict": Entry(
            "error", "a strict catalogue entry and its plugin's manifest both declare components"
        ),
        "install.catalogue.source": Entry(
            "error", "a catalogue entry's source cannot be installed from"
        ),
        "install.dependency.conflict": Entry(
            "error", "no version of a dependency meets every range asked for it"
        ),
        "install.dependency.cycle": Entry(
            "warning", "plugins depend on each other in a cycle; each is installed once"
        ),
        "install.dependency.limit": Entry(
            "error", "a plugin's dependencies chain too deep or are too many to install"
        ),
        "install.dependency.missing": Entry(
            "warning", "a dependency no added marketplace lists was not installed"
        ),
        "install.dependency.required": Entry(
            "error", "an installed plugin or skill still needs the one being removed"
        ),
        "install.marketplace.exists": Entry(
            "error", "a marketplace of that name is already added from another source"
        ),
        "install.marketplace.in-use": Entry(
            "error", "a marketplace still has plugins installed from it"
        ),
        "install.marketplace.invalid": Entry(
            "error",
            "a marketplace cannot be read: its record, its catalogue, or a project's declaration",
        ),
        "install.marketplace.unknown": Entry("error", "no added marketplace has that name"),
        "install.marketplace.untrusted": Entry(
            "error", "the marketplace is declared by a project folder that is not trusted"
        ),
        "install.redirect.refused": Entry(
            "error", "a redirect to another origin than the URL asked for"
        ),
        "instructions.imports": Entry(
            "info", "an instruction file imports files (@path) that satchel does not read"
        ),
        "instructions.read.error": Entry("error", "an instruction file could not be read"),
        "instructions.replaced": Entry(
            "info", "CLAUDE.md was not read because the directory has AGENTS.md"
        ),
        "instructions.rule.invalid": Entry(
            "warning", "a rule's frontmatter or one of its fields cannot be used as written"
        ),
        "instructions.truncated": Entry(
            "warning",
            "instruction files went past the byte cap, or a rules folder past its file "
            "bound, and were cut",
        ),
        "install.archive.duplicate": Entry(
            "error", "an archive holds one path twice (up to case and Unicode form)"
        ),
        "install.archive.invalid": Entry(
            "error", "a download or file is not an archive satchel reads"
        ),
        "install.archive.link": Entry(
            "error",
            "an archive holds a hardlink, a link leaving its tree, or writes through a link",
        ),
        "install.archive.path": Entry(
            "error", "an archive entry's path is absolute, has .., or is too deep"
        ),
        "install.archive.special": Entry(
            "error", "an archive holds a device, a FIFO or another special file"
        ),
        "install.archive.too-large": Entry(
            "error", "an archive passes the size, file-count or compression-ratio bound"
        ),
        "install.auth.helper-failed": Entry(
            "error", "a header helper exited non-zero, timed out or did not start"
        ),
        "install.auth.helper-output": Entry(
            "error", "a header helper printed something other than header lines"
        ),
        "install.auth.invalid": Entry(
            "error", "an [install.auth] entry of config.toml is not valid"
        ),
        "install.auth.unapproved": Entry(
            "error", "a header helper was never approved, or changed since; it was not run"
        ),
        "install.commit.unreachable": Entry(
            "error", "a pinned commit is not reachable from any branch or tag of the repository"
        ),
        "install.fetch.failed": Entry("error", "a source could not be fetched"),
        "install.fetch.timeout": Entry(
            "error", "a request or git command passed its deadline, or its server went quiet"
        ),
        "install.git.lfs-pointer": Entry(
            "warning", "an installed file is a Git LFS pointer; its content was not fetched"
        ),
        "install.git.submodule-ignored": Entry(
            "warning", "a repository has submodules; they are not fetched"
        ),
        "install.integrity": Entry(
            "error", "an installed or fetched tree does not match its locked hash"
        ),
        "install.lock.busy": Entry(
            "error", "another satchel held the lock file for longer than the wait allowed"
        ),
        "install.lock.invalid": Entry("error", "the lock file could not be read"),
        "install.lock.missing": Entry("error", "install --frozen found no lock file in the scope"),
        "install.lock.unlisted": Entry(
            "error", "satchel placed a tree in the scope that its lock file does not list"
        ),
        "install.not-installed": Entry(
            "error", "no skill or plugin of that name is in the lock file"
        ),
        "install.npm.scripts": Entry(
            "warning", "an npm package declares lifecycle scripts; they are never run"
        ),
        "install.oci.auth": Entry(
            "error", "an OCI registry refused, or found no, credentials, or a helper failed"
        ),
        "install.oci.invalid": Entry(
            "error", "an OCI manifest or index is not one satchel can lay out as a tree"
        ),
        "install.oci.key": Entry(
            "error", "a key given to sign or verify is not an ECDSA P-256 key"
        ),
        "install.oci.path": Entry("error", "an OCI layer's title is not a safe relative path"),
        "install.oci.push": Entry("error", "an OCI registry refused a blob or manifest push"),
        "install.oci.sign": Entry("error", "satchel publish --sign could not sign the artifact"),
        "install.oci.signed-digest": Entry(
            "error", "the signature attached to an OCI artifact signs another manifest digest"
        ),
        "install.plugin.partial": Entry(
            "warning", "a plugin shown or installed will not load everything its manifest declares"
        ),
        "install.ref.moved": Entry(
            "warning", "a ref now names another commit than the lock records"
        ),
        "install.review.refused": Entry(
            "error", "the new version of an installed tree was refused on review (--fail-on-new)"
        ),
        "install.root.escape": Entry(
            "error", "a project's install directory is a symlink leading out of the project"
        ),
        "install.settings.invalid": Entry(
            "error", "a SATCHEL_* setting of the installer is not a value it takes"
        ),
        "install.signature.changed": Entry(
            "error", "install --frozen found an entry signed by another signer than the lock's"
        ),
        "install.signature.identity": Entry(
            "error", "a valid Sigstore signature is by an identity or issuer not allowed"
        ),
        "install.signature.invalid": Entry(
            "error", "a Sigstore bundle does not verify, or signs other content"
        ),
        "install.signature.missing": Entry(
            "error", "a signature is required and the skill or plugin has no Sigstore bundle"
        ),
        "install.signature.placement": Entry(
            "error", "the name of the bundle beside a skill or plugin is taken inside it"
        ),
        "install.signature.trust-root": Entry(
            "error", "the Sigstore trust root cannot be read or is not a trusted root"
        ),
        "install.signature.unavailable": Entry(
            "error", "checking a signature needs the sigstore package (the sign extra)"
        ),
        "install.signature.unverified": Entry(
            "warning", "a Sigstore bundle found beside what was installed does not verify"
        ),
        "install.skill.exists": Entry(
            "error", "a skill or plugin satchel did not install is where it would install one"
        ),
        "install.skill.invalid": Entry("error", "a skill or plugin to install fails validation"),
        "install.skill.none": Entry("error", "the source holds no skill or plugin"),
        "install.skill.unknown": Entry("error", "a picked skill is not in the source"),
        "install.source.invalid": Entry("error", "the text given is not a source satchel can read"),
        "install.source.untrusted": Entry(
            "error", "a project lock names an mcp+stdio: command and the project is not trusted"
        ),
        "mcp.elicitation.declined": Entry(
            "warning", "an MCP server asked the user a question and no elicit callback answers"
        ),
        "mcp.gateway.config.invalid": Entry(
            "error", "a satchel serve gateway config cannot be read or has a bad value"
        ),
        "mcp.gateway.config.unknown": Entry(
            "warning", "a satchel serve gateway config has a key satchel does not know"
        ),
        "mcp.gateway.source.duplicate": Entry(
            "warning", "a gateway's skills server lists two skills of one name; one is served"
        ),
        "mcp.gateway.source.unavailable": Entry(
            "error", "a gateway source is of a kind satchel serve cannot read"
        ),
        "mcp.gateway.source.unwritable": Entry(
            "error", "a gateway could not keep a skills server's skill, so it is not served"
        ),
        "mcp.message.too_deep": Entry(
            "warning",
            "an MCP server answered a call with JSON nesting too deep to read; the call failed",
        ),
        "mcp.oauth.disabled": Entry(
            "error", "satchel mcp login named a disabled server, which satchel does not connect to"
        ),
        "mcp.oauth.failed": Entry(
            "error", "satchel mcp login could not authorize satchel for a remote MCP server"
        ),
        "mcp.oauth.insufficient_scope": Entry(
            "error",
            "a remote MCP server refused a call for OAuth scopes the kept authorization lacks",
        ),
        "mcp.oauth.not_remote": Entry(
            "error", "satchel mcp login / logout named a server that has no URL to log in to"
        ),
        "mcp.oauth.not_required": Entry(
            "warning", "a remote MCP server did not ask for authorization; nothing was kept"
        ),
        "mcp.oauth.store": Entry(
            "error", "the system keyring cannot keep or remove a remote MCP server's tokens"
        ),
        "mcp.serve.address.refused": Entry(
            "error",
            "satchel serve --http was given an address that is not loopback without --allow-remote",
        ),
        "mcp.serve.cursor.invalid": Entry("error", "a resources/list cursor the server never gave"),
        "mcp.serve.directory.invalid": Entry(
            "error", "resources/directory/read was asked for a file, or a directory serving none"
        ),
        "mcp.serve.prompt.arguments": Entry(
            "error",
            "a prompt was asked for with an argument it does not take, or without a required one",
        ),
        "mcp.serve.prompt.unknown": Entry("error", "no served prompt has the name asked for"),
        "mcp.serve.skill.unknown": Entry(
            "error", "skills/get was asked for a URI that is no SKILL.md the extension serves"
        ),
        "mcp.serve.tool.denied": Entry(
            "error",
            "a before_tool_use hook denied a served tool call, "
            "or asked for a user the server lacks",
        ),
        "mcp.serve.uri.invalid": Entry("error", "a resource URI is not skill://<skill>/<path>"),
        "mcp.server.authorization_required": Entry(
            "error", "one of the host's MCP servers answered that it needs authorization"
        ),
        "mcp.server.connection_failed": Entry(
            "error",
            "one of the host's MCP servers failed to start, connect or finish the handshake",
        ),
        "mcp.server.shadowed": Entry(
            "warning", "an MCP server is hidden by a same-named one of higher precedence"
        ),
        "mcp.server.untrusted": Entry(
            "info", "the host starts no MCP server in a folder it does not trust: all are off"
        ),
        "mcp.skills.authorization_required": Entry(
            "error", "a skill server asks for OAuth authorization and no kept login gives it"
        ),
        "mcp.skills.changed": Entry(
            "error",
            "a trusted project's served skill changed (or is new) since the folder was pinned",
        ),
        "mcp.skills.dynamic": Entry(
            "warning", "a skill server's skill is dynamic (no manifest to verify): not loaded"
        ),
        "mcp.skills.failed": Entry("error", "a skill server could not be started, reached or read"),
        "mcp.skills.invalid": Entry(
            "warning", "a skill server's entry breaks the Skills extension's rules: refused"
        ),
        "mcp.skills.mismatch": Entry(
            "error", "a skill server's file is not what its manifest says: the skill is refused"
        ),
        "mcp.skills.path": Entry(
            "error", "a skill server's entry names a path that would leave its tree: refused"
        ),
        "mcp.skills.shadowed": Entry(
            "warning", "a skill server's skill has the name of another skill: both are kept"
        ),
        "mcp.skills.unknown": Entry(
            "warning", "a skill server serves no skill at a URI the host names: not loaded"
        ),
        "mcp.skills.unsupported": Entry(
            "error", "a skill server does not declare io.modelcontextprotocol/skills"
        ),
        "mcp.tool.collision": Entry(
            "warning", "two MCP tools or prompts have the same host name; the later one is hidden"
        ),
        "outdated.in_place": Entry(
            "info",
            "a host loads an installed plugin from its marketplace's folder as it is: "
            "no copy to go stale",
        ),
        "outdated.record.unreadable": Entry(
            "warning",
            "a host's record of its marketplaces or of one installed extension cannot be read; "
            "that install's source is unknown",
        ),
        "outdated.source.offline": Entry(
            "info",
            "satchel outdated --offline: an install's source needs the network; it was not checked",
        ),
        "outdated.source.refused": Entry(
            "warning",
            "the policy's [sources] or [marketplaces] rules refuse reading an install's source; "
            "it was not checked",
        ),
        "outdated.source.unknown": Entry(
            "warning",
            "an install records no source satchel can read, or its marketplace no longer lists it",
        ),
        "outdated.source.unreachable": Entry(
            "warning",
            "an install's source could not be read: gone, failed to fetch, or past the deadline",
        ),
        "outdated.stale": Entry(
            "warning",
            "an installed plugin or skill differs from what its source holds now, "
            "whatever its version says",
        ),
        "output_style.field.invalid": Entry(
            "warning",
            "an output style's frontmatter field has the wrong type; it takes its default",
        ),
        "output_style.invalid": Entry(
            "warning", "an output style file cannot be read; it is skipped"
        ),
        "permission.rule.invalid": Entry(
            "warning", "an allowed-tools or permission rule cannot be parsed"
        ),
        "plugin.agent.invalid": Entry(
            "warning",
            "one agent document of a plugin failed validation; the rest of the plugin loads",
        ),
        "plugin.agents.unsupported": Entry(
            "info", "plugin agents recognised and not loaded by a declarative-only client"
        ),
        "plugin.apps.invalid": Entry(
            "warning", "a Codex plugin's .app.json, or one app in it, is invalid"
        ),
        "plugin.apps.unavailable": Entry(
            "info", "a Codex plugin declares apps (ChatGPT connectors) satchel cannot reach"
        ),
        "plugin.bin.not_executable": Entry(
            "warning", "an entry of a plugin's bin/ is not an executable file"
        ),
        "plugin.bin.outside_root": Entry(
            "warning", "a link in a plugin's bin/ leads outside the plugin; bin/ is not on PATH"
        ),
        "plugin.channel.invalid": Entry(
            "warning", "one entry of a plugin's channels is not a valid channel; it is left out"
        ),
        "plugin.compatibility.adapter_unavailable": Entry(
            "error",
            "the only manifest found is one satchel recognises and does not read",
        ),
        "plugin.compatibility.executable_format_unsupported": Entry(
            "warning", "a plugin's code (JS/TS) is detected and never run"
        ),
        "plugin.compatibility.format_ambiguous": Entry(
            "error",
            "a directory carries manifests of more than one foreign format (refused by setting)",
        ),
        "plugin.compatibility.format_unrecognized": Entry(
            "error", "no supported plugin manifest found"
        ),
        "plugin.compatibility.host_unread": Entry(
            "error", "the host profile reads none of the plugin manifests in a directory"
        ),
        "plugin.compatibility.manifest_unused": Entry(
            "info", "a directory holds several hosts' manifests; one is read, the others are named"
        ),
        "plugin.component.not-run": Entry(
            "info", "a plugin's workflow or hooks module (JavaScript) is recognised and never run"
        ),
        "plugin.component.unread": Entry(
            "warning", "the host profile does not load this kind of component of a plugin's format"
        ),
        "plugin.config.invalid": Entry(
            "warning", "a userConfig option of a plugin is not valid; it is dropped"
        ),
        "plugin.config.missing": Entry(
            "warning",
            "a plugin component needs a userConfig value that is not set; it does not start",
        ),
        "plugin.config.refused": Entry(
            "warning", "a shell-form hook command references ${user_config.*}; it does not run"
        ),
        "plugin.config.store": Entry(
            "warning", "the stored userConfig values or the keyring could not be used"
        ),
        "plugin.config.unset": Entry(
            "warning",
            "a required userConfig option of a plugin has no value and no default",
        ),
        "plugin.config.value": Entry(
            "error", "a userConfig value is not one its option takes; nothing is stored"
        ),
        "plugin.connectors.invalid": Entry("warning", "connectors.json failed to load"),
        "plugin.dependency.missing": Entry(
            "warning", "a plugin depends on a plugin this load does not have; it loads anyway"
        ),
        "plugin.directory.icon_invalid": Entry(
            "warning", "the plugin directory's ICON_INVALID: the icon is not a usable image"
        ),
        "plugin.directory.icon_missing": Entry(
            "warning", "the plugin directory's ICON_MISSING: no icon in plugin.json or the plugin"
        ),
        "plugin.directory.license_missing": Entry(
            "error", "the plugin directory's LICENSE_MISSING: no license file or field"
        ),
        "plugin.directory.os_metadata_file": Entry(
            "warning", "the plugin directory's ARCHIVE_OS_METADATA_FILE: a system file is inside"
        ),
        "plugin.directory.path_traversal": Entry(
            "error", "the plugin directory's PATH_TRAVERSAL: a manifest path holds .."
        ),
        "plugin.directory.privacy_url_missing": Entry(
            "warning", "the plugin directory's PRIVACY_URL_MISSING: remote, with no privacy URL"
        ),
        "plugin.directory.readme_missing": Entry(
            "error", "the plugin directory's README_MISSING: the plugin has no README"
        ),
        "plugin.directory.readme_trivial": Entry(
            "error", "the plugin directory's README_TRIVIAL: the README is too short or unread"
        ),
        "plugin.disabled": Entry(
            "info", "a plugin is disabled in the config file or in Claude Code's settings"
        ),
        "plugin.extension.invalid": Entry(
            "warning",
            "the manifest's extensions field is not an object, or an extension is invalid",
        ),
        "plugin.hooks.invalid": Entry("warning", "one hook entry of a plugin failed validation"),
        "plugin.hooks.unsupported": Entry(
            "info", "plugin hooks recognised and not run by a declarative-only client"
        ),
        "plugin.installed.invalid": Entry(
            "warning", "one record of a host's installed plugins is not usable"
        ),
        "plugin.installed.missing": Entry(
            "warning", "a plugin a host installed has no directory where the host reads it"
        ),
        "plugin.installed.outside": Entry(
            "error", "an installed plugin's folder escapes the folder it must be in"
        ),
        "plugin.installed.unreadable": Entry(
            "warning", "Claude Code's installed plugins or a settings file cannot be read"
        ),
        "plugin.knowledge.invalid": Entry(
            "warning", "one knowledge folder of a plugin failed validation"
        ),
        "plugin.libraries.invalid": Entry("warning", "libraries.json failed to load"),
        "plugin.library.alias_collision": Entry(
            "warning", "a library alias is shared across plugins and dropped from all"
        ),
        "plugin.library.invalid": Entry("warning", "one library path is invalid"),
        "plugin.link.missing": Entry(
            "warning", "a linked plugin's folder is not a readable directory; it does not load"
        ),
        "plugin.lsp.invalid": Entry(
            "warning", ".lsp.json or manifest lspServers, or one server entry in it, is invalid"
        ),
        "plugin.lsp.protocol_error": Entry(
            "error", "a language server answered initialize with something that is not LSP"
        ),
        "plugin.lsp.start_failed": Entry(
            "error", "a language server did not start, exited, or did not initialize in time"
        ),
        "plugin.lsp.stop_timeout": Entry(
            "warning", "a language server did not shut down in time and was killed"
        ),
        "plugin.lsp.transport_unsupported": Entry(
            "warning", "a language server declares transport socket; it is started over stdio"
        ),
        "plugin.manifest.field.unknown": Entry(
            "warning",
            "the manifest has a top-level field the format does not define; it is ignored",
        ),
        "plugin.manifest.field.unapplied": Entry(
            "info", "a manifest field is kept in Plugin.manifest and not applied (Gemini CLI's)"
        ),
        "plugin.manifest.invalid": Entry(
            "error", "the plugin manifest is missing, unreadable or invalid", also=("warning",)
        ),
        "plugin.mcp.authorization_required": Entry("error", "an MCP server needs authorization"),
        "plugin.mcp.connection_failed": Entry("error", "an MCP server did not answer"),
        "plugin.mcp.invalid": Entry("warning", "mcp.json, or one server entry in it, is invalid"),
        "plugin.mcp.transport_unsupported": Entry(
            "warning", "an MCP server entry uses a transport satchel does not start"
        ),
        "plugin.mcp.unsupported": Entry(
            "info", "plugin MCP servers recognised and not started by a declarative-only client"
        ),
        "plugin.mcp.variable_unexpanded": Entry(
            "warning", "an MCP server uses a host variable satchel does not expand; kept as written"
        ),
        "plugin.module.invalid": Entry(
            "warning", "a hooks.json `modules` entry is invalid or a second one; it is left out"
        ),
        "plugin.monitor.deprecated": Entry(
            "warning", "monitors are declared at the manifest's top level, not experimental"
        ),
        "plugin.monitor.exited": Entry("info", "a plugin monitor ended on its own, status 0"),
        "plugin.monitor.failed": Entry(
            "error", "a plugin monitor could not start or ended with an error"
        ),
        "plugin.monitor.flood": Entry(
            "warning", "a plugin monitor wrote more than its output cap and was stopped"
        ),
        "plugin.monitor.invalid": Entry("error", "a plugin's monitors are invalid; none loads"),
        "plugin.monitor.limit": Entry(
            "warning", "more monitors than the runner's max_monitors; the rest do not start"
        ),
        "plugin.monitor.untrusted": Entry(
            "info", "plugin monitors do not run: untrusted folder or declarative-only"
        ),
        "plugin.monitor.user_config": Entry(
            "error", "a monitor's command refers to ${user_config.*}; it does not load"
        ),
        "plugin.name.collision": Entry("error", "two plugins share a name at the same scope"),
        "plugin.namespace.collision": Entry("error", "two plugins claim one namespace"),
        "plugin.namespace.reserved": Entry("error", "the plugin's namespace is reserved"),
        "plugin.path.outside_root": Entry(
            "error", "a declared path escapes the plugin root", also=("warning",)
        ),
        "plugin.policies.unsupported": Entry(
            "info", "a Gemini CLI extension's policies/ are recognised, not applied"
        ),
        "plugin.schema.version_unsupported": Entry(
            "error", "unsupported Agent Plugins schema version"
        ),
        "plugin.settings.deprecated": Entry(
            "warning", "a plugin's default settings set agent or subagentStatusLine (deprecated)"
        ),
        "plugin.settings.ignored": Entry(
            "warning", "a plugin's default settings hold a key a plugin may not set; it is ignored"
        ),
        "plugin.settings.invalid": Entry(
            "warning", "a plugin's settings.json, or one setting in it, is invalid; it is dropped"
        ),
        "plugin.shadowed": Entry(
            "warning", "a user plugin is hidden by a project plugin of the same name"
        ),
        "plugin.skill.invalid": Entry("warning", "one SKILL.md of a plugin failed to parse"),
        "plugin.theme.invalid": Entry(
            "warning", "a plugin's theme file is not a JSON object; it is left out"
        ),
        "plugin.tool_override.unused": Entry("warning", "a toolOverrides key matched no tool"),
        "plugin.version.unbumped": Entry(
            "warning", "a plugin's files changed after its current version was released"
        ),
        "plugin.version.unchecked": Entry(
            "info", "whether a plugin changed after its version was released is not known"
        ),
        "plugin.workflow.invalid": Entry(
            "warning", "a plugin's workflow script has no meta literal with a name; it is left out"
        ),
        "policy.denied": Entry(
            "info", "the organisation's policy refuses an item; it does not load or run"
        ),
        "policy.installed.digest": Entry(
            "warning", "an installed entry is not pinned by a digest its source published"
        ),
        "policy.installed.signer": Entry(
            "warning", "an installed entry was signed by an identity the policy does not allow"
        ),
        "policy.installed.unsigned": Entry(
            "warning", "an installed entry has no signature, which the policy requires"
        ),
        "policy.invalid": Entry(
            "error", "a policy file cannot be read; the policy fails closed: nothing runs"
        ),
        "policy.key.unknown": Entry("warning", "a policy file holds a key satchel does not know"),
        "policy.loosen": Entry(
            "warning", "a lower policy file tries to loosen what a higher one set; it is ignored"
        ),
        "port.agent.unsupported": Entry(
            "warning", "satchel port: a target host cannot hold one of the plugin's agents"
        ),
        "port.command.arguments": Entry(
            "warning", "satchel port: a command's positional arguments have no form in the target"
        ),
        "port.command.unsupported": Entry(
            "warning", "satchel port: a target host cannot hold one of the plugin's commands"
        ),
        "port.file.exists": Entry(
            "error", "satchel port: a file port did not write is in the way; it is left as it is"
        ),
        "port.hook.answer": Entry(
            "warning", "satchel port: a hook's script answers in a shape the target ignores"
        ),
        "port.hook.event": Entry(
            "warning",
            "satchel port: the target host fires no such hook event; the hook is not written",
        ),
        "port.hook.field": Entry(
            "warning", "satchel port: a hook needs a field the target has no room for; left out"
        ),
        "port.hook.handler": Entry(
            "warning", "satchel port: the target runs no handler of the hook's type; left out"
        ),
        "port.hook.matcher": Entry(
            "warning", "satchel port: a hook's matcher names only tools the target lacks; left out"
        ),
        "port.hook.tool": Entry(
            "warning", "satchel port: a tool the target lacks is left out of a hook's matcher"
        ),
        "port.hook.unsupported": Entry(
            "warning", "satchel port: the target's plugins carry no hooks port can write"
        ),
        "port.hook.variable": Entry(
            "warning", "satchel port: a hook's command reads a variable the target never sets"
        ),
        "port.marketplace.duplicate": Entry(
            "error", "satchel marketplace build: two plugin folders give one name"
        ),
        "port.marketplace.empty": Entry(
            "error", "satchel marketplace build: no plugin folder to list"
        ),
        "port.marketplace.outside": Entry(
            "warning", "satchel marketplace build: a plugin folder leads out of the root"
        ),
        "port.marketplace.owner": Entry(
            "error", "satchel marketplace build: no owner for the marketplace"
        ),
        "port.marketplace.unversioned": Entry(
            "warning", "satchel marketplace build: a plugin has no version to list"
        ),
        "port.mcp.field": Entry(
            "warning", "satchel port: an MCP server is written without fields the target lacks"
        ),
        "port.mcp.transport": Entry(
            "warning", "satchel port: the target refuses an MCP server's transport"
        ),
        "port.name.changed": Entry(
            "info", "satchel port: the target host names a command or agent otherwise"
        ),
        "port.name.invalid": Entry(
            "error", "satchel port: the plugin's name breaks the target's rule; nothing written"
        ),
        "port.path.outside_root": Entry(
            "error", "satchel port: a file to write resolves outside the plugin root"
        ),
        "port.path.taken": Entry(
            "warning", "satchel port: the target's file is one the source plugin reads itself"
        ),
        "port.skill.location": Entry(
            "warning", "satchel port: a skill is where the target does not read skills"
        ),
        "port.skill.refused": Entry(
            "warning", "satchel port: the target's reader refuses a skill the source loads"
        ),
        "port.target.source": Entry(
            "info", "satchel port: the plugin is already in the target's format; nothing written"
        ),
        "resource.area": Entry("error", "a resource path is outside the folders the tool may read"),
        "resource.hardlink": Entry("error", "a resource file has more than one hard link"),
        "resource.missing": Entry("error", "no file at the resource path"),
        "resource.not-regular": Entry("error", "a resource is not a regular file"),
        "resource.not-text": Entry("error", "a resource is not UTF-8 text"),
        "resource.path.absolute": Entry(
            "error", "a resource path is absolute or names a drive or share"
        ),
        "resource.path.invalid": Entry(
            "error", "a resource path is empty, too long, or holds a character refused in paths"
        ),
        "resource.path.traversal": Entry("error", "a resource path has a .. segment"),
        "resource.symlink.escape": Entry(
            "error", "a symlink on a resource path leads out of the skill directory"
        ),
        "resource.symlink.loop": Entry(
            "error", "symlinks on a resource path loop or nest too deep"
        ),
        "resource.too-large": Entry("error", "a resource is larger than the cap"),
        "resource.unreadable": Entry("error", "a resource could not be opened or read"),
        "session.context.collision": Entry(
            "error", "the host already has a context segment with the session's id"
        ),
        "session.expansion.blocked": Entry(
            "warning", "a UserPromptExpansion hook blocked a slash prompt's expansion"
        ),
        "session.fork.failed": Entry("error", "the host's fork callback raised"),
        "session.fork.unavailable": Entry(
            "error", "a context: fork skill was activated and no fork callback is registered"
        ),
        "session.history.unreadable": Entry(
            "warning", "an entry of a transcript could not be read and was skipped"
        ),
        "session.max-active": Entry(
            "error", "activating one more skill would pass max_active", also=("warning",)
        ),
        "session.output_style.unknown": Entry(
            "error", "a session was asked for an output style no loaded source has"
        ),
        "session.reload.blocked": Entry(
            "warning", "a ConfigChange hook blocked a reload: the session kept its environment"
        ),
        "session.skill.inactive": Entry("error", "the tool needs the skill to be active first"),
        "session.skill.unknown": Entry(
            "error", "no skill of that name is available to the session", also=("warning",)
        ),
        "session.skills.nested-limit": Entry(
            "warning", "a session read as many nested skills roots as it may"
        ),
        "session.skills.off": Entry(
            "error", "skills are turned off for this session", also=("warning",)
        ),
        "session.tool.arguments": Entry(
            "error", "a tool call's arguments do not fit the tool's input schema"
        ),
        "session.tool.collision": Entry(
            "error", "the host already has a tool with one of the session's tool names"
        ),
        "session.tool.failed": Entry(
            "error", "a tool failed inside satchel: a bug, reported as a result"
        ),
        "session.tool.not-allowed": Entry(
            "error", "an active skill's allowed-tools does not allow the tool call"
        ),
        "session.tool.unknown": Entry(
            "error", "a tool call names a tool the session does not have"
        ),
        "skill.allowed-tools.invalid": Entry(
            "warning", "allowed-tools is neither a string nor a list of strings", also=("error",)
        ),
        "skill.compatibility.invalid": Entry(
            "warning", "compatibility is empty or longer than 500 characters", also=("error",)
        ),
        "skill.description.missing": Entry("error", "the skill has no description"),
        "skill.description.placeholder": Entry(
            "error",
            "the description is a placeholder (TODO...); an error when strict, else a warning",
            also=("warning",),
        ),
        "skill.description.too-long": Entry(
            "warning", "the description is longer than 1024 characters", also=("error",)
        ),
        "skill.disabled": Entry(
            "info", "a host's own config turns the skill off ([[skills.config]]); it is not loaded"
        ),
        "skill.field.deprecated": Entry(
            "info", "a deprecated top-level field was moved into metadata"
        ),
        "skill.field.invalid": Entry(
            "warning", "a host field's value cannot be used; the field is ignored", also=("error",)
        ),
        "skill.field.unknown": Entry(
            "info",
            "a frontmatter field outside the spec and the known host extras",
            also=("error",),
        ),
        "skill.file.link-unread": Entry(
            "info", "SKILL.md is a symlink, which the host profile's walk does not read"
        ),
        "skill.file.misnamed": Entry("warning", "a skill file is not named exactly SKILL.md"),
        "skill.file.not-regular": Entry("error", "SKILL.md is not a regular file"),
        "skill.file.twin": Entry("warning", "SKILL.md and skill.md both exist in one directory"),
        "skill.index.name-only": Entry(
            "warning", "the index lists a skill by name only to fit its budget"
        ),
        "skill.index.omitted": Entry(
            "warning", "a skill is left out of the index by its budget (skills, bytes, ...)"
        ),
        "skill.index.override-invalid": Entry(
            "warning", "a skill listing override is not on, name-only, user-invocable-only or off"
        ),
        "skill.index.override-unknown": Entry(
            "warning", "a skill listing override names no skill that loaded"
        ),
        "skill.index.shortened": Entry(
            "warning", "the index shortens a skill's description to fit its budget"
        ),
        "skill.metadata.invalid": Entry(
            "warning", "metadata is not a mapping of strings to strings", also=("error",)
        ),
        "skill.name.collision": Entry("warning", "two skills in one root have the same name"),
        "skill.name.hosts": Entry(
            "info", "what the hosts that keep such a name do with one that breaks the rule"
        ),
        "skill.name.invalid": Entry(
            "warning", "the name breaks the Agent Skills name rule", also=("error",)
        ),
        "skill.name.mismatch": Entry(
            "warning", "the name differs from the skill's directory name", also=("error",)
        ),
        "skill.name.missing": Entry(
            "warning", "the frontmatter has no name; the directory name is used", also=("error",)
        ),
        "skill.name.refused": Entry(
            "warning", "the host profile does not load a skill whose name is over its limit"
        ),
        "skill.name.too-long": Entry(
            "warning", "the name is longer than 64 characters", also=("error",)
        ),
        "skill.read.error": Entry("error", "SKILL.md could not be read", also=("warning",)),
        "skill.requires.missing": Entry(
            "warning", "a skill's metadata.requires names a skill or plugin this load does not have"
        ),
        "skill.shadowed": Entry(
            "warning", "a skill is hidden by a same-named skill of higher precedence"
        ),
        "skill.size": Entry("error", "SKILL.md is larger than the size cap"),
        "skill.symlink.escape": Entry(
            "error", "SKILL.md is a symlink that leaves its skill directory"
        ),
        "skill.symlink.loop": Entry("error", "a symlink loop where a skill was expected"),
        "skill.text.hidden-unicode": Entry(
            "warning", "name or description holds invisible, bidi or control characters"
        ),
        "skill.write.failed": Entry(
            "error", "a skill defined in code could not be written to disk"
        ),
        "tag.catalogue.disagree": Entry(
            "error", "satchel tag: the catalogues and the manifest disagree; nothing is tagged"
        ),
        "tag.exists": Entry("error", "satchel tag: the tag is already there"),
        "tag.git.failed": Entry("error", "satchel tag: git tag or git push failed"),
        "tag.name.invalid": Entry(
            "error", "satchel tag: the tag would not be a valid git ref name"
        ),
        "tag.plugin.invalid": Entry(
            "error", "satchel tag: the plugin loads with errors or its manifest gives no name"
        ),
        "tag.plugin.missing": Entry("error", "satchel tag: the path is not a plugin folder"),
        "tag.plugin.uncommitted": Entry(
            "error", "satchel tag: HEAD does not hold the plugin's manifest"
        ),
        "tag.repository.missing": Entry(
            "error", "satchel tag: the plugin is not in a git work tree"
        ),
        "tag.tree.dirty": Entry("error", "satchel tag: uncommitted changes affect the release"),
        "tag.tree.ignored": Entry(
            "warning", "satchel tag: files git ignores below the plugin are not in the release"
        ),
        "tag.tree.unchecked": Entry(
            "warning", "satchel tag: files git stores through a filter are not compared"
        ),
        "tag.version.invalid": Entry("error", "satchel tag: the version is not a semantic version"),
        "tag.version.missing": Entry(
            "error", "satchel tag: neither the manifest nor an entry gives a version"
        ),
        "trust.changed": Entry(
            "error", "a project hook or MCP server changed, or is new, since the folder was trusted"
        ),
        "trust.required": Entry(
            "info",
            "something of the project does not load until the project is trusted; "
            "the hint is the command that trusts it",
        ),
        "wellknown.archive.layout": Entry("error", "a site's archive has no SKILL.md at its root"),
        "wellknown.digest.mismatch": Entry(
            "error", "a site's artifact is not the digest its index publishes"
        ),
        "wellknown.digest.missing": Entry(
            "warning",
            "a site's index entry has no digest: listed, never installed",
            also=("error",),
        ),
        "wellknown.entry.invalid": Entry(
            "warning",
            "a site's index entry breaks the draft: left out, refused when picked",
            also=("error",),
        ),
        "wellknown.entry.skipped": Entry(
            "warning", "a site's index entry has a type satchel does not know: skipped"
        ),
        "wellknown.index.invalid": Entry("error", "a site's skills index cannot be read"),
        "wellknown.index.too-large": Entry(
            "error", "a site's skills index is past satchel's bounds"
        ),
        "wellknown.name.mismatch": Entry(
            "error", "a site's SKILL.md names another skill than its index entry"
        ),
        "wellknown.schema.unknown": Entry(
            "error", "a site's skills index names a schema satchel does not know"
        ),
    }
)


@model
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
    """Build a diagnostic for a registered code at its default `severity` or another
    its entry names; an unknown code (`KeyError`) or severity (`ValueError`) is a bug."""
    return Diagnostic(code, _registered(code, severity), message, path, line, hint)


def recast(
    found: Diagnostic, severity: Severity, *, code: str | None = None, **changes: Any
) -> Diagnostic:
    """`found` at another `severity` (and `code`, `message`, `hint` when given), held to
    the registry as `diagnostic()` holds a new one."""
    code = found.code if code is None else code
    return replace(found, code=code, severity=_registered(code, severity), **changes)


def _registered(code: str, severity: Severity | None) -> Severity:
    entry = CODES[code]
    if severity is None:
        return entry.severity
    if severity not in entry.emitted:
        listed = ", ".join(entry.emitted)
        raise ValueError(f"{code} is registered at {listed}, not {severity}")
    return severity


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

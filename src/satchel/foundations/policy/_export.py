"""`to_claude_code` and `to_codex`: one `Policy` in each host's managed format.

Claude Code reads ``managed-settings.json``; the keys written, their shapes and what
they mean are those of Claude Code 2.1.332's settings schema (read from its binary,
``.tools/claude-code-2.1.332``, and https://code.claude.com/docs/en/settings):
``allowManagedHooksOnly``, ``disableAllHooks``, ``disableSkillShellExecution``
(booleans); ``allowedHttpHookUrls`` (URL patterns, ``*`` a wildcard; an empty list
admits no http hook); ``allowedMcpServers`` / ``deniedMcpServers`` (entries with
exactly one of ``serverName``, letters, digits, ``_`` and ``-``, matched exactly,
``serverCommand``, an argv matched exactly, or ``serverUrl``, a pattern with ``*``);
``strictKnownMarketplaces`` / ``blockedMarketplaces`` (``{"source": "github", "repo":
"owner/repo"}``, where ``owner/*`` allows an owner's every repository; ``{"source":
"git", "url": ...}``; ``{"source": "hostPattern", "hostPattern": <regex>}``).

Codex reads ``requirements.toml`` (https://developers.openai.com/codex/enterprise/
managed-configuration and the requirements.toml section of its configuration
reference): its ``[mcp_servers.<name>.identity]`` allowlist admits a server only when
its name and its identity (an exact ``command`` or ``url``) both match. That is the
only policy key of satchel's it has a place for; its managed hooks and feature pins are
not written (their shapes were not checked against a running Codex).

Neither host has a key for ``require_signed`` (who signed what it installs) or
``require_digest`` (an install pinned by a published digest): Claude Code's
``strictKnownMarketplaces`` can pin a ``url`` catalogue's ``marketplace.json`` by its
``manifestSha256``, which is a catalogue's digest, not each install's.

Whatever a host cannot say is listed in `Export.cannot`, one line per key (one per
``require_signed`` rule), and left out of the file rather than written looser.
Nothing here reads or writes a file.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from satchel.core._model import model
from satchel.foundations.policy._model import HOOK_TYPES, Lists, Pattern, Policy

__all__ = ["Export", "to_claude_code", "to_codex"]

_GLOB = re.compile(r"[*?\[]")
_CLAUDE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


@model
class Export:
    """A host's managed file for one policy: its `filename`, its `text`, and what the
    host `cannot` express (each line names the satchel key)."""

    host: str
    filename: str
    text: str
    cannot: tuple[str, ...]


def to_claude_code(policy: Policy) -> Export:
    """`policy` as Claude Code's ``managed-settings.json``."""
    out: dict[str, Any] = {}
    cannot: list[str] = []
    for key, name in (
        ("allow_managed_hooks_only", "allowManagedHooksOnly"),
        ("disable_all_hooks", "disableAllHooks"),
        ("disable_skill_shell_execution", "disableSkillShellExecution"),
    ):
        if getattr(policy, key):
            out[name] = True
    if "hooks" in policy.disabled_components:
        out["disableAllHooks"] = True
    _claude_http(policy, out, cannot)
    _claude_mcp(policy, out, cannot)
    _claude_marketplaces(policy.marketplaces, out, cannot)
    cannot += _common_cannot(policy, "Claude Code", also=("sources",))
    for kind in sorted(set(policy.disabled_components) - {"hooks", "mcp"}):
        cannot.append(f"disabled_components ({kind}): Claude Code has no switch for it")
    text = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    return Export("claude-code", "managed-settings.json", text, tuple(cannot))


def to_codex(policy: Policy) -> Export:
    """`policy` as Codex's ``requirements.toml``."""
    lines: list[str] = []
    cannot: list[str] = []
    layers = policy.mcp.allow
    if "mcp" in policy.disabled_components:
        lines.append("[mcp_servers]")  # an allowlist that admits no server
    elif layers:
        if len(layers) > 1:
            cannot.append("mcp.allow: only the first file's list is written (Codex has one)")
        for pattern in layers[0]:
            entry = _codex_server(pattern)
            if entry is None:
                cannot.append(
                    f"mcp.allow {pattern.text}: Codex admits a server by its exact name and "
                    "its exact command or URL, no pattern; left out (it stays refused)"
                )
                continue
            name, field, value = entry
            lines += ["", f"[mcp_servers.{_toml_key(name)}.identity]", _identity(field, value)]
    if policy.mcp.deny:
        cannot.append("mcp.deny: Codex has no deny list for MCP servers")
    for key in (
        "allow_managed_hooks_only",
        "disable_all_hooks",
        "disable_skill_shell_execution",
    ):
        if getattr(policy, key):
            cannot.append(f"{key}: requirements.toml has no key for it that satchel writes")
    if policy.allowed_hook_types or policy.allowed_http_hook_urls:
        cannot.append("allowed_hook_types, allowed_http_hook_urls: no requirements.toml key")
    if policy.marketplaces.allow or policy.marketplaces.deny:
        cannot.append("marketplaces: Codex has no catalogue policy")
    cannot += _common_cannot(policy, "Codex", also=("sources",))
    for kind in sorted(set(policy.disabled_components) - {"mcp"}):
        cannot.append(f"disabled_components ({kind}): Codex has no switch for it")
    text = "\n".join(lines).lstrip("\n")
    return Export("codex", "requirements.toml", text + "\n" if text else "", tuple(cannot))


def _common_cannot(policy: Policy, host: str, *, also: tuple[str, ...]) -> list[str]:
    """What neither host has a key for."""
    found: list[str] = []
    for key in also:
        lists: Lists = getattr(policy, key)
        if lists.allow or lists.deny:
            found.append(f"{key}: {host} has no key for the sources plugins install from")
    if policy.skills.allow or policy.skills.deny:
        found.append(f"skills: {host} has no allow or deny list of skills")
    if policy.disabled_formats:
        found.append(f"disabled_formats: {host} reads its own plugin format only")
    if policy.require_pins:
        found.append(f"require_pins: {host} has no key for it")
    if policy.require_trust:
        found.append(f"require_trust: {host} keeps its own trust rule")
    for rule in policy.require_signed:
        found.append(
            f"require_signed {rule.source.text}: {host} does not check who signed what it "
            "installs; its installs from there are not refused"
        )
    if policy.require_digest:
        found.append(
            f"require_digest: {host} has no key asking that an install be pinned by a "
            "published digest"
        )
    return found


def _claude_http(policy: Policy, out: dict[str, Any], cannot: list[str]) -> None:
    types = policy.allowed_hook_types
    allowed = set(HOOK_TYPES).intersection(*(t.types for t in types)) if types else None
    if allowed is not None and "http" not in allowed:
        out["allowedHttpHookUrls"] = []
    elif policy.allowed_http_hook_urls:
        layers = policy.allowed_http_hook_urls
        if len(layers) > 1:
            cannot.append("allowed_http_hook_urls: only the first file's list is written")
        out["allowedHttpHookUrls"] = [p.text for p in layers[0]]
    if allowed is not None and allowed - {"http"} != set(HOOK_TYPES) - {"http"}:
        left = ", ".join(sorted(set(HOOK_TYPES) - allowed - {"http"}))
        cannot.append(f"allowed_hook_types: Claude Code cannot refuse {left} hooks by type")


def _claude_mcp(policy: Policy, out: dict[str, Any], cannot: list[str]) -> None:
    if "mcp" in policy.disabled_components:
        out["allowedMcpServers"] = []
    elif policy.mcp.allow:
        if len(policy.mcp.allow) > 1:
            cannot.append("mcp.allow: only the first file's list is written")
        out["allowedMcpServers"] = _claude_servers(policy.mcp.allow[0], "allow", cannot)
    denied = _claude_servers(policy.mcp.deny, "deny", cannot)
    if denied:
        out["deniedMcpServers"] = denied


def _claude_servers(patterns: tuple[Pattern, ...], key: str, cannot: list[str]) -> list[Any]:
    entries: list[Any] = []
    for pattern in patterns:
        entry = _claude_server(pattern)
        if entry is None:
            cannot.append(f"mcp.{key} {pattern.text}: {_CLAUDE_MCP_WHY}")
        else:
            entries.append(entry)
    return entries


_CLAUDE_MCP_WHY = (
    "Claude Code matches one of an exact name, an exact argv or a URL pattern; left out"
)


def _claude_server(pattern: Pattern) -> dict[str, Any] | None:
    if len(pattern.fields) != 1:
        return None
    field, glob = pattern.fields[0]
    if field == "url":
        return None if re.search(r"[?\[]", glob) else {"serverUrl": glob}
    if _GLOB.search(glob):
        return None
    if field == "name":
        return {"serverName": glob} if _CLAUDE_NAME.match(glob) else None
    return {"serverCommand": shlex.split(glob)}


def _claude_marketplaces(lists: Lists, out: dict[str, Any], cannot: list[str]) -> None:
    if lists.allow:
        if len(lists.allow) > 1:
            cannot.append("marketplaces.allow: only the first file's list is written")
        found = [_claude_market(p, "allow", cannot) for p in lists.allow[0]]
        out["strictKnownMarketplaces"] = [e for e in found if e is not None]
    if lists.deny:
        found = [_claude_market(p, "deny", cannot) for p in lists.deny]
        out["blockedMarketplaces"] = [e for e in found if e is not None]


def _claude_market(pattern: Pattern, key: str, cannot: list[str]) -> dict[str, str] | None:
    glob = pattern.fields[0][1]
    host, _, path = glob.partition("/")
    if not _GLOB.search(host) and path.count("/") == 1 and not _GLOB.search(path):
        if host == "github.com":
            return {"source": "github", "repo": path}
        return {"source": "git", "url": f"https://{glob}.git"}
    owner, _, repo = path.partition("/")
    if host == "github.com" and repo == "*" and owner and not _GLOB.search(owner):
        return {"source": "github", "repo": f"{owner}/*"}
    if path == "*" and host:
        return {"source": "hostPattern", "hostPattern": _host_regex(host)}
    cannot.append(
        f"marketplaces.{key} {pattern.text}: Claude Code matches a repository, an owner's every "
        "repository or a host; left out"
    )
    return None


def _host_regex(host: str) -> str:
    """The ``fnmatch`` glob `host` as an anchored regular expression."""
    parts = [".*" if c == "*" else "." if c == "?" else re.escape(c) for c in host]
    return "^" + "".join(parts) + "$"


def _codex_server(pattern: Pattern) -> tuple[str, str, str] | None:
    fields = dict(pattern.fields)
    name = fields.get("name")
    if name is None or _GLOB.search(name) or len(fields) != 2:
        return None
    for field in ("command", "url"):
        value = fields.get(field)
        if value is not None and not _GLOB.search(value):
            return name, field, value
    return None


def _identity(field: str, value: str) -> str:
    """The identity line: a URL or a one-word command as a string; a command with
    arguments as Codex's matcher table (the executable, then each argument exactly),
    since the string form compares the command alone."""
    words = shlex.split(value) if field == "command" else [value]
    if len(words) == 1:
        return f"{field} = {_toml(words[0])}"
    args = ", ".join(f'{{ match = "exact", value = {_toml(w)} }}' for w in words[1:])
    return f"command = {{ executable = {_toml(words[0])}, args = [{args}] }}"


def _toml(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _toml_key(name: str) -> str:
    return name if _BARE_KEY.match(name) else _toml(name)

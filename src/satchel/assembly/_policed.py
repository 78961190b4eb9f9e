"""What `load()` keeps of each part once the organisation's policy has had its say.

Each function takes one part of a load and the `Policy` in force (docs/policy.md) and
gives the part without what the policy refuses, with one ``policy.denied`` diagnostic
per item refused, naming the key and the file that refused it:

- `plugins`: ``disabled_formats`` (a plugin of that manifest format) and
  ``disabled_components = ["plugins"]``;
- `skills`: ``[skills] allow`` / ``deny`` and ``disabled_components = ["skills"]``;
- `hooks`: ``disable_all_hooks``, ``allow_managed_hooks_only``, ``allowed_hook_types``,
  ``allowed_http_hook_urls`` and ``disabled_components = ["hooks"]``: a refused hook is
  kept, marked skipped with the refusal as its `why`, so listings show it. Every hook
  `load()` reads comes from a file or a plugin, none is managed: the managed hooks are
  those registered in code (`satchel.hooks.HookMatcher`, the SDK's), which the host
  program adds itself; `hook_refusal` is the one check, which the hook runner asks
  again of every hook at the moment it would run (a skill's own hooks, callbacks);
- `servers`: ``[mcp] allow`` / ``deny`` and ``disabled_components = ["mcp"]``;
- `skill_servers`: the same, for the skill servers whose skills load live (a refused
  one is never started).

Commands, agent types, instruction files and language servers are refused as whole
kinds (``disabled_components``) by `load()` itself. Nothing here reads a file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from satchel.core.diagnostics import Diagnostic
from satchel.foundations.policy._model import Policy
from satchel.hooks._model import Hook, HookSet
from satchel.mcp import McpServerSet
from satchel.mcp._skill_server import SkillServer
from satchel.mcp._spec import McpServer
from satchel.plugins._discover import PluginSet
from satchel.skills._model import Skill

__all__ = ["hook_refusal", "hooks", "mcp_refusal", "plugins", "servers", "skills"]


def plugins(found: PluginSet, policy: Policy) -> tuple[PluginSet, tuple[Diagnostic, ...]]:
    """`found` without the plugins the policy refuses."""
    kept: dict[str, object] = {}
    refused: list[Diagnostic] = []
    for key, plugin in found.plugins.items():
        what = f"plugin {plugin.name!r} ({plugin.format})"
        why = policy.check_component("plugins", what) or policy.check_format(plugin.format, what)
        if why is None:
            kept[key] = plugin
        else:
            refused.append(why)
    if not refused:
        return found, ()
    return replace(found, plugins=MappingProxyType(kept)), tuple(refused)  # type: ignore[arg-type]


def skills(
    found: Mapping[str, Skill], policy: Policy
) -> tuple[Mapping[str, Skill], tuple[Diagnostic, ...]]:
    """`found` without the skills the policy refuses."""
    refused = {name: policy.check_skill(skill.name) for name, skill in found.items()}
    problems = tuple(d for d in refused.values() if d is not None)
    if not problems:
        return found, ()
    kept = {name: s for name, s in found.items() if refused[name] is None}
    return MappingProxyType(kept), problems


def hooks(found: HookSet, policy: Policy) -> HookSet:
    """`found` with every hook the policy refuses marked skipped (and reported)."""
    marked: list[Hook] = []
    problems: list[Diagnostic] = []
    for hook in found.hooks:
        why = None if not hook.loaded else hook_refusal(hook, policy)
        if why is None:
            marked.append(hook)
            continue
        problems.append(why)
        marked.append(replace(hook, status="skipped", why=why.message))
    if not problems:
        return found
    return replace(found, hooks=tuple(marked), diagnostics=(*found.diagnostics, *problems))


def hook_refusal(hook: Hook, policy: Policy) -> Diagnostic | None:
    """The policy's refusal of `hook`, or None: a hook registered in code is managed;
    an ``http`` hook is checked against ``allowed_http_hook_urls`` with its URL."""
    spec = hook.spec
    url = spec.params.get("url") if spec.type == "http" else None
    what = f"{spec.type} hook {spec.name or spec.command!r} on {hook.event} ({hook.source})"
    managed = hook.source == "code"
    return policy.check_hook(spec.type, url if isinstance(url, str) else None, managed=managed,
                             what=what)  # fmt: skip


def skill_servers(
    found: Sequence[SkillServer], policy: Policy
) -> tuple[list[SkillServer], list[Diagnostic]]:
    """The skill servers the policy lets start (its ``[mcp]`` lists, as for any MCP
    server: label, command line, URL), and the refusal of each other one."""
    kept: list[SkillServer] = []
    refused: list[Diagnostic] = []
    for server in found:
        command = " ".join(server.command) if server.command else None
        why = policy.check_mcp(server.label, command, server.url)
        if why is None:
            kept.append(server)
        else:
            refused.append(why)
    return kept, refused


def mcp_refusal(server: McpServer, policy: Policy) -> Diagnostic | None:
    """The policy's refusal of the MCP server `server` (its name, its command line
    joined by spaces, its URL), or None; the MCP supervisor asks it of every server it
    is handed."""
    command = None if server.command is None else " ".join((server.command, *server.args))
    return policy.check_mcp(server.name, command, server.url)


def servers(found: McpServerSet, policy: Policy) -> McpServerSet:
    """`found` without the MCP servers the policy refuses (reported)."""
    kept = []
    problems: list[Diagnostic] = []
    for server in found.servers:
        why = mcp_refusal(server, policy)
        if why is None:
            kept.append(server)
        else:
            problems.append(why)
    if not problems:
        return found
    shadowed = tuple(pair for pair in found.shadowed if pair[0] in kept)
    return replace(
        found,
        servers=tuple(kept),
        shadowed=shadowed,
        diagnostics=(*found.diagnostics, *problems),
    )

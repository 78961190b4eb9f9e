"""Host profiles: each agent host's every decision about where skills, commands,
agents and plugins come from and how they are read, as one frozen `Host` value.

``load(host="codex")`` sees a project as Codex does; `get` gives a built-in profile,
`names` their names, `resolve` a built-in or a user-defined one (``[hosts.<name>]``
in ``config.toml``). See docs/hosts.md.

It may import: `core`, `foundations`, `skills`, `index`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.hosts._config import get, names, resolve, user_profiles
    from satchel.hosts._describe import decisions
    from satchel.hosts._hooks import HookDialect
    from satchel.hosts._instructions import (
        InstructionRule,
        InstructionSource,
        InstructionText,
        RuleFiles,
    )
    from satchel.hosts._lookup import client_profile, instruction_rule
    from satchel.hosts._model import Host, Index, Limits
    from satchel.hosts._models import (
        CLAUDE_CODE_MODELS,
        CODEX_MODELS,
        GEMINI_MODELS,
        Models,
        Resolved,
        Window,
    )
    from satchel.hosts._port import McpDialect, PluginNameRule, PortHooks, PortSpec
    from satchel.hosts._profiles import INSTRUCTION_RULES, PROFILES
    from satchel.hosts._rules import (
        MARKETPLACES,
        PLUGIN_SKILL_RULES,
        TRUST_LISTS,
        Marketplace,
        MetadataRule,
        PluginSkillRule,
    )
    from satchel.skills._names import NameRule
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.hosts._config": ("get", "names", "resolve", "user_profiles"),
            "satchel.hosts._hooks": ("HookDialect",),
            "satchel.hosts._describe": ("decisions",),
            "satchel.hosts._model": ("Host", "Index", "Limits"),
            "satchel.hosts._models": (
                "CLAUDE_CODE_MODELS",
                "CODEX_MODELS",
                "GEMINI_MODELS",
                "Models",
                "Resolved",
                "Window",
            ),
            "satchel.hosts._instructions": (
                "InstructionRule",
                "InstructionSource",
                "InstructionText",
                "RuleFiles",
            ),
            "satchel.hosts._lookup": ("client_profile", "instruction_rule"),
            "satchel.hosts._profiles": ("INSTRUCTION_RULES", "PROFILES"),
            "satchel.hosts._rules": (
                "MARKETPLACES",
                "PLUGIN_SKILL_RULES",
                "TRUST_LISTS",
                "Marketplace",
                "MetadataRule",
                "PluginSkillRule",
            ),
            "satchel.hosts._port": ("McpDialect", "PluginNameRule", "PortHooks", "PortSpec"),
            "satchel.skills._names": ("NameRule",),
        },
    )

__all__ = [
    "CLAUDE_CODE_MODELS",
    "CODEX_MODELS",
    "GEMINI_MODELS",
    "INSTRUCTION_RULES",
    "MARKETPLACES",
    "PLUGIN_SKILL_RULES",
    "PROFILES",
    "TRUST_LISTS",
    "HookDialect",
    "Host",
    "Index",
    "InstructionRule",
    "InstructionSource",
    "InstructionText",
    "Limits",
    "Marketplace",
    "MetadataRule",
    "Models",
    "PluginSkillRule",
    "McpDialect",
    "NameRule",
    "PluginNameRule",
    "PortHooks",
    "PortSpec",
    "Resolved",
    "RuleFiles",
    "Window",
    "client_profile",
    "decisions",
    "get",
    "instruction_rule",
    "names",
    "resolve",
    "user_profiles",
]

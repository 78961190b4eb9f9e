"""The words a host definition is written in: the values each of its decisions can
take. The loaders that act on a decision import its word from here, so the host
definitions sit below every loader and each loader reads the one definition."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = [
    "AMBIGUITY",
    "FORMATS",
    "SKILL_RULES",
    "Ambiguity",
    "Format",
    "InstructionKind",
    "InstructionMode",
    "Naming",
    "PluginSkillNames",
    "SkillRule",
    "TrustListName",
    "Untrusted",
]

Format = Literal[
    "agent-plugins",
    "bundle",
    "claude",
    "codex",
    "cursor",
    "gemini",
    "kimi",
    "opencode",
    "workspace",
]
"""A plugin format satchel reads (one adapter module each in `satchel.plugins.formats`)."""
FORMATS: tuple[Format, ...] = get_args(Format)

Ambiguity = Literal["prefer", "refuse"]
"""What a host does with a directory holding several plugin manifests."""
AMBIGUITY: tuple[Ambiguity, ...] = get_args(Ambiguity)

SkillRule = Literal["claude-code", "vibe"]
"""How a plugin's skill folders are found and checked."""
SKILL_RULES: tuple[SkillRule, ...] = get_args(SkillRule)

InstructionMode = Literal["satchel", "codex", "claude-code", "cursor", "gemini", "copilot"]
"""Which instruction files a host reads, and how: the `InstructionRule` of that
word (`satchel.hosts.instruction_rules`)."""

InstructionKind = Literal[
    "agents", "claude", "client", "override", "local", "rule", "gemini", "copilot", "legacy"
]
"""What an instruction file is (`satchel._instructions.InstructionFile.kind`)."""

Naming = Literal["stem", "path"]
"""How a command in a subfolder is named: its stem, or ``dir:name``."""

PluginSkillNames = Literal["namespaced", "bare"]
"""Whether a plugin's skills are named ``plugin:skill`` or as written."""

Untrusted = Literal["user-first", "skip-project"]
"""What a host does in a folder that is not trusted."""

TrustListName = Literal["satchel", "gemini"]
"""Whose list of trusted folders decides."""

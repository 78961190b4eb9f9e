"""The built-in host profiles, one module per host (`satchel.hosts._codex`, …), each
with its sources (docs/hosts.md has them side by side). Facts marked *observed* were
read off the released program run offline (tests/hosts/ checks them against it where
the program installs from npm); the rest come from the host's documentation. Adding a
host is one module beside these and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import get_args

from satchel.hosts._caveman import CAVEMAN
from satchel.hosts._claude_code import CLAUDE_CODE
from satchel.hosts._codex import CODEX
from satchel.hosts._copilot import COPILOT
from satchel.hosts._cursor import CURSOR
from satchel.hosts._gemini import GEMINI
from satchel.hosts._instructions import InstructionRule
from satchel.hosts._kimi import KIMI
from satchel.hosts._mermaid import MERMAID
from satchel.hosts._model import Host
from satchel.hosts._opencode import OPENCODE
from satchel.hosts._satchel import SATCHEL
from satchel.hosts._vibe import VIBE
from satchel.hosts._vocabulary import InstructionMode
from satchel.hosts._zidane import ZIDANE
from satchel.skills._names import HostNaming

__all__ = ["INSTRUCTION_RULES", "PROFILES", "SATCHEL", "name_rules"]

PROFILES: Mapping[str, Host] = MappingProxyType(
    {
        host.name: host
        for host in (
            SATCHEL,
            CLAUDE_CODE,
            CODEX,
            GEMINI,
            CURSOR,
            COPILOT,
            OPENCODE,
            KIMI,
            VIBE,
            MERMAID,
            ZIDANE,
            CAVEMAN,
        )
    }
)

_MODES: tuple[InstructionMode, ...] = get_args(InstructionMode)
INSTRUCTION_RULES: Mapping[InstructionMode, InstructionRule] = MappingProxyType(
    {
        rule.mode: rule
        for rule in sorted(
            (h.instruction_rule for h in PROFILES.values() if h.instruction_rule is not None),
            key=lambda rule: _MODES.index(rule.mode),
        )
    }
)
"""Every instruction rule a built-in host defines, by the word `Host.instructions`
names it with (in `InstructionMode` order)."""


def name_rules() -> tuple[HostNaming, ...]:
    """Every profile whose name rule is not the Agent Skills one, with its name limit,
    in the profiles' order (the ``skill.name.hosts`` note says what each does)."""
    return tuple(
        HostNaming(host.title, host.names, host.limits.name)
        for host in PROFILES.values()
        if not host.names.spec
    )

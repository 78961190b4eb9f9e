"""`MODES`: what each instruction mode reads, as data: the `InstructionRule` each
host definition holds (`satchel.hosts.INSTRUCTION_RULES`), by its word."""

from __future__ import annotations

from collections.abc import Mapping

from satchel.hosts._instructions import InstructionRule
from satchel.hosts._profiles import INSTRUCTION_RULES
from satchel.hosts._vocabulary import InstructionMode as InstructionMode

__all__ = ["MODES", "InstructionMode", "ModeInfo"]

ModeInfo = InstructionRule
"""One mode: the host's `InstructionRule` (`name` its word, `max_total` its cap,
`conditional` the rule files that can be conditional)."""

MODES: Mapping[InstructionMode, ModeInfo] = INSTRUCTION_RULES

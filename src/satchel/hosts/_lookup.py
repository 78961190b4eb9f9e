"""The look-ups a plain load makes of the host definitions, without importing
every host: the instruction rule a word names (and the one a host reads by) and the
profile whose files a client names. satchel's own answer comes from its definition
alone; any other imports the table of profiles (`satchel.hosts._profiles`) on first
use."""

from __future__ import annotations

from satchel.hosts._instructions import InstructionRule
from satchel.hosts._model import Host
from satchel.hosts._satchel import SATCHEL
from satchel.hosts._vocabulary import InstructionMode

__all__ = ["client_profile", "host_instruction_rule", "instruction_rule"]


def instruction_rule(mode: InstructionMode) -> InstructionRule | None:
    """The instruction rule the word `mode` names (None: no host defines one)."""
    own = SATCHEL.instruction_rule
    if own is not None and mode == own.mode:
        return own
    from satchel.hosts._profiles import INSTRUCTION_RULES

    return INSTRUCTION_RULES.get(mode)


def host_instruction_rule(host: Host) -> InstructionRule | None:
    """The instruction rule `host` reads by: the one it defines, else the one its
    `Host.instructions` word names (None: it reads no instruction files)."""
    if host.instruction_rule is not None:
        return host.instruction_rule
    return None if host.instructions is None else instruction_rule(host.instructions)


def client_profile(client: str) -> Host:
    """The built-in profile whose own files a `client` names (``zidane``: zidane's);
    satchel's for a client no built-in profile names."""
    if client == SATCHEL.client:
        return SATCHEL
    from satchel.hosts._profiles import PROFILES

    return next((h for h in PROFILES.values() if h.client == client), SATCHEL)

"""satchel's exceptions. Bad files never raise: they become diagnostics. These are
for misuse of the API by a host, and for reads the host asked for that failed.

    SatchelError
    ├── SkillDefinitionError   define_skill() was given a skill the spec refuses
    └── SkillBodyError         Skill.body() could not read the file
"""

from __future__ import annotations

from collections.abc import Sequence

from satchel.diagnostics import Diagnostic

__all__ = ["SatchelError", "SkillBodyError", "SkillDefinitionError"]


class SatchelError(Exception):
    """The root of satchel's exceptions."""


class SkillDefinitionError(SatchelError, ValueError):
    """A skill defined in code breaks the spec; `diagnostics` says how."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__("; ".join(f"{d.code}: {d.message}" for d in self.diagnostics))


class SkillBodyError(SatchelError):
    """The body of a skill could not be read; `diagnostic` says why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic

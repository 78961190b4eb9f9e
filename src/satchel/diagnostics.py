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
    "cli.io.error": ("error", "a file or directory the command needed could not be used"),
    "cli.skill.exists": ("error", "the skill to create already has a SKILL.md"),
    "cli.skill.invalid": ("error", "the skill to create breaks the Agent Skills spec"),
    "cli.skill.unknown": ("error", "no skill that loads has the name asked for"),
    "cli.skill.unreadable": ("error", "the body of the skill asked for could not be read"),
    "discovery.limit": ("warning", "a bounded walk stopped at its depth or directory limit"),
    "discovery.root.not-directory": ("warning", "a configured skills root is not a directory"),
    "discovery.root.unreadable": ("warning", "a skills root could not be listed"),
    "discovery.untrusted": (
        "info",
        "project skills were not loaded because the project is not trusted",
    ),
    "encoding.nul": ("error", "the file holds a NUL byte"),
    "encoding.not-utf8": ("error", "the file is not valid UTF-8"),
    "frontmatter.field.type": ("error", "a frontmatter field has the wrong type"),
    "frontmatter.missing": ("error", "the file does not open with a --- frontmatter fence"),
    "frontmatter.not-mapping": ("error", "the frontmatter is not a YAML mapping"),
    "frontmatter.too-large": ("error", "the frontmatter is larger than the cap"),
    "frontmatter.unterminated": ("error", "the frontmatter has no closing --- fence"),
    "frontmatter.yaml.alias": ("error", "the frontmatter uses YAML anchors or aliases"),
    "frontmatter.yaml.colon-fallback": (
        "warning",
        "the frontmatter parsed only after quoting a value that holds ': '",
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
    "skill.allowed-tools.invalid": (
        "warning",
        "allowed-tools is neither a string nor a list of strings",
    ),
    "skill.compatibility.invalid": (
        "warning",
        "compatibility is empty or longer than 500 characters",
    ),
    "skill.description.missing": ("error", "the skill has no description"),
    "skill.description.too-long": ("warning", "the description is longer than 1024 characters"),
    "skill.field.deprecated": ("info", "a deprecated top-level field was moved into metadata"),
    "skill.field.unknown": (
        "info",
        "a frontmatter field outside the spec and the known host extras",
    ),
    "skill.file.misnamed": ("warning", "a skill file is not named exactly SKILL.md"),
    "skill.file.not-regular": ("error", "SKILL.md is not a regular file"),
    "skill.file.twin": ("warning", "SKILL.md and skill.md both exist in one directory"),
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

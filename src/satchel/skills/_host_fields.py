"""Claude Code's skill fields beyond the spec, read into typed values.

Claude Code 2.1.332's skill frontmatter schema (the zod ``.describe()`` texts in the
pinned binary, ``.tools/claude-code-2.1.332/claude``) gives: ``when_to_use``
("Becomes part of the tool description"), ``paths`` ("The skill only loads when
the model touches matching files"), ``disallowed-tools`` (alias
``disallowedTools``), ``model`` (``haiku|sonnet|opus|fable|<id>|inherit``),
``effort`` (``low|medium|high|xhigh|max`` or an integer: the binary's effort list
is ``["low","medium","high","xhigh","max"]``), ``shell`` (``bash|powershell``),
``context`` (``inline|fork``), ``agent`` (the agent type a fork spawns) and
``background`` (a boolean). A value satchel cannot use is left out with a
``skill.field.invalid`` warning; the raw value stays in `Skill.extras`.

This module only reads values; `paths` patterns are matched in the session
(`satchel.session._conditional`), with the rule files' matcher.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from satchel.core._model import model
from satchel.core._text import yes_or_no
from satchel.core.diagnostics import type_name

__all__ = ["EFFORTS", "HOST_KEYS", "NO_HOST_FIELDS", "HostFields", "read_host_fields"]

EFFORTS = ("low", "medium", "high", "xhigh", "max")
SHELLS = ("bash", "powershell")
CONTEXTS = ("inline", "fork")
MAX_WHEN_TO_USE = 1024

Report = Callable[[str, str], None]
Split = Callable[[str], list[str]]


@model(slots=True)
class HostFields:
    """The typed values of one skill's host fields (None or () when not given)."""

    when_to_use: str | None = None
    paths: tuple[str, ...] | None = None
    disallowed_tools: tuple[str, ...] = ()
    model: str | None = None
    effort: str | int | None = None
    shell: str | None = None
    context: str | None = None
    agent: str | None = None
    background: bool | None = None

    def as_fields(self) -> dict[str, Any]:
        """These values by field name: `Skill` has a field of each name."""
        return {name: getattr(self, name) for name in self.__slots__}  # the fields, in order


NO_HOST_FIELDS = HostFields()
# Every key a host field is read from: a frontmatter with none of them has none.
HOST_KEYS = frozenset(
    ("when_to_use", "when-to-use", "paths", "disallowed-tools", "disallowedTools", "model",
     "effort", "shell", "context", "agent", "background")
)  # fmt: skip


def read_host_fields(fields: Mapping[str, Any], report: Report, split: Split) -> HostFields:
    """Read the host fields of `fields`; `report(code, message)` hears each bad value
    and `split` splits a tool list as `allowed-tools` is split."""
    if HOST_KEYS.isdisjoint(fields):
        return NO_HOST_FIELDS  # the common case: a skill in the spec's fields only
    return HostFields(
        when_to_use=_when_to_use(fields, report),
        paths=_paths(fields, report),
        disallowed_tools=_disallowed(fields, report, split),
        model=_word(fields, "model", report),
        effort=_effort(fields, report),
        shell=_choice(fields, "shell", SHELLS, report),
        context=_choice(fields, "context", CONTEXTS, report),
        agent=_word(fields, "agent", report),
        background=_background(fields, report),
    )


def _invalid(report: Report, key: str, why: str) -> None:
    report("skill.field.invalid", f"`{key}` {why}; the field is ignored")


def _when_to_use(fields: Mapping[str, Any], report: Report) -> str | None:
    key = "when_to_use" if "when_to_use" in fields else "when-to-use"
    value = fields.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        _invalid(report, key, f"must be a string, not {type_name(value)}")
        return None
    if not value.strip():
        _invalid(report, key, "is empty")
        return None
    if len(value) > MAX_WHEN_TO_USE:
        _invalid(report, key, f"is {len(value)} characters; the limit is {MAX_WHEN_TO_USE}")
        return None
    return value.strip()


def _paths(fields: Mapping[str, Any], report: Report) -> tuple[str, ...] | None:
    value = fields.get("paths")
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        _invalid(report, "paths", f"must be a string or a list of strings, not {type_name(value)}")
        return None
    kept = tuple(v.strip() for v in value if v.strip())
    if not kept:
        _invalid(report, "paths", "names no pattern")
        return None
    return kept


def _disallowed(fields: Mapping[str, Any], report: Report, split: Split) -> tuple[str, ...]:
    key = "disallowed-tools" if "disallowed-tools" in fields else "disallowedTools"
    value = fields.get(key)
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(split(value))
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(t for v in value for t in split(v))
    _invalid(report, key, f"must be a string or a list of strings, not {type_name(value)}")
    return ()


def _word(fields: Mapping[str, Any], key: str, report: Report) -> str | None:
    value = fields.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        _invalid(report, key, f"must be a string, not {type_name(value)}")
        return None
    if not value.strip() or any(c.isspace() for c in value.strip()):
        _invalid(report, key, f"must be one word, not {value!r}")
        return None
    return value.strip()


def _choice(
    fields: Mapping[str, Any], key: str, allowed: tuple[str, ...], report: Report
) -> str | None:
    value = fields.get(key)
    if value is None:
        return None
    if value not in allowed:
        _invalid(report, key, f"must be one of {', '.join(allowed)}, not {value!r}")
        return None
    return str(value)


def _effort(fields: Mapping[str, Any], report: Report) -> str | int | None:
    value = fields.get("effort")
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    if value in EFFORTS:
        return str(value)
    listed = ", ".join(EFFORTS)
    _invalid(report, "effort", f"must be one of {listed} or a positive integer, not {value!r}")
    return None


def _background(fields: Mapping[str, Any], report: Report) -> bool | None:
    value = fields.get("background")
    if value is None or (meaning := yes_or_no(value)) is not None:
        return None if value is None else meaning
    _invalid(report, "background", f"must be true or false, not {value!r}")
    return None

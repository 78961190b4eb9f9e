"""What a hook reads on stdin, per host: each host's payload dialect, read off its
definition (`Host.hooks`, a `satchel.hosts.HookDialect`).

A payload is the common fields, then ``hook_event_name``, then the event's own fields
(``tool_name``, ``prompt``...: the host loop's, passed to `HookRunner.run`). Which
common fields an event carries is the host's dialect (`Dialect`): every host sends
``session_id``, ``transcript_path`` and ``cwd``; Claude Code adds ``prompt_id`` (once a
prompt was submitted), ``permission_mode`` and ``effort`` on some events, and
``agent_id`` / ``agent_type`` inside a subagent. The values come from the host loop
(`PayloadContext`: a `Session` fills it from its options and its current prompt).

`dialect_for` gives a host profile's dialect; a host with none of its own gets `PLAIN`
(the three common fields only, satchel's own rule). Another host's dialect is one more
field of its definition (a common field no host has yet is a `PayloadContext` field
named in its `order`; what it tells its model of the hooks' answers its `Words`; where
it keeps a transcript its `transcript` template; the variables it sets for its hooks
its `HookVariables.session`). `DIALECTS` names the hosts whose transcripts satchel
knows: Claude Code 2.1.332 and 2.1.337 (`CLAUDE_CODE`), Codex 0.171.0 (`CODEX`) and
Gemini CLI 0.61.0 (`GEMINI`), each observed by running the host with every event's
hook writing its stdin (tests/hooks/test_claude_hook_loop.py,
test_codex_hook_loop.py, test_gemini_hook_loop.py).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.hosts._claude_code import CLAUDE_CODE_HOOKS as CLAUDE_CODE
from satchel.hosts._codex import CODEX_HOOKS as CODEX
from satchel.hosts._dialects import PLAIN, dialect_for
from satchel.hosts._gemini import GEMINI_HOOKS as GEMINI
from satchel.hosts._hooks import HookDialect as Dialect
from satchel.hosts._profiles import PROFILES

__all__ = [
    "CLAUDE_CODE",
    "CODEX",
    "DIALECTS",
    "GEMINI",
    "PLAIN",
    "Dialect",
    "PayloadContext",
    "claude_project_dir",
    "claude_transcript_path",
    "codex_transcript_path",
    "dialect_for",
    "gemini_hook_variables",
    "gemini_transcript_path",
    "hook_variables",
    "new_id",
    "session_variables",
    "transcript_file",
    "transcript_path",
]


@model
class PayloadContext:
    """What the host loop knows when it fires an event: the values of the common
    fields. None leaves a field out (a host sends no ``prompt_id`` before the first
    prompt, no ``agent_id`` outside a subagent)."""

    session_id: str = ""
    transcript_path: str = ""
    cwd: str = ""
    prompt_id: str | None = None
    permission_mode: str | None = None
    agent_id: str | None = None
    agent_type: str | None = None
    effort: str | None = None
    model: str | None = None

    def value(self, name: str) -> Any:
        """The payload value of common field `name` (None: left out). Codex's
        ``turn_id`` is the current prompt's id and its ``thread_id`` the session's;
        Gemini CLI's ``timestamp`` is now."""
        if name == "effort":
            return None if self.effort is None else {"level": self.effort}
        if name == "turn_id":
            return self.prompt_id
        if name == "thread_id":  # Codex's thread is its session
            return self.session_id
        if name == "timestamp":
            return _now()
        value: Any = getattr(self, name)
        return value


def _now() -> str:
    """The time as Gemini CLI stamps its payloads (``2026-12-07T08:52:03.029Z``)."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


DIALECTS = MappingProxyType(
    {name: host.hooks for name, host in PROFILES.items() if host.hooks.transcript is not None}
)
"""The built-in profiles whose sessions satchel knows (their transcript): each one's
dialect."""


def new_id() -> str:
    """A fresh id as the hosts make theirs: a random uuid (``session_id``,
    ``prompt_id``)."""
    return str(uuid.uuid4())


_DIR_LIMIT = 200


def _java_hash(text: str) -> int:
    """The 32-bit string hash Claude Code uses (``h = h*31 + unit`` over UTF-16 units)."""
    h = 0
    data = text.encode("utf-16-le")
    for i in range(0, len(data), 2):
        h = (h * 31 + int.from_bytes(data[i : i + 2], "little")) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def claude_project_dir(cwd: str) -> str:
    """The folder name Claude Code gives `cwd` under ``~/.claude/projects``: every
    character (UTF-16 unit) that is not an ASCII letter or digit becomes ``-``; a name
    over 200 characters is cut to 200 and followed by ``-`` and its hash in base 36."""
    units = cwd.encode("utf-16-le")
    chars = [
        chr(c) if c < 128 and chr(c).isalnum() else "-"
        for c in (int.from_bytes(units[i : i + 2], "little") for i in range(0, len(units), 2))
    ]
    name = "".join(chars)
    if len(name) <= _DIR_LIMIT:
        return name
    return f"{name[:_DIR_LIMIT]}-{_base36(abs(_java_hash(cwd)))}"


def claude_transcript_path(home: Path, cwd: str, session_id: str) -> str:
    """Where Claude Code keeps session `session_id`'s transcript for `cwd`."""
    return transcript_file(CLAUDE_CODE, home, cwd, session_id)


def codex_transcript_path(home: Path, cwd: str, session_id: str) -> str:
    """Where Codex keeps a session's rollout: ``~/.codex/sessions/YYYY/MM/DD/
    rollout-YYYY-MM-DDTHH-MM-SS-<session_id>.jsonl``, dated when the session starts."""
    return transcript_file(CODEX, home, cwd, session_id)


def gemini_transcript_path(home: Path, cwd: str, session_id: str) -> str:
    """Where Gemini CLI keeps a session's chat: ``~/.gemini/tmp/<project folder's
    name>/chats/session-YYYY-MM-DDTHH-MM-<first 8 of the id>.jsonl``."""
    return transcript_file(GEMINI, home, cwd, session_id)


def _fill(template: str, home: Path, cwd: str, session_id: str) -> str:
    """`template` filled (see `HookDialect.transcript`); one holding a ``/`` is a path."""
    text = template.format(
        home=str(home).rstrip("/"),
        cwd=cwd,
        cwd_name=Path(cwd).name,
        cwd_dashed=claude_project_dir(cwd),
        session_id=session_id,
        session_short=session_id[:8],
        now=datetime.now(),
    )
    return str(Path(text)) if "/" in template else text


def transcript_file(dialect: Dialect, home: Path, cwd: str, session_id: str) -> str:
    """Where a host of `dialect` keeps session `session_id`'s transcript ("" for a
    host whose rule satchel does not know)."""
    rule = dialect.transcript
    return "" if rule is None else _fill(rule, home, cwd, session_id)


def transcript_path(host: str | None, home: Path, cwd: str, session_id: str) -> str:
    """Where host `host` keeps session `session_id`'s transcript ("" for a host whose
    rule satchel does not know)."""
    return transcript_file(dialect_for(host), home, cwd, session_id)


def session_variables(dialect: Dialect, context: PayloadContext, home: Path) -> dict[str, str]:
    """The variables a host of `dialect` sets for every hook from its session
    (`HookVariables.session`)."""
    rules = dialect.variables.session
    return {k: _fill(v, home, context.cwd, context.session_id) for k, v in rules.items()}


def hook_variables(host: str | None, context: PayloadContext, home: Path) -> dict[str, str]:
    """The variables host `host` sets for every hook from its session; none for a host
    whose rule satchel does not know."""
    return session_variables(dialect_for(host), context, home)


def gemini_hook_variables(context: PayloadContext, home: Path) -> dict[str, str]:
    """The variables Gemini CLI 0.61.0 sets for every hook (observed):
    ``GEMINI_PROJECT_DIR``, ``GEMINI_CWD`` and ``CLAUDE_PROJECT_DIR``, the working
    directory; ``GEMINI_SESSION_ID``; ``GEMINI_PLANS_DIR``."""
    return session_variables(GEMINI, context, home)

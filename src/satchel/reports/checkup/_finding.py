"""`HostFinding`: one thing a host will silently get wrong on this machine, with the
host, the file, a stable code (`satchel.core.diagnostics` registers it) and a fix line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, Severity, diagnostic

__all__ = ["RANK", "HostFinding"]

RANK = {"error": 0, "warning": 1, "info": 2}


@model
class HostFinding:
    """One finding for `host` (a host's name, ``codex``): its `code`, `severity`,
    `message`, the `fix` (one line: what to do), and the `path` and `line` it is
    about, if any. `verbatim`: texts of the message and fix quoted as a host writes
    them (a key in its config), which the report writes as they are (`told`)."""

    host: str
    code: str
    severity: Severity
    message: str
    fix: str
    path: Path | None = None
    line: int | None = None
    verbatim: tuple[str, ...] = ()

    @classmethod
    def of(cls, host: str, found: Diagnostic, fix: str | None = None) -> HostFinding:
        """The finding a load diagnostic is for `host`; its hint is the fix unless
        `fix` is given."""
        return cls(
            host=host,
            code=found.code,
            severity=found.severity,
            message=found.message,
            fix=fix or found.hint or "",
            path=found.path,
            line=found.line,
        )

    @classmethod
    def new(
        cls,
        host: str,
        code: str,
        message: str,
        fix: str,
        path: Path | None = None,
        *,
        line: int | None = None,
        severity: Severity | None = None,
        verbatim: tuple[str, ...] = (),
    ) -> HostFinding:
        """A finding of a registered `code` (its registered severity unless given)."""
        found = diagnostic(code, message, path, line=line, severity=severity)
        return cls(host, code, found.severity, message, fix, path, line, verbatim)

    def told(self, said: Callable[[str], str]) -> tuple[str, str]:
        """The message and the fix as `said` writes them (`Machine.said`: the paths in
        them as the report writes them), the `verbatim` texts as they are."""
        held = {f"\x00{n}\x00": text for n, text in enumerate(self.verbatim)}

        def say(text: str) -> str:
            for mark, kept in held.items():
                text = text.replace(kept, mark)
            text = said(text)
            for mark, kept in held.items():
                text = text.replace(mark, kept)
            return text

        return say(self.message), say(self.fix)

    def sort_key(self) -> tuple[int, str, str, str, int, str]:
        """Errors first, then by code, host, file, line and message."""
        where = "" if self.path is None else str(self.path)
        return (RANK[self.severity], self.code, self.host, where, self.line or 0, self.message)

    def to_json(
        self, shown: Callable[[Path], str], said: Callable[[str], str] = str
    ) -> dict[str, Any]:
        """The finding as JSON, its path as `shown` writes it, its message and fix as
        `told` does."""
        message, fix = self.told(said)
        return {
            "host": self.host,
            "code": self.code,
            "severity": self.severity,
            "message": message,
            "fix": fix,
            "path": None if self.path is None else shown(self.path),
            "line": self.line,
        }

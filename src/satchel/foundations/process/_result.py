"""`ProcessResult`: what a run gave, its bounded output and its diagnostics."""

from __future__ import annotations

import codecs
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic


def cut_marker(read: int, kept: int) -> str:
    """The line that ends a stream cut at the cap."""
    return f"[output cut by satchel: {read:,} bytes read, {kept:,} kept]\n"


@model
class ProcessResult:
    """What a run gave. `exit_code` is None when the process did not start or timed
    out; a negative code -N means it died of signal N."""

    argv: tuple[str, ...]
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool = False
    truncated: bool = False
    duration: float = 0.0
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def ok(self) -> bool:
        """Started, finished in time and exited with 0."""
        return self.exit_code == 0 and not self.timed_out

    def to_json(self) -> dict[str, object]:
        return {
            "exitCode": self.exit_code,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "timedOut": self.timed_out,
            "truncated": self.truncated,
        }


@dataclass(slots=True)
class Sink:
    """One output stream: the first `cap` bytes kept, the rest counted and dropped."""

    cap: int
    kept: bytearray = field(default_factory=bytearray)
    total: int = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.cap - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]

    @property
    def cut(self) -> bool:
        return self.total > self.cap

    def text(self) -> str:
        """The kept bytes as text; a cut stream loses a partial last character and
        gains the marker line."""
        if not self.cut:
            return self.kept.decode("utf-8", "replace")
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        text = decoder.decode(bytes(self.kept), final=False)
        kept = len(self.kept) - len(decoder.getstate()[0])
        newline = "\n" if text and not text.endswith("\n") else ""
        return text + newline + cut_marker(self.total, kept)


def finished(
    args: tuple[str, ...],
    returncode: int | None,
    out: Sink,
    err: Sink,
    timed_out: bool,
    timeout: float,
    start: float,
) -> ProcessResult:
    """The result of a run that started: its exit, output and diagnostics."""
    path = _diag_path(args[0])
    diags: list[Diagnostic] = []
    if timed_out:
        message = f"{args[0]!r} timed out after {timeout:g} s; its process group was killed"
        diags.append(diagnostic("exec.timeout", message, path))
    for name, sink in (("stdout", out), ("stderr", err)):
        if sink.cut:
            message = (
                f"{args[0]!r} wrote {sink.total:,} bytes to {name}, more than the cap of "
                f"{sink.cap:,}; the rest was cut"
            )
            diags.append(diagnostic("exec.output.truncated", message, path))
    return ProcessResult(
        argv=args,
        exit_code=None if timed_out else returncode,
        stdout=out.text(),
        stderr=err.text(),
        timed_out=timed_out,
        truncated=out.cut or err.cut,
        duration=time.monotonic() - start,
        diagnostics=tuple(diags),
    )


def _diag_path(argv0: str) -> Path | None:
    return Path(argv0) if os.sep in argv0 else None


def not_started(args: tuple[str, ...], reason: str, start: float) -> ProcessResult:
    """The result of a run that could not start, `reason` saying why."""
    message = f"cannot start {args[0]!r}: {reason}"
    return ProcessResult(
        argv=args,
        exit_code=None,
        stdout="",
        stderr="",
        duration=time.monotonic() - start,
        diagnostics=(diagnostic("exec.start", message, _diag_path(args[0])),),
    )

"""`spawn_process`: a long-lived child (an MCP server) under the same rules as `run_process`.

`run_process` runs a child to its end; a server lives as long as the session. The
rules are the same ones (see `satchel.foundations.process`): argv only, never a shell; exactly the
environment given (callers build it with `base_env`/`overlay_env`); file descriptors
other than 0, 1 and 2 closed; its own process group; stderr captured up to a cap (the
rest read and dropped, never inherited by the terminal); and `LongProcess.stop` ends
it with SIGTERM to the whole group, then SIGKILL after `grace` seconds, then SIGKILL
again for whatever is left of the group. The group is signalled before the child is
reaped, so its id cannot have been reused.

Stdin and stdout are asyncio streams for the caller to speak its protocol over
(newline-delimited JSON-RPC for MCP). The child is reaped by `stop` only: an asyncio
child watcher never sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from satchel.core.diagnostics import Diagnostic
from satchel.foundations.process._group import exited, signal_group
from satchel.foundations.process._live import LIVE
from satchel.foundations.process._result import Sink, not_started
from satchel.foundations.process._start import bad_input, start_reason

__all__ = ["MAX_LINE", "MAX_STDERR", "LongProcess", "spawn_process"]

MAX_STDERR = 64 * 1024  # bytes of a server's stderr kept (for the message when it fails)
MAX_LINE = 16 * 1024 * 1024  # the longest stdout line a reader accepts
_CHUNK = 64 * 1024
_NAP = 0.01


@dataclass(slots=True, eq=False)
class LongProcess:
    """A running child: `stdin` and `stdout` as asyncio streams, stderr in a bounded sink."""

    argv: tuple[str, ...]
    popen: subprocess.Popen[bytes]
    stdin: asyncio.StreamWriter
    stdout: asyncio.StreamReader
    _err: Sink
    _err_task: asyncio.Task[None]
    _pipes: tuple[asyncio.BaseTransport, ...]
    _stopped: bool = field(default=False)

    @property
    def pid(self) -> int:
        """The child's pid, which is also its process group id."""
        return self.popen.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once `stop` has reaped the child (-N: killed by signal N)."""
        return self.popen.returncode

    def exited(self) -> bool:
        """Whether the child has exited (it stays a zombie until `stop`)."""
        return exited(self.popen)

    def stderr(self) -> str:
        """What the child wrote to stderr so far, at most `MAX_STDERR` bytes of it."""
        return self._err.text()

    async def stop(self, grace: float = 1.0) -> None:
        """Close stdin, give the child `grace` seconds to exit, then SIGTERM its group,
        `grace` more, then SIGKILL the group; reap it. Idempotent; never raises."""
        if self._stopped:
            return
        self._stopped = True
        with contextlib.suppress(OSError, RuntimeError):
            self.stdin.close()
        if not await self._wait(grace):
            signal_group(self.pid, signal.SIGTERM)
            await self._wait(grace)
        signal_group(self.pid, signal.SIGKILL)  # the leader and anything it left behind
        LIVE.discard(self.pid)
        await self._wait(grace)
        self.popen.wait()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._err_task), _NAP * 10)
        self._err_task.cancel()
        for pipe in self._pipes:
            pipe.close()

    async def _wait(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while not self.exited():
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(_NAP)
        return True


async def spawn_process(
    argv: Sequence[str],
    *,
    cwd: str | os.PathLike[str],
    env: Mapping[str, str],
    max_stderr: int = MAX_STDERR,
) -> tuple[LongProcess | None, tuple[Diagnostic, ...]]:
    """Start `argv` in `cwd` with exactly `env`, in its own process group. A child that
    cannot start gives None and an ``exec.start`` diagnostic saying why."""
    args = tuple(argv)
    if not args:
        raise ValueError("spawn_process needs a non-empty argv")
    start = time.monotonic()
    refused = bad_input(args, cwd, env)
    if refused is not None:
        return None, not_started(args, refused, start).diagnostics
    try:
        popen = _popen(args, cwd, dict(env))
    except OSError as e:
        reason = start_reason(args[0], cwd, env, e)
        return None, not_started(args, reason, start).diagnostics
    LIVE.add(popen.pid)
    try:
        return await _attach(args, popen, max_stderr), ()
    except BaseException:  # cancelled (or failed) before the caller could stop it
        signal_group(popen.pid, signal.SIGKILL)
        LIVE.discard(popen.pid)
        popen.wait()
        for pipe in (popen.stdin, popen.stdout, popen.stderr):
            if pipe is not None:
                pipe.close()
        raise


def _popen(
    args: tuple[str, ...], cwd: str | os.PathLike[str], env: dict[str, str]
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        args,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        shell=False,
        close_fds=True,
        start_new_session=True,
    )


async def _attach(
    args: tuple[str, ...], popen: subprocess.Popen[bytes], max_stderr: int
) -> LongProcess:
    assert popen.stdin is not None and popen.stdout is not None and popen.stderr is not None
    loop = asyncio.get_running_loop()
    stdout = asyncio.StreamReader(limit=MAX_LINE, loop=loop)
    out, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(stdout), popen.stdout
    )
    into, protocol = await loop.connect_write_pipe(
        lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), popen.stdin
    )
    stdin = asyncio.StreamWriter(into, protocol, None, loop)
    errors = asyncio.StreamReader(limit=_CHUNK, loop=loop)
    err, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(errors), popen.stderr
    )
    sink = Sink(max_stderr)
    task = loop.create_task(_collect(errors, sink))
    return LongProcess(args, popen, stdin, stdout, sink, task, (out, into, err))


async def _collect(stream: asyncio.StreamReader, sink: Sink) -> None:
    """Read stderr to its end, keeping the first bytes; the rest is dropped, so that
    the child never blocks on a full pipe."""
    while chunk := await stream.read(_CHUNK):
        sink.add(chunk)

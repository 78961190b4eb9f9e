"""`run_process`: spawn an argv in its own process group, pump its pipes, kill the group."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO

from satchel.foundations.process._group import exited, signal_group
from satchel.foundations.process._live import LIVE
from satchel.foundations.process._result import ProcessResult, Sink, finished, not_started
from satchel.foundations.process._start import bad_input, start_reason

DEFAULT_TIMEOUT = 60.0
MAX_OUTPUT = 1024 * 1024

_CHUNK = 64 * 1024  # one read; a stream never holds more than its cap plus this
_FIRST_NAP = 0.001  # polling for the child's exit backs off from this...
_LAST_NAP = 0.05  # ...to this


def run_process(
    argv: Sequence[str],
    *,
    cwd: str | os.PathLike[str],
    env: Mapping[str, str],
    stdin: bytes | str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_output: int = MAX_OUTPUT,
    grace: float = 0.5,
    drain: float = 0.5,
) -> ProcessResult:
    """Run `argv` in `cwd` with exactly `env`, feeding it `stdin`; see
    `satchel.foundations.process`."""
    args = tuple(argv)
    _check_limits(args, timeout, max_output, grace, drain)
    start = time.monotonic()
    refused = bad_input(args, cwd, env)
    if refused is not None:
        return not_started(args, refused, start)
    try:
        proc = _spawn(args, cwd, env, stdin is not None)
    except OSError as e:
        return not_started(args, start_reason(args[0], cwd, env, e), start)
    LIVE.add(proc.pid)
    pipes = _Pipes(proc, _encode(stdin), max_output)
    timed_out = True
    try:
        timed_out = _supervise(proc, pipes, start + timeout, grace, drain)
    finally:
        signal_group(proc.pid, signal.SIGKILL)
        LIVE.discard(proc.pid)
        _pump(pipes, time.monotonic() + drain, pipes.closed)
        pipes.close()
        proc.wait()
    return finished(args, proc.returncode, pipes.out, pipes.err, timed_out, timeout, start)


def _check_limits(args: tuple[str, ...], *limits: float) -> None:
    if not args:
        raise ValueError("run_process needs a non-empty argv")
    if not all(limit >= 0 for limit in limits):
        raise ValueError("timeout, max_output, grace and drain must be >= 0")


def _spawn(
    args: tuple[str, ...], cwd: str | os.PathLike[str], env: Mapping[str, str], feed: bool
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        args,
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.PIPE if feed else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        shell=False,
        close_fds=True,
        start_new_session=True,
    )


def _encode(stdin: bytes | str | None) -> bytes:
    if isinstance(stdin, str):
        return stdin.encode("utf-8", "replace")  # a lone surrogate becomes "?"
    return stdin or b""


def _supervise(
    proc: subprocess.Popen[bytes], pipes: _Pipes, deadline: float, grace: float, drain: float
) -> bool:
    """Run the child to its exit or to `deadline`; True when it timed out."""

    def done() -> bool:
        return exited(proc)

    if _pump(pipes, deadline, done):
        _pump(pipes, time.monotonic() + drain, pipes.closed)
        return False
    signal_group(proc.pid, signal.SIGTERM)
    _pump(pipes, time.monotonic() + grace, done)
    return True


def _pump(pipes: _Pipes, until: float, done: Callable[[], bool]) -> bool:
    """Move data through the pipes until `done()`; False if `until` came first."""
    nap = _FIRST_NAP
    was_open = not pipes.closed()
    while not done():
        left = until - time.monotonic()
        if left <= 0:
            return False
        if pipes.closed():
            if was_open:  # the child closed its pipes: it is most likely exiting now
                nap, was_open = _FIRST_NAP, False
            time.sleep(min(left, nap))
        else:
            pipes.step(min(left, nap))
        nap = min(nap * 2, _LAST_NAP)
    return True


class _Pipes:
    """The child's pipes under one selector: stdin fed, stdout and stderr read."""

    def __init__(self, proc: subprocess.Popen[bytes], feed: bytes, cap: int) -> None:
        self.out = Sink(cap)
        self.err = Sink(cap)
        self._feed = memoryview(feed)
        self._sel = selectors.DefaultSelector()
        for stream, sink in ((proc.stdout, self.out), (proc.stderr, self.err)):
            if stream is not None:
                self._sel.register(stream, selectors.EVENT_READ, sink)
        if proc.stdin is not None and not feed:
            proc.stdin.close()
        elif proc.stdin is not None:
            os.set_blocking(proc.stdin.fileno(), False)
            self._sel.register(proc.stdin, selectors.EVENT_WRITE, None)

    def closed(self) -> bool:
        return not self._sel.get_map()

    def step(self, wait: float) -> None:
        for key, _ in self._sel.select(wait):
            stream: IO[bytes] = key.fileobj  # type: ignore[assignment]  # we register files
            if key.data is None:
                self._write(stream)
            else:
                self._read(stream, key.data)

    def _read(self, stream: IO[bytes], sink: Sink) -> None:
        chunk = os.read(stream.fileno(), _CHUNK)
        if chunk:
            sink.add(chunk)
        else:
            self._drop(stream)

    def _write(self, stream: IO[bytes]) -> None:
        try:
            written = os.write(stream.fileno(), self._feed[:_CHUNK])
        except BlockingIOError:
            return
        except BrokenPipeError:  # the child closed its stdin early: fine
            written = len(self._feed)
        self._feed = self._feed[written:]
        if not self._feed:
            self._drop(stream)

    def _drop(self, stream: IO[bytes]) -> None:
        self._sel.unregister(stream)
        stream.close()

    def close(self) -> None:
        for key in list(self._sel.get_map().values()):
            self._drop(key.fileobj)  # type: ignore[arg-type]  # we register files
        self._sel.close()

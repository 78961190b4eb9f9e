"""Satchel's one subprocess primitive: run an argv, bounded, and return what happened.

Skill scripts, shell interpolation, hooks and MCP servers all start processes
through `run_process`. The rules:

- **argv only.** Never a shell: the arguments reach the child verbatim, as argv
  elements. File descriptors other than 0, 1 and 2 are closed in the child.
- **A scrubbed environment.** `env` is used exactly as given. Callers build it
  with `base_env` (only `KEEP_ENV` and ``LC_*`` from the parent) and
  `overlay_env`, which refuses variables that can inject code into a process
  (`is_dangerous_env`) and sets runtime-owned variables last, so that they cannot
  be overridden.
- **Its own process group.** The child starts a new session, so its pid is the
  process group id of everything it spawns. On timeout the group gets SIGTERM,
  then SIGKILL after `grace` seconds. After *every* run, a normal exit included,
  the group gets SIGKILL: a background grandchild never outlives the call. The
  group is signalled before the child is reaped, so its id cannot have been
  reused. A process that leaves the group (``setsid``) is out of reach.
- **Bounded output.** At most `max_output` bytes of each stream are kept; the rest
  is read and thrown away, so that the child never blocks on a full pipe. A cut
  stream ends with a marker line (`cut_marker`).
- **Bounded time.** A call returns within about ``timeout + grace`` even if the
  child ignores SIGTERM. When the child exits but a grandchild holds the pipes
  open, they are drained for at most `drain` seconds. Only a process that left
  the group and holds the pipes can add one more `drain` (they are then closed).
- **Failures are data.** A process that cannot start, times out or floods its
  output gives a `ProcessResult` with diagnostics (``exec.start``,
  ``exec.timeout``, ``exec.output.truncated``). Only misuse raises: an empty argv
  or a negative limit is a ValueError.

Writing to the child's stdin relies on SIGPIPE being ignored, as Python sets it at
start-up: a child that closes stdin early is not an error.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import selectors
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import IO

from satchel._files import FileProblem, open_regular
from satchel.diagnostics import Diagnostic, diagnostic, type_name

__all__ = [
    "DANGEROUS_ENV",
    "DANGEROUS_ENV_PREFIXES",
    "DEFAULT_TIMEOUT",
    "KEEP_ENV",
    "KEEP_ENV_PREFIXES",
    "MAX_OUTPUT",
    "ProcessResult",
    "base_env",
    "cut_marker",
    "is_dangerous_env",
    "overlay_env",
    "run_process",
]

DEFAULT_TIMEOUT = 60.0
MAX_OUTPUT = 1024 * 1024

# Variables that make a loader, interpreter or common tool run code of the
# setter's choosing. Names are case-sensitive, as on every POSIX system.
DANGEROUS_ENV: frozenset[str] = frozenset(
    {
        # dynamic loaders (LD_* and DYLD_* are refused as prefixes too)
        "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH",
        "GCONV_PATH",
        # shells
        "BASH_ENV", "ENV", "ZDOTDIR", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "PS4", "IFS",
        # interpreters and runtimes
        "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONINSPECT", "PYTHONUSERBASE",
        "PYTHONBREAKPOINT", "PYTHONWARNINGS", "PYTHONPLATLIBDIR", "PYTHONEXECUTABLE",
        "NODE_OPTIONS", "NODE_PATH",
        "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB",
        "RUBYOPT", "RUBYLIB",
        "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
        "LUA_PATH", "LUA_CPATH",
        "PHPRC", "PHP_INI_SCAN_DIR",
        "DOTNET_STARTUP_HOOKS", "GOFLAGS", "RUSTC_WRAPPER",
        "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES",
        # git and ssh run these without a terminal (pagers and editors need one)
        "GIT_DIR", "GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS",
        "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "GIT_TEMPLATE_DIR",
        "SSH_ASKPASS", "SUDO_ASKPASS",
    }
)  # fmt: skip
DANGEROUS_ENV_PREFIXES: tuple[str, ...] = (
    "LD_",
    "DYLD_",
    "BASH_FUNC_",  # exported bash functions override commands
    "GIT_CONFIG",  # GIT_CONFIG_COUNT/KEY_n/VALUE_n, _PARAMETERS, _GLOBAL: core.fsmonitor etc.
    "LUA_INIT",
    "npm_config_",  # npm reads these in any case: script-shell, node-options
    "NPM_CONFIG_",
)

KEEP_ENV: tuple[str, ...] = (
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TMPDIR", "TZ",
)  # fmt: skip
KEEP_ENV_PREFIXES: tuple[str, ...] = ("LC_",)

_NO_ENV: Mapping[str, str] = MappingProxyType({})
_CHUNK = 64 * 1024  # one read; a stream never holds more than its cap plus this
_HEAD = 256  # bytes of a script read to explain a start failure
_FIRST_NAP = 0.001  # polling for the child's exit backs off from this...
_LAST_NAP = 0.05  # ...to this


def is_dangerous_env(name: str) -> bool:
    """Whether setting `name` can make a process run code it did not mean to."""
    return name in DANGEROUS_ENV or name.startswith(DANGEROUS_ENV_PREFIXES)


def base_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The scrubbed base environment: only `KEEP_ENV` names and ``LC_*`` from `environ`."""
    return {
        name: value
        for name, value in environ.items()
        if name in KEEP_ENV or name.startswith(KEEP_ENV_PREFIXES)
    }


def overlay_env(
    base: Mapping[str, str],
    extra: Mapping[str, str],
    *,
    source: Path | None = None,
    fixed: Mapping[str, str] = _NO_ENV,
) -> tuple[dict[str, str], tuple[Diagnostic, ...]]:
    """`base` plus `extra`, then `fixed` on top (runtime-owned names such as SKILL_DIR).

    A dangerous name, a name that cannot be a variable or a value that is not a
    string (or holds a NUL) in `extra` is dropped with an ``exec.env.refused``
    warning each; `source` is the file that asked for it.
    """
    env = dict(base)
    diags: list[Diagnostic] = []
    for name, value in extra.items():
        why = _refusal(name, value)
        if why is None:
            env[name] = value
        else:
            message = f"environment variable {name!r} was refused: {why}"
            diags.append(diagnostic("exec.env.refused", message, source))
    env.update(fixed)
    return env, tuple(diags)


def _refusal(name: object, value: object) -> str | None:
    if not isinstance(name, str) or not name or "=" in name or "\0" in name:
        return "it is not a valid variable name"
    if is_dangerous_env(name):
        return "it can inject code into the process"
    if not isinstance(value, str):
        return f"its value is {type_name(value)}, not a string"
    if "\0" in value:
        return "its value holds a NUL byte"
    return None


def cut_marker(read: int, kept: int) -> str:
    """The line that ends a stream cut at the cap."""
    return f"[output cut by satchel: {read:,} bytes read, {kept:,} kept]\n"


@dataclass(frozen=True, slots=True)
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
    """Run `argv` in `cwd` with exactly `env`, feeding it `stdin`; see the module doc."""
    args = tuple(argv)
    _check_limits(args, timeout, max_output, grace, drain)
    start = time.monotonic()
    refused = _bad_input(args, cwd, env)
    if refused is not None:
        return _not_started(args, refused, start)
    try:
        proc = _spawn(args, cwd, env, stdin is not None)
    except OSError as e:
        return _not_started(args, _start_reason(args[0], cwd, env, e), start)
    pipes = _Pipes(proc, _encode(stdin), max_output)
    timed_out = True
    try:
        timed_out = _supervise(proc, pipes, start + timeout, grace, drain)
    finally:
        _signal_group(proc.pid, signal.SIGKILL)
        _pump(pipes, time.monotonic() + drain, pipes.closed)
        pipes.close()
        proc.wait()
    return _result(args, proc, pipes, timed_out, timeout, start)


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

    def exited() -> bool:
        return _exited(proc)

    if _pump(pipes, deadline, exited):
        _pump(pipes, time.monotonic() + drain, pipes.closed)
        return False
    _signal_group(proc.pid, signal.SIGTERM)
    _pump(pipes, time.monotonic() + grace, exited)
    return True


def _pump(pipes: _Pipes, until: float, done: Callable[[], bool]) -> bool:
    """Move data through the pipes until `done()`; False if `until` came first."""
    nap = _FIRST_NAP
    while not done():
        left = until - time.monotonic()
        if left <= 0:
            return False
        if pipes.closed():
            time.sleep(min(left, nap))
        else:
            pipes.step(min(left, nap))
        nap = min(nap * 2, _LAST_NAP)
    return True


def _exited(proc: subprocess.Popen[bytes]) -> bool:
    """Whether the child has exited, without reaping it: while it is a zombie its
    pid, the process group id, cannot be reused."""
    waitid = getattr(os, "waitid", None)  # macOS has it from Python 3.13
    if waitid is None:
        return proc.poll() is not None
    try:
        return waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    # ProcessLookupError: nothing is left of the group. PermissionError: what is
    # left changed its user id; there is nothing more we can do about it.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


@dataclass(slots=True)
class _Sink:
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


class _Pipes:
    """The child's pipes under one selector: stdin fed, stdout and stderr read."""

    def __init__(self, proc: subprocess.Popen[bytes], feed: bytes, cap: int) -> None:
        self.out = _Sink(cap)
        self.err = _Sink(cap)
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

    def _read(self, stream: IO[bytes], sink: _Sink) -> None:
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


def _result(
    args: tuple[str, ...],
    proc: subprocess.Popen[bytes],
    pipes: _Pipes,
    timed_out: bool,
    timeout: float,
    start: float,
) -> ProcessResult:
    path = _diag_path(args[0])
    diags: list[Diagnostic] = []
    if timed_out:
        message = f"{args[0]!r} timed out after {timeout:g} s; its process group was killed"
        diags.append(diagnostic("exec.timeout", message, path))
    for name, sink in (("stdout", pipes.out), ("stderr", pipes.err)):
        if sink.cut:
            message = (
                f"{args[0]!r} wrote {sink.total:,} bytes to {name}, more than the cap of "
                f"{sink.cap:,}; the rest was cut"
            )
            diags.append(diagnostic("exec.output.truncated", message, path))
    return ProcessResult(
        argv=args,
        exit_code=None if timed_out else proc.returncode,
        stdout=pipes.out.text(),
        stderr=pipes.err.text(),
        timed_out=timed_out,
        truncated=pipes.out.cut or pipes.err.cut,
        duration=time.monotonic() - start,
        diagnostics=tuple(diags),
    )


def _diag_path(argv0: str) -> Path | None:
    return Path(argv0) if os.sep in argv0 else None


def _not_started(args: tuple[str, ...], reason: str, start: float) -> ProcessResult:
    message = f"cannot start {args[0]!r}: {reason}"
    return ProcessResult(
        argv=args,
        exit_code=None,
        stdout="",
        stderr="",
        duration=time.monotonic() - start,
        diagnostics=(diagnostic("exec.start", message, _diag_path(args[0])),),
    )


def _bad_input(
    args: tuple[str, ...], cwd: str | os.PathLike[str], env: Mapping[str, str]
) -> str | None:
    """What the OS would refuse before starting anything (it raises ValueError)."""
    for index, arg in enumerate(args):
        if "\0" in arg:
            return f"argument {index} holds a NUL byte"
    if "\0" in os.fspath(cwd):
        return "the working directory holds a NUL byte"
    for name, value in env.items():
        if not name or "=" in name or "\0" in name or "\0" in value:
            return f"environment variable {name!r} is not a valid name or holds a NUL byte"
    return None


def _start_reason(
    argv0: str, cwd: str | os.PathLike[str], env: Mapping[str, str], e: OSError
) -> str:
    """Why `argv0` did not start, in words that say what to fix."""
    if e.filename is cwd or not os.path.isdir(cwd):  # subprocess names `cwd` if chdir failed
        return _cwd_reason(cwd, e)
    target = _locate(argv0, cwd, env)
    if target is None and e.errno == errno.ENOENT:
        return "no such file" if os.sep in argv0 else "command not found on PATH"
    if target is not None and e.errno in (errno.ENOENT, errno.ENOEXEC):
        return _script_reason(target, e.errno)
    if target is not None and e.errno == errno.EACCES:
        if os.path.isdir(target):
            return "it is a directory"
        if not os.access(target, os.X_OK):
            return "the file is not executable (chmod +x)"
    return e.strerror or str(e)


def _cwd_reason(cwd: str | os.PathLike[str], e: OSError) -> str:
    where = f"working directory {os.fspath(cwd)!r}"
    if e.errno == errno.ENOENT:
        return f"{where} does not exist"
    if e.errno == errno.ENOTDIR:
        return f"{where} is not a directory"
    return f"{where} cannot be entered: {e.strerror or e}"


def _locate(argv0: str, cwd: str | os.PathLike[str], env: Mapping[str, str]) -> str | None:
    """The file the OS tried to run, if it exists: a path is taken from `cwd`, a
    bare name is looked up on the PATH of `env`."""
    if os.sep in argv0:
        path = os.path.join(cwd, argv0)
        return path if os.path.lexists(path) else None
    search = os.pathsep.join(os.get_exec_path(dict(env)))
    return shutil.which(argv0, mode=os.F_OK, path=search)


def _script_reason(target: str, code: int) -> str:
    head = _head(target)
    if head.startswith(b"#!"):
        line = head[2:].split(b"\n", 1)[0]
        if line.endswith(b"\r"):
            return (
                "its #! line ends in a carriage return (CRLF line endings); convert the file to LF"
            )
        words = line.split()
        if not words:
            return "its #! line names no interpreter"
        interpreter = words[0].decode("utf-8", "replace")
        if code == errno.ENOENT:
            return f"its #! interpreter {interpreter!r} was not found"
        return f"its #! interpreter {interpreter!r} cannot be run (exec format error)"
    if head.startswith(codecs.BOM_UTF8 + b"#!"):
        return "a byte order mark comes before its #! line; remove it"
    if code == errno.ENOEXEC:
        return "exec format error (no #! line, and not a program for this machine)"
    return "its interpreter or program loader was not found"


def _head(path: str) -> bytes:
    """At most the first `_HEAD` bytes of a regular file; empty if it cannot be read."""
    try:
        fd, _ = open_regular(path, sys.maxsize)
    except FileProblem:
        return b""
    try:
        return os.read(fd, _HEAD)
    except OSError:
        return b""
    finally:
        os.close(fd)

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

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.foundations.process._env import (
        DANGEROUS_ENV,
        DANGEROUS_ENV_PREFIXES,
        KEEP_ENV,
        KEEP_ENV_PREFIXES,
        base_env,
        is_dangerous_env,
        overlay_env,
    )
    from satchel.foundations.process._result import ProcessResult, cut_marker
    from satchel.foundations.process._run import DEFAULT_TIMEOUT, MAX_OUTPUT, run_process
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.foundations.process._env": (
                "DANGEROUS_ENV",
                "DANGEROUS_ENV_PREFIXES",
                "KEEP_ENV",
                "KEEP_ENV_PREFIXES",
                "base_env",
                "is_dangerous_env",
                "overlay_env",
            ),
            "satchel.foundations.process._result": ("ProcessResult", "cut_marker"),
            "satchel.foundations.process._run": ("DEFAULT_TIMEOUT", "MAX_OUTPUT", "run_process"),
        },
    )

__all__ = [
    "base_env",
    "cut_marker",
    "DANGEROUS_ENV",
    "DANGEROUS_ENV_PREFIXES",
    "DEFAULT_TIMEOUT",
    "is_dangerous_env",
    "KEEP_ENV",
    "KEEP_ENV_PREFIXES",
    "MAX_OUTPUT",
    "overlay_env",
    "ProcessResult",
    "run_process",
]

"""The process group of a child: signalled before the child is reaped, so its id
cannot have been reused (shared by `run_process` and `spawn_process`)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess

__all__ = ["exited", "signal_group"]


def exited(proc: subprocess.Popen[bytes]) -> bool:
    """Whether the child has exited, without reaping it: while it is a zombie its
    pid, the process group id, cannot be reused."""
    waitid = getattr(os, "waitid", None)  # macOS has it from Python 3.13
    if waitid is None:
        return proc.poll() is not None
    try:
        return waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def signal_group(pgid: int, sig: signal.Signals) -> None:
    # ProcessLookupError: nothing is left of the group. PermissionError: what is
    # left changed its user id; there is nothing more we can do about it.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)

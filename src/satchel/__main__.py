"""The entry point of `python -m satchel` and of the `satchel` command
(``satchel.__main__:main``). It imports nothing before it can catch Ctrl-C, so an
interrupt at any moment, even while the command line's own modules are still loading,
ends satchel with exit code 130 and one line, never a traceback."""

from __future__ import annotations

import sys

INTERRUPTED = 130  # satchel.cli._exit.INTERRUPTED, which this module must not import first


def main() -> int:
    """Run the command line with sys.argv; return the exit code."""
    try:
        try:
            from satchel.cli import main as run  # click, the verb table: the slow part

            return run()
        except KeyboardInterrupt:
            return interrupted()
    finally:
        _quiet_from_now_on()


def interrupted() -> int:
    """Say so on stderr, after the line the terminal's ^C left open, as `satchel.cli.main`
    does (a second Ctrl-C meanwhile is ignored), and give 130."""
    _quiet_from_now_on()
    import contextlib

    with contextlib.suppress(OSError, ValueError):  # stderr gone: the exit code says it
        sys.stderr.write("\nsatchel: interrupted\n")  # as click ends a ^C line
        sys.stderr.flush()
    return INTERRUPTED


def _quiet_from_now_on() -> None:
    """Ignore SIGINT for what is left: the exit itself and the interpreter's shutdown."""
    import contextlib
    import signal

    # ValueError: not the main thread (main() called from a thread): nothing to do
    with contextlib.suppress(ValueError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    raise SystemExit(main())

"""Run `satchel audit` under an audit hook and print, as JSON, every attempt to start a
process or open a socket it made (started by test_inert.py with PATH pointing only at
tripwire shims)."""

from __future__ import annotations

import contextlib
import io
import json
import sys

EXEC_EVENTS = frozenset(
    (
        "subprocess.Popen", "os.system", "os.fork", "os.forkpty", "os.startfile",
        "pty.spawn", "socket.connect", "socket.bind", "socket.getaddrinfo",
        "socket.sendto", "urllib.Request", "webbrowser.open", "ctypes.dlopen",
    )
)  # fmt: skip
EXEC_PREFIXES = ("os.exec", "os.posix_spawn", "os.spawn")


def main() -> None:
    forbidden: list[str] = []
    watching = [False]

    def hook(event: str, args: tuple[object, ...]) -> None:
        if watching[0] and (event in EXEC_EVENTS or event.startswith(EXEC_PREFIXES)):
            forbidden.append(f"{event} {args!r}"[:300])

    sys.addaudithook(hook)
    from satchel.cli import main as satchel

    runs = []
    for fmt in ("text", "json", "sarif"):
        out = io.StringIO()
        watching[0] = True
        with contextlib.redirect_stdout(out):
            code = satchel(["audit", *sys.argv[1:], "--format", fmt])
        watching[0] = False
        runs.append({"format": fmt, "code": code, "bytes": len(out.getvalue())})
    print(json.dumps({"forbidden": forbidden, "runs": runs}))


if __name__ == "__main__":
    main()

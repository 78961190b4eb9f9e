"""Run `satchel.load()` on each case under a tripwire and print what happened as JSON.

Started by test_conventions.py with PATH pointing only at tripwire shims. An audit
hook records every attempt to start a process or open a socket, every file opened
and every directory listed outside the fixture and the Python installation, and every
file opened inside the fixture (discovery should open nothing but SKILL.md files).
satchel's own discovery cache directory (`satchel.skills._cache.cache_dir()`, private to
the user) is the one place outside those it may open and write.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
import traceback

EXEC_EVENTS = frozenset(
    (
        "subprocess.Popen", "os.system", "os.fork", "os.forkpty", "os.startfile",
        "pty.spawn", "socket.connect", "socket.bind", "socket.getaddrinfo",
        "socket.sendto", "urllib.Request", "webbrowser.open", "ctypes.dlopen",
    )
)  # fmt: skip
EXEC_PREFIXES = ("os.exec", "os.posix_spawn", "os.spawn")
FILE_EVENTS = frozenset(("open", "os.scandir", "os.listdir"))


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        specs = json.load(f)
    python = tuple(
        os.path.realpath(p) + os.sep
        for p in {*sys.path, sys.prefix, sys.base_prefix, sys.exec_prefix}
        if p and os.path.isabs(p)
    )
    watch: dict[str, object] = {"fixture": None, "cache": None}
    forbidden: list[str] = []
    outside: list[str] = []
    opened: list[str] = []

    def hook(event: str, args: tuple[object, ...]) -> None:
        fixture = watch["fixture"]
        if not isinstance(fixture, str):
            return
        if event in EXEC_EVENTS or event.startswith(EXEC_PREFIXES):
            forbidden.append(f"{event} {args!r}"[:300])
        elif event in FILE_EVENTS and args and isinstance(args[0], str | bytes | os.PathLike):
            path = os.path.abspath(os.fsdecode(args[0]))
            cache = watch["cache"]
            if isinstance(cache, str) and (path + os.sep).startswith(cache):
                return
            if path.startswith(fixture) or path + os.sep == fixture:
                if event == "open":
                    opened.append(path[len(fixture) :])
            elif not path.startswith(python):
                outside.append(f"{event} {path}")

    sys.addaudithook(hook)

    import satchel
    from satchel.skills._cache import cache_dir

    results = {}
    for spec in specs:
        os.chdir(spec["base"])
        os.environ["TRIPWIRE_LOG"] = spec["log"]
        os.environ["CANARY_DIR"] = spec["canary"]
        walk = satchel.WalkBounds(**spec["walk"]) if spec["walk"] else None
        layout = satchel.Layout.default(
            spec["project"], home=spec["home"], project=spec["project"], walk=walk
        )
        forbidden.clear()
        outside.clear()
        opened.clear()
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        error = None
        skills: list[str] = []
        own = cache_dir()
        watch["cache"] = None if own is None else os.path.abspath(own) + os.sep
        watch["fixture"] = os.path.realpath(spec["fixture"]) + os.sep
        start = time.perf_counter()
        try:
            env = satchel.load(layout=layout)
            skills = list(env.skills)
            if spec.get("probe"):  # the harness's own check: these must be caught
                os.system('touch "$CANARY_DIR/probe"')
                with open(spec["probe"], "rb"):
                    pass
        except BaseException:  # noqa: BLE001  # C5: report it, the parent fails the test
            error = traceback.format_exc()
        seconds = time.perf_counter() - start
        watch["fixture"] = None
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        results[spec["id"]] = {
            "forbidden": list(forbidden),
            "outside": list(outside),
            "opened": list(opened),
            "seconds": seconds,
            "rss_growth_kib": rss_after - rss_before,
            "error": error,
            "skills": skills,
        }
    print(json.dumps(results))


if __name__ == "__main__":
    main()

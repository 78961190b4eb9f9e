"""Runtime bad-input fixtures (threat model X01-X03, P01-P07, S02) and their tripwire child.

The builders write skills into a `Tree` (see build.py) at test time. Run as a script,
this file is the child process of test_runtime.py and test_corpus.py: it installs an
audit hook, then plays each scenario of a JSON spec (load, the CLI, a `Session` and
its tools, hooks fired, the tool gate) and prints, per scenario, what every step
returned and every event the hook saw:

* ``exec``: a process started or a socket used (`subprocess.Popen` with its argv);
* ``outside``: a file opened or a directory listed outside the fixture, the Python
  installation and ``/dev/null``. Files opened with `os.open` are judged by the real
  path of the descriptor (``/proc/self/fd``), so opens relative to a directory fd
  (as the resource resolver does) are judged where they really landed.

The builders write with the tests' shared writer, imported only when the tests import
this file; run as the child it imports the standard library alone, so the child can
import nothing but satchel after its hook is in place.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import socket
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .build import Tree

if __package__:  # imported by the tests, which build the trees (the child only plays them)
    from tests.support import put

SECRET = "SATCHEL-SECRET-3f9d1c7a-do-not-leak"
VICTIM = "VICTIM-BODY-8e21b4"
IN_TREE = "IN-TREE-flip-content\n"
SHIMS = (
    "sh", "bash", "zsh", "dash", "node", "npx", "npm", "uvx", "python", "python3",
    "python3.11", "git", "curl", "wget", "touch", "id", "sleep", "yes", "head",
)  # fmt: skip
RESOURCE_CAP = 4 * 1024 * 1024

# --- building ---------------------------------------------------------------------------


def make_shims(directory: Path) -> Path:
    """A PATH of tripwires: each appends its command line to $TRIPWIRE_LOG and exits 97."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in SHIMS:
        shim = directory / name
        shim.write_text('#!/bin/sh\necho "$0 $*" >> "$TRIPWIRE_LOG"\nexit 97\n')
        shim.chmod(0o755)
    return directory


def link(path: Path, target: str | Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path


def skill_file(name: str, body: str) -> str:
    description = f"Runtime case {name}. Use it when a test needs it."
    return f"---\nname: {name}\ndescription: {description}\n---\n{body}"


def write_secret(tree: Tree) -> Path:
    """A file outside every skill whose content no tool result may ever show."""
    return put(tree.outside / "id_secret", SECRET + "\n")


def x01_body(canary: Path) -> str:
    """Every form of X01: only the first two (inline and ```!) are documented to run."""
    c = canary
    return (
        "# X01\n\n"
        f"Inline: !`touch {c}/inline`\n"
        "```!\n"
        f"touch {c}/block\n"
        f"printf '!%s%s%s\\n' '`' 'touch {c}/rescanned' '`'\n"
        "```\n"
        f"Dollar: $(touch {c}/dollar)\n"
        f"Backticks: `touch {c}/backticks`\n"
        f"KEY=!`touch {c}/key`\n"
        "Wow! History!! characters in prose !! and !-1 and !touch.\n"
        "```bash\n"
        f"!`touch {c}/bash-fence`\n"
        f"$(touch {c}/bash-fence-dollar)\n"
        "```\n"
    )


def build_x01(tree: Tree) -> Path:
    """X01 as a trusted user skill, with a resource that holds a command too."""
    directory = tree.root("user") / "x01"
    put(directory / "SKILL.md", skill_file("x01", x01_body(tree.canary)))
    put(directory / "references" / "notes.md", f"Notes: !`touch {tree.canary}/resource`\n")
    return directory


def build_x02(tree: Tree) -> Path:
    """X02: scripts that try to leave the skill, start badly, or echo their argv."""
    directory = tree.skills / "x02"
    put(directory / "SKILL.md", skill_file("x02", "Run scripts/args.sh.\n"))
    scripts = directory / "scripts"
    put(
        scripts / "args.sh",
        '#!/bin/sh\nfor a in "$@"; do printf "<%s>\\n" "$a"; done\n',
        mode=0o755,
    )
    link(scripts / "link", "/usr/bin/curl")
    evil = put(tree.outside / "evil.sh", f'#!/bin/sh\n: > "{tree.canary}/x02-evil"\n', mode=0o755)
    link(scripts / "out.sh", os.path.relpath(evil, scripts))
    put(scripts / "crlf.sh", "#!/bin/sh\r\nprintf crlf\r\n", mode=0o755)
    put(scripts / "noexec.sh", "#!/bin/sh\nprintf noexec\n", mode=0o644)
    put(scripts / "blob.dat", f": > {tree.canary}/x02-blob\n", mode=0o644)
    return directory


def build_x03(tree: Tree, sleep: str, yes: str, head: str) -> Path:
    """X03: a grandchild holding the pipes, a flood of output, a script that traps TERM.
    Programs are named by absolute path: the child's PATH holds only tripwires."""
    directory = tree.skills / "x03"
    put(directory / "SKILL.md", skill_file("x03", "Scripts that misbehave.\n"))
    scripts = directory / "scripts"
    put(
        scripts / "grandchild.sh",
        f'#!/bin/sh\necho "$$"\n{sleep} 600 &\necho "$!"\n{sleep} 600\n',
        mode=0o755,
    )
    flood = f"{yes} flood | {head} -c 10485760\n"
    put(scripts / "flood.sh", f'#!/bin/sh\necho "$$"\n{flood}exec {yes} flood\n', mode=0o755)
    put(scripts / "flood-once.sh", f"#!/bin/sh\n{flood}", mode=0o755)
    put(
        scripts / "trap.sh",
        f"#!/bin/sh\ntrap 'echo term-ignored' TERM\necho \"$$\"\nwhile :; do {sleep} 0.2; done\n",
        mode=0o755,
    )
    return directory


def _unix_socket(path: Path) -> None:
    """A bound Unix socket at `path`, bound by a short relative name (sun_path is small)."""
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.bind(path.name)
    finally:
        os.chdir(here)


def build_resources(tree: Tree) -> Path:
    """P01-P07 and S02: one project skill `res` whose files try every way out."""
    secret = write_secret(tree)
    victim = tree.skills / "victim"
    put(victim / "SKILL.md", skill_file("victim", f"{VICTIM}\n"))
    directory = tree.skills / "res"
    put(directory / "SKILL.md", skill_file("res", "Resource cases.\n"))
    refs = directory / "references"
    put(refs / "guide.md", "GUIDE: plain in-tree text\n")
    put(directory / "shared" / "a.md", "SHARED: reached through an in-tree link\n")
    link(refs / "a.md", "../shared/a.md")
    link(refs / "key.md", secret)
    link(refs / "x.md", "../../victim/SKILL.md")
    link(refs / "slash", "/")
    link(refs / "loop-a", "loop-b")
    link(refs / "loop-b", "loop-a")
    link(refs / "self", "self")
    link(refs / "up", "..")
    os.mkfifo(refs / "pipe.md")
    link(refs / "zero", "/dev/zero")
    link(refs / "environ", "/proc/self/environ")
    _unix_socket(refs / "sock")
    os.link(secret, refs / "hard.md")
    put(directory / "assets" / "big.bin", b"b" * (RESOURCE_CAP + 1))
    put(directory / "assets" / "cap.txt", b"c" * RESOURCE_CAP)
    put(refs / "flip.md", IN_TREE)
    put(refs / "grow.txt", "")
    return directory


# --- the child --------------------------------------------------------------------------

if __package__:  # imported by the tests
    from ._tripwire_child import EXEC_EVENTS, EXEC_PREFIXES, FILE_EVENTS
else:  # run as the child process, beside it
    from _tripwire_child import EXEC_EVENTS, EXEC_PREFIXES, FILE_EVENTS
DEVICES = ("/dev/null",)  # subprocess opens it for a child's stdin


def _argv(event: str, args: tuple[Any, ...]) -> list[str]:
    if event == "subprocess.Popen":
        argv = args[1]
        if isinstance(argv, str | bytes | os.PathLike):
            return [os.fsdecode(argv)]
        return [os.fsdecode(a) for a in argv]
    return [f"{args!r}"[:300]]


def _own_cache() -> str:
    from satchel.skills._cache import cache_dir

    return str(cache_dir() or "\0")


class _Watch:
    """The audit hook and an `os.open` wrapper, recording into `events` while armed."""

    def __init__(self) -> None:
        self.roots: str | None = None
        self.step = ""
        self.events: list[dict[str, Any]] = []
        self.local = threading.local()
        self.python = tuple(
            os.path.realpath(p) + os.sep
            for p in {*sys.path, sys.prefix, sys.base_prefix, sys.exec_prefix}
            if p and os.path.isabs(p)
        )
        self.real_open = os.open

    def install(self) -> None:
        sys.addaudithook(self.hook)
        os.open = self.open  # type: ignore[assignment]
        os.supports_dir_fd.add(self.open)  # as the real one: satchel checks before using it

    def note(self, event: str, path: str) -> None:
        roots = self.roots
        if roots is None or path.startswith((roots, *self.python)) or path in DEVICES:
            return
        if path.startswith(str(_own_cache())):  # satchel's discovery cache, private to the user
            return
        self.events.append({"step": self.step, "kind": "outside", "event": event, "path": path})

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if self.roots is None:
            return
        if event in EXEC_EVENTS or event.startswith(EXEC_PREFIXES):
            self.events.append(
                {"step": self.step, "kind": "exec", "event": event, "argv": _argv(event, args)}
            )
        elif (
            event in FILE_EVENTS
            and not getattr(self.local, "in_open", False)
            and args
            and isinstance(args[0], str | bytes | os.PathLike)
        ):
            self.note(event, os.path.realpath(os.fsdecode(args[0])))

    def open(self, path: Any, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        self.local.in_open = True
        try:
            fd = self.real_open(path, flags, mode, dir_fd=dir_fd)
        finally:
            self.local.in_open = False
        if self.roots is not None:
            try:
                real = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                real = os.path.realpath(os.fsdecode(path))
            self.note("os.open", real)
        return fd


def _result(result: Any) -> dict[str, Any]:
    data = None if result.data is None else dict(result.data)
    return {"text": result.text, "is_error": result.is_error, "code": result.code, "data": data}


def _diagnostics(diags: Any) -> list[list[Any]]:
    return [[d.code, d.severity, d.message] for d in diags]


def _race(session: Any, step: dict[str, Any]) -> dict[str, Any]:
    """P06: a thread flips a resource between a regular file and a link to the secret
    while the model reads it. Each flip is one atomic swap of the two names
    (`_EXCHANGE`), or, where the C library has no renameat2, a new file or link
    renamed over the resource."""
    skill, asked = step["skill"], step["resource"]
    target = session.skills[skill].directory / asked
    as_link, as_file = target.with_name("flip.link~"), target.with_name("flip.file~")
    done = threading.Event()

    def flipper() -> None:
        try:
            for i in range(step["flips"]):
                if i % 2 == 0:
                    os.symlink(step["target"], as_link)
                    os.replace(as_link, target)
                else:
                    as_file.write_text(IN_TREE)
                    os.replace(as_file, target)
        finally:
            done.set()

    def swapper() -> None:  # the resource holds IN_TREE as built; the link is made below
        try:
            for _ in range(step["flips"]):
                _EXCHANGE(as_link, target)
        finally:
            done.set()

    outcomes: dict[str, int] = {}
    others: set[str] = set()
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    if _EXCHANGE is not None:
        os.symlink(step["target"], as_link)  # before the reads start
    thread = threading.Thread(target=flipper if _EXCHANGE is None else swapper)
    thread.start()
    try:
        while not done.is_set():
            got = session.call("load_skill", {"name": skill, "resource": asked})
            key = "read" if not got.is_error and got.text == IN_TREE else str(got.code)
            outcomes[key] = outcomes.get(key, 0) + 1
            if key != "read":
                others.add(got.text)
    finally:
        thread.join()
        sys.setswitchinterval(previous)
    return {"outcomes": outcomes, "texts": sorted(others)}


def _grow(session: Any, step: dict[str, Any]) -> dict[str, Any]:
    """S02: a thread appends to a resource while the model reads it."""
    skill, asked = step["skill"], step["resource"]
    path = session.skills[skill].directory / asked
    stop = threading.Event()

    def appender() -> None:
        with path.open("ab") as f:
            while not stop.is_set():
                f.write(b"g" * 4096)
                f.flush()

    thread = threading.Thread(target=appender)
    thread.start()
    codes: set[str] = set()
    most = 0
    try:
        for _ in range(step["reads"]):
            got = session.call("load_skill", {"name": skill, "resource": asked})
            if got.is_error:
                codes.add(str(got.code))
            else:
                codes.add("read")
                most = max(most, got.text.count("g"))
    finally:
        stop.set()
        thread.join()
    return {"codes": sorted(codes), "most_read": most}


def _step(ctx: dict[str, Any], scenario: dict[str, Any], step: dict[str, Any]) -> Any:
    import satchel
    from satchel.session import Session

    op = step["op"]
    if op == "probe":
        return _probe(step)
    if op == "load":
        walk = satchel.WalkBounds(**step["walk"]) if step.get("walk") else None
        layout = satchel.Layout.default(
            scenario["project"], home=scenario["home"], project=scenario["project"], walk=walk
        )
        ctx["env"] = env = satchel.load(layout=layout, **step.get("options", {}))
        return {
            "skills": list(env.skills),
            "trusted": env.trusted,
            "diagnostics": _diagnostics(env.diagnostics),
        }
    if op == "fire":
        from satchel.runtime.hooks import HookRunner

        outcome = HookRunner(ctx["env"]).run(step["event"], step.get("payload"))
        return {"behavior": outcome.behavior, "ran": len(outcome.results)}
    if op == "index":
        return {"text": satchel.render_index(ctx["env"].skills)}
    if op == "mcp":
        return _mcp(ctx["env"], step)
    if op == "hosts":
        return _hosts(step)
    if op == "cli":
        from satchel.cli import main as cli

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli(step["argv"])
        return {"code": code, "out": out.getvalue(), "err": err.getvalue()}
    if op == "session":
        ctx["session"] = Session(ctx["env"], environ=step.get("environ"), **step["options"])
        return {}
    session = ctx["session"]
    if op == "context":
        return {"segments": [[s.id, s.kind, s.stability, s.text] for s in session.context()]}
    if op == "tools":
        return {"tools": [t.definition() for t in session.tools()]}
    if op == "resume":
        problems = session.activation.resume(step["history"])
        return {
            "problems": _diagnostics(problems),
            "active": [[a.name, a.via] for a in session.activation.active],
        }
    if op == "call":
        return _result(session.call(step["tool"], step["arguments"]))
    if op == "gate":
        decision = session.before_tool_use(step["tool"], step["input"])
        ran = 0 if decision.hooks is None else len(decision.hooks.results)
        return {"behavior": decision.behavior, "ran": ran}
    if op == "race":
        return _race(session, step)
    if op == "grow":
        return _grow(session, step)
    if op == "diagnostics":
        return {"diagnostics": _diagnostics(session.diagnostics)}
    raise ValueError(f"unknown op {op!r}")


def _mcp(env: Any, step: dict[str, Any]) -> dict[str, Any]:
    """Start the environment's MCP servers, call one tool, stop them (J02)."""
    from satchel.runtime.mcp._supervisor import McpSupervisor

    sup = McpSupervisor(env, timeout=step["timeout"], call_timeout=step["timeout"], environ={})
    with sup.blocking() as mcp:
        result = mcp.call_tool(step["tool"], {})
    return {
        "text": result.text,
        "is_error": result.is_error,
        "status": {r.name: r.status for r in sup.servers},
        "diagnostics": _diagnostics(sup.diagnostics),
    }


def _hosts(step: dict[str, Any]) -> dict[str, Any]:
    """Which ``Host`` and ``Origin`` values `satchel serve --http` on a loopback host
    accepts, judged by the SDK's check with satchel's settings (W01)."""
    from mcp.server.transport_security import TransportSecurityMiddleware

    from satchel.server._http import security

    guard = TransportSecurityMiddleware(security(step["host"], step["port"]))
    return {
        "hosts": {h: guard._validate_host(h) for h in step["hosts"]},
        "origins": {o: guard._validate_origin(o) for o in step["origins"]},
    }


def _probe(step: dict[str, Any]) -> dict[str, Any]:
    """The harness's own check: a shell and an fd-relative read outside must be caught."""
    status = os.system('touch "$CANARY_DIR/probe"')
    fd = os.open(step["directory"], os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.close(os.open(step["name"], os.O_RDONLY, dir_fd=fd))
    finally:
        os.close(fd)
    return {"status": status}


def _scenario(watch: _Watch, scenario: dict[str, Any]) -> dict[str, Any]:
    os.chdir(scenario["base"])
    os.environ["TRIPWIRE_LOG"] = scenario["log"]
    os.environ["CANARY_DIR"] = scenario["canary"]
    saved = {key: os.environ.get(key) for key in scenario.get("environ", {})}
    os.environ.update(scenario.get("environ", {}))
    try:
        return _played(watch, scenario)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _played(watch: _Watch, scenario: dict[str, Any]) -> dict[str, Any]:
    watch.events = []
    ctx: dict[str, Any] = {}
    steps: dict[str, Any] = {}
    error = None
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    watch.roots = os.path.realpath(scenario["fixture"]) + os.sep
    try:
        for step in scenario["steps"]:
            watch.step = step["label"]
            start = time.perf_counter()
            value = _step(ctx, scenario, step)
            steps[step["label"]] = {"value": value, "seconds": time.perf_counter() - start}
    except BaseException:  # noqa: BLE001  # C5: reported, the parent fails the test
        error = f"step {watch.step}: {traceback.format_exc()}"
    finally:
        watch.roots = None
    return {
        "steps": steps,
        "events": watch.events,
        "error": error,
        "rss_growth_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before,
    }


def _import_mcp() -> None:
    """The MCP SDK and satchel's MCP modules the J02 and W01 steps use, imported
    before any scenario is watched (an import lists the directories of sys.path)."""
    import importlib

    for name in (
        "mcp.server.transport_security", "mcp.client.session", "satchel.server._http",
        "satchel.runtime.mcp._supervisor", "satchel.mcp._transports",
        "satchel.runtime.mcp._blocking", "satchel.runtime.mcp._listing",
        "satchel.foundations.process._spawn",
    ):  # fmt: skip
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def _exchanger() -> Any:
    """A function that swaps two names at once (Linux's ``renameat2`` with
    ``RENAME_EXCHANGE``), or None. P06's flipper swaps the resource with a link to the
    secret by it: a flip makes no new file, which on a journalling disk costs as much as
    a thousand swaps. Made before the hook is in place (loading the C library is an
    event the hook records)."""
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    at_cwd, exchange = -100, 2  # AT_FDCWD, RENAME_EXCHANGE

    def swap(a: Path, b: Path) -> None:
        if renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), exchange) != 0:
            raise OSError(ctypes.get_errno(), f"renameat2 {a} {b}")

    return swap


_EXCHANGE: Any = None


def main() -> None:
    global _EXCHANGE
    with open(sys.argv[1], encoding="utf-8") as f:
        scenarios = json.load(f)
    _EXCHANGE = _exchanger()
    watch = _Watch()
    watch.install()
    import satchel.cli  # imported before any scenario is watched
    import satchel.session  # noqa: F401

    _import_mcp()

    results = {s["id"]: _scenario(watch, s) for s in scenarios}
    print(json.dumps(results))


if __name__ == "__main__":
    main()

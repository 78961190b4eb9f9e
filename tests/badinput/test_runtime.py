"""The runtime cases of the threat model (section 5), end to end through a `Session`.

X01 shell interpolation, X02 script paths and argv, X03 runaway scripts, P01-P07 and
S02 through ``load_skill(name, resource=...)``, then C4 (deterministic) and C5 (one
clean line per error). Everything but C4 and the hostile-text C5 cases runs once, in
one tripwire child (runtime_build.py): PATH holds only shims that log and exit 97, and
an audit hook records every process started and every file opened outside the fixture.
The resolver itself is unit-tested in tests/test_resources.py; here the tool path is.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from satchel.core._text import escape
from satchel.session import Session
from tests.support import put

from .build import Tree, is_control, make_tree, reversed_listing
from .runtime_build import (
    SECRET,
    VICTIM,
    build_resources,
    build_x01,
    build_x02,
    build_x03,
    make_shims,
    write_secret,
)

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="reads /proc for opened files and surviving processes"
)

CHILD = Path(__file__).with_name("runtime_build.py")
REAL_PATH = "/usr/bin:/bin"  # where the expected-execution phase finds sh and touch
SLEEP, YES, HEAD = (shutil.which(p, path=REAL_PATH) or p for p in ("sleep", "yes", "head"))
HANG = 10.0  # seconds: "did not hang", not a benchmark
RSS_BOUND_KIB = 64 * 1024
TRAVERSAL = "resource.path.traversal"
ABSOLUTE = "resource.path.absolute"
INVALID = "resource.path.invalid"
ESCAPE = "resource.symlink.escape"
LOOP = "resource.symlink.loop"
NOT_REGULAR = "resource.not-regular"
DOTDOT = "the resource path has a .. segment"
DRIVE = "the resource path names a Windows drive or share"
LOOPS = "is refused: more than 40 symlinks on the path; they loop or nest too deep"
OUTSIDE = "outside the skill directory"
NOEXEC = (
    "Error (exec.start): 'blob.dat' cannot be run: it has no #! line and its suffix .dat has "
    "no interpreter; add a #! line, make it executable (chmod +x), or give the session an "
    "interpreter for .dat (script_interpreters)"
)
CUT = re.compile(r"\n\[output cut by satchel: ([\d,]+) bytes read, 1,048,576 kept\]\n\Z")
X02_ARGS = ["; touch {canary}/x02-args", "$(touch {canary}/x02-subst)", "$(id)",
            "--upload-pack=touch", "`id`", "a\nb", "*"]  # fmt: skip


def escaped(text: str) -> str:
    """How resource messages quote a path: repr, control characters escaped, capped."""
    shown = escape(repr(text[:200]), newlines=True)
    return shown if len(text) <= 200 else f"{shown}... ({len(text):,} characters)"


def call(label: str, tool: str, **arguments: Any) -> dict[str, Any]:
    return {"label": label, "op": "call", "tool": tool, "arguments": arguments}


def step(label: str, op: str, **fields: Any) -> dict[str, Any]:
    return {"label": label, "op": op, **fields}


# --- the resource cases: (label, request, code, exact message) ------------------------------
# code None: the read succeeds and `message` is the text (or its start, for cap.txt).


@dataclass(frozen=True)
class Res:
    label: str
    request: str
    code: str | None
    message: str | None


LONG = "a/" * 2500
WIN_INI = "C:\\Windows\\win.ini"
SHARE = "\\\\srv\\share\\x"
BACKSLASHES = "..\\..\\x"
DEEP = "references/" + "up/references/" * 41 + "guide.md"


def resource_cases(secret: str) -> list[Res]:
    """Every case; `secret` is the path of the secret file outside the skill."""
    via_slash = "references/slash" + os.path.realpath(secret)
    return [
        # P01: .. in every spelling, literal %2e, backslashes, a directory, a long path.
        Res("p01-dotdot", "../../etc/passwd", TRAVERSAL, f"{DOTDOT}: '../../etc/passwd'"),
        Res("p01-inner", "references/../../x", TRAVERSAL, f"{DOTDOT}: 'references/../../x'"),
        Res("p01-dots", "references/./../..//x", TRAVERSAL,
            f"{DOTDOT}: 'references/./../..//x'"),
        Res("p01-percent", "%2e%2e/x", "resource.missing",
            "'%2e%2e/x' does not exist: no '%2e%2e' in the skill directory"),
        Res("p01-backslash", BACKSLASHES, INVALID,
            "the resource path holds a backslash; folders are separated by /: "
            + escaped(BACKSLASHES)),
        Res("p01-dir-dotdot", "references/..", TRAVERSAL, f"{DOTDOT}: 'references/..'"),
        Res("p01-long", LONG, INVALID,
            f"the resource path is longer than 4,096 characters: {escaped(LONG)}"),
        # P02: absolute in every spelling, ~, $, URLs, empty, NUL.
        Res("p02-slash", "/etc/passwd", ABSOLUTE, "the resource path is absolute: '/etc/passwd'"),
        Res("p02-double", "//etc/passwd", ABSOLUTE,
            "the resource path is absolute: '//etc/passwd'"),
        Res("p02-secret", secret, ABSOLUTE, f"the resource path is absolute: {escaped(secret)}"),
        Res("p02-drive", WIN_INI, ABSOLUTE,
            f"{DRIVE}: {escaped(WIN_INI)}"),
        Res("p02-drive-relative", "C:relative", ABSOLUTE, f"{DRIVE}: 'C:relative'"),
        Res("p02-share", SHARE, ABSOLUTE, f"{DRIVE}: {escaped(SHARE)}"),
        Res("p02-tilde", "~/.ssh/id_rsa", INVALID,
            "the resource path starts with ~: '~/.ssh/id_rsa'"),
        Res("p02-url", "file:///etc/passwd", INVALID,
            "the resource path is a URL, not a path: 'file:///etc/passwd'"),
        Res("p02-dollar", "$HOME/.env", INVALID, "the resource path starts with $: '$HOME/.env'"),
        Res("p02-blank", "  ", INVALID, "the resource path is empty: '  '"),
        Res("p02-nul", "a\x00.md", INVALID,
            "the resource path holds a NUL character: 'a\\x00.md'"),
        # P03: links out (absolute, to a sibling skill, through a directory link to /).
        Res("p03-to-secret", "references/key.md", ESCAPE,
            f"'references/key.md' is refused: the symlink 'references/key.md' points to "
            f"{escaped(secret)}, {OUTSIDE}"),
        Res("p03-to-sibling", "references/x.md", ESCAPE,
            "'references/x.md' is refused: the symlink 'references/x.md' points to "
            f"'../../victim/SKILL.md', {OUTSIDE}"),
        Res("p03-dir-to-slash", "references/slash/etc/passwd", ESCAPE,
            "'references/slash/etc/passwd' is refused: the symlink 'references/slash' points "
            f"to '/', {OUTSIDE}"),
        Res("p03-slash-to-secret", via_slash, ESCAPE,
            f"{escaped(via_slash)} is refused: the symlink 'references/slash' points to '/', "
            f"{OUTSIDE}"),
        Res("p03-in-tree", "references/a.md", None, "SHARED: reached through an in-tree link\n"),
        # P04: a pair, a self-loop, a directory cycle (once: fine; 41 times: a loop).
        Res("p04-pair", "references/loop-a", LOOP, f"'references/loop-a' {LOOPS}"),
        Res("p04-self", "references/self", LOOP, f"'references/self' {LOOPS}"),
        Res("p04-cycle-once", "references/up/references/guide.md", None,
            "GUIDE: plain in-tree text\n"),
        Res("p04-cycle-deep", DEEP, LOOP, f"{escaped(DEEP)} {LOOPS}"),
        # P05: a FIFO (must not block), devices and procfs, a socket, a directory.
        Res("p05-fifo", "references/pipe.md", NOT_REGULAR,
            "'references/pipe.md' is not a regular file: it is a FIFO"),
        Res("p05-dev-zero", "references/zero", ESCAPE,
            f"'references/zero' is refused: the symlink 'references/zero' points to "
            f"'/dev/zero', {OUTSIDE}"),
        Res("p05-proc-environ", "references/environ", ESCAPE,
            "'references/environ' is refused: the symlink 'references/environ' points to "
            f"'/proc/self/environ', {OUTSIDE}"),
        Res("p05-socket", "references/sock", NOT_REGULAR,
            "'references/sock' is not a regular file: it is a socket"),
        Res("p05-directory", "references", NOT_REGULAR,
            "'references' is not a regular file: it is a directory"),
        # P07: a hard link to the secret.
        Res("p07-hardlink", "references/hard.md", "resource.hardlink",
            "'references/hard.md' is refused: the file has 2 hard links, so it may be a file "
            "from outside the skill directory"),
        # S02: one byte over the cap; exactly the cap reads (then cut to the token budget).
        Res("s02-over-cap", "assets/big.bin", "resource.too-large",
            "'assets/big.bin' is 4,194,305 bytes, larger than the cap of 4,194,304 bytes"),
        Res("s02-at-cap", "assets/cap.txt", None, "c" * 1000),
        Res("control", "references/guide.md", None, "GUIDE: plain in-tree text\n"),
    ]  # fmt: skip


RESOURCE_LABELS = [r.label for r in resource_cases("/secret")]


# --- the scenarios played in the child --------------------------------------------------

X01_C1 = [
    "load", "index", "cli-list", "cli-show", "cli-index", "cli-doctor", "cli-validate",
    "session", "context", "tools", "resume", "resume-anthropic", "resource",
    "resource-skill-md", "session-all", "context-all", "tools-all", "resume-skills-use",
    "skills-read", "diagnostics",
]  # fmt: skip
ANTHROPIC = [
    {"role": "user", "content": "Use x01."},
    {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "t1", "name": "load_skill", "input": {"name": "x01"}}
        ],
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "(the body)"}],
    },
]
PASS_LOG = {"env_passthrough": ["TRIPWIRE_LOG"]}  # so a shim run by a child can still log


def x01_c1_steps(tree: Tree, skill: Path) -> list[dict[str, Any]]:
    """X01 everywhere but activation: loading, the index, the CLI, context, tools,
    resume and resource reads, with both toolsets."""
    where = ["--project", str(tree.project), "--home", str(tree.home), str(tree.project)]
    return [
        step("load", "load"),
        step("index", "index"),
        step("cli-list", "cli", argv=["list", *where]),
        step("cli-show", "cli", argv=["show", "x01", *where]),
        step("cli-index", "cli", argv=["index", *where]),
        step("cli-doctor", "cli", argv=["doctor", *where]),
        step("cli-validate", "cli", argv=["validate", str(skill)]),
        step("session", "session", options=PASS_LOG),
        step("context", "context"),
        step("tools", "tools"),
        step("resume", "resume", history=[{"name": "load_skill", "arguments": {"name": "x01"}}]),
        step("resume-anthropic", "resume", history=ANTHROPIC),
        call("resource", "load_skill", name="x01", resource="references/notes.md"),
        call("resource-skill-md", "load_skill", name="x01", resource="SKILL.md"),
        step("session-all", "session", options={**PASS_LOG, "tools": "all"}),
        step("context-all", "context"),
        step("tools-all", "tools"),
        step(
            "resume-skills-use",
            "resume",
            history=[{"name": "skills_use", "arguments": {"name": "x01"}}],
        ),
        call("skills-read", "skills_read", name="x01", path="references/notes.md"),
        step("diagnostics", "diagnostics"),
    ]


def x01_run_steps(tree: Tree, skill: Path) -> list[dict[str, Any]]:
    """X01 activation, with a PATH where sh and touch are real."""
    return [
        step("load", "load"),
        step("session", "session", options={}, environ={"PATH": REAL_PATH}),
        call("activate", "load_skill", name="x01"),
        step("diagnostics", "diagnostics"),
    ]


def x02_args(tree: Tree) -> list[str]:
    return [a.format(canary=tree.canary) for a in X02_ARGS]


def x02_steps(tree: Tree, skill: Path) -> list[dict[str, Any]]:
    def run(label: str, script: str, **more: Any) -> dict[str, Any]:
        return call(label, "skills_run_script", name="x02", script=script, **more)

    return [
        step("load", "load"),
        step("session", "session", options={**PASS_LOG, "tools": "all"}),
        run("inactive", "args.sh"),
        call("activate", "skills_use", name="x02"),
        run("dotdot", "../../bin/sh"),
        run("absolute", "/bin/sh"),
        run("link-out", "link"),
        run("relative-link-out", "scripts/out.sh"),
        run("directory", "scripts"),
        run("crlf", "crlf.sh"),
        run("noexec", "noexec.sh"),
        run("unknown", "blob.dat"),
        run("args", "args.sh", args=x02_args(tree)),
        step("diagnostics", "diagnostics"),
    ]


def x03_steps(tree: Tree, skill: Path) -> list[dict[str, Any]]:
    def run(label: str, script: str, **more: Any) -> dict[str, Any]:
        return call(label, "skills_run_script", name="x03", script=script, **more)

    return [
        step("load", "load"),
        step("session", "session", options={**PASS_LOG, "tools": "skills"}),
        call("activate", "skills_use", name="x03"),
        run("grandchild", "grandchild.sh", timeout=0.5),
        run("flood", "flood.sh", timeout=1),  # time to read past 10 MiB
        run("flood-once", "flood-once.sh"),
        run("trap", "trap.sh", timeout=0.5),
    ]


def resource_steps(tree: Tree, skill: Path) -> list[dict[str, Any]]:
    secret = str(tree.outside / "id_secret")
    reads = [
        call(r.label, "load_skill", name="res", resource=r.request) for r in resource_cases(secret)
    ]
    return [
        step("load", "load"),
        step("session", "session", options={}),
        *reads,
        step("race", "race", skill="res", resource="references/flip.md", target=secret,
             flips=10_000),
        step("session-small", "session", options={"resource_cap": 65_536}),
        step("grow", "grow", skill="res", resource="references/grow.txt", reads=50),
        step("diagnostics", "diagnostics"),
    ]  # fmt: skip


def probe_steps(tree: Tree, skill: Path) -> list[dict[str, Any]]:
    return [step("probe", "probe", directory=str(tree.outside), name="id_secret")]


PLANS = {
    "probe": (write_secret, probe_steps),
    "x01-c1": (build_x01, x01_c1_steps),
    "x01-run": (build_x01, x01_run_steps),
    "x02": (build_x02, x02_steps),
    "x03": (lambda tree: build_x03(tree, SLEEP, YES, HEAD), x03_steps),
    "resources": (build_resources, resource_steps),
}


@dataclass(frozen=True)
class Played:
    """One scenario as the child played it."""

    tree: Tree
    log: Path
    steps: dict[str, Any]
    events: list[dict[str, Any]]
    error: str | None
    rss_growth_kib: int

    def value(self, label: str) -> Any:
        assert self.error is None, self.error
        return self.steps[label]["value"]

    def seconds(self, label: str) -> float:
        return self.steps[label]["seconds"]

    def execs(self, label: str | None = None) -> list[list[str]]:
        return [
            e["argv"]
            for e in self.events
            if e["kind"] == "exec" and (label is None or e["step"] == label)
        ]

    def outside(self, label: str | None = None) -> list[str]:
        return [
            f"{e['event']} {e['path']}"
            for e in self.events
            if e["kind"] == "outside" and (label is None or e["step"] == label)
        ]

    def canaries(self) -> list[str]:
        return sorted(os.listdir(self.tree.canary))

    def script(self, skill: str, name: str) -> str:
        return os.path.realpath(self.tree.skills / skill / "scripts" / name)


def dead(pid: int) -> bool:
    """Gone, or a zombie (dead, waiting for a reaper: PID 1 here may never reap one)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2 :].split()[0] == "Z"


def group_running(pgid: int) -> list[int]:
    """Processes of the group `pgid` still running (zombies are dead: PID 1 here may
    never reap an orphan)."""
    running = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            running.append(int(entry))
    return running


@pytest.fixture(scope="module")
def child(tmp_path_factory) -> dict[str, Played]:
    """Every scenario played once, in one child whose PATH holds only tripwires."""
    shims = make_shims(tmp_path_factory.mktemp("bin"))
    specs, trees = [], {}
    for sid, (build, steps) in PLANS.items():
        base = tmp_path_factory.mktemp(sid)
        tree = make_tree(base)
        skill = build(tree)
        trees[sid] = tree
        specs.append(
            {
                "id": sid,
                "base": str(base),
                "project": str(tree.project),
                "home": str(tree.home),
                "fixture": str(tree.project.parent),
                "canary": str(tree.canary),
                "log": str(base / "tripwire.log"),
                "steps": steps(tree, skill),
            }
        )
    spec_file = tmp_path_factory.mktemp("spec") / "runtime.json"
    spec_file.write_text(json.dumps(specs), encoding="utf-8")
    env = {"PATH": str(shims), "HOME": str(trees["x01-c1"].home), "LC_ALL": "C.UTF-8"}
    proc = subprocess.run(
        [sys.executable, str(CHILD), str(spec_file)],
        cwd=specs[0]["base"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    raw = json.loads(proc.stdout)
    played = {s["id"]: Played(trees[s["id"]], Path(s["log"]), **raw[s["id"]]) for s in specs}
    yield played
    _kill_leftovers(played["x03"])


def _kill_leftovers(x03: Played) -> None:
    """A failing runtime may leave X03's sleepers running: end those groups (ours)."""
    for label in ("grandchild", "flood", "trap"):
        try:
            pgid = int(x03.value(label)["data"]["stdout"].split()[0])
        except (AssertionError, KeyError, IndexError, TypeError, ValueError):
            continue
        if group_running(pgid):
            os.killpg(pgid, signal.SIGKILL)


# --- the harness ------------------------------------------------------------------------


def test_the_harness_sees_a_shell_and_an_fd_relative_read_outside(child):
    """The probe runs a shell and opens the secret relative to a directory fd: both are
    caught, the second at the file's real path."""
    probe = child["probe"]
    tree = probe.tree

    assert probe.value("probe")["status"] != 0  # the shim's exit 97
    assert [e["event"] for e in probe.events if e["kind"] == "exec"] == ["os.system"]
    assert probe.outside("probe") == [
        f"os.open {os.path.realpath(tree.outside)}",
        f"os.open {os.path.realpath(tree.outside / 'id_secret')}",
    ]
    assert "touch" in probe.log.read_text()


@pytest.mark.parametrize("sid", [s for s in PLANS if s != "probe"])
def test_no_step_fails_and_nothing_outside_the_fixture_is_opened(child, sid):
    """C5 and containment: no traceback; no file opened or listed outside the fixture
    (by real path, fd-relative opens included) in any step of any scenario."""
    played = child[sid]

    assert played.error is None, played.error
    assert played.outside() == []


def test_no_result_ever_shows_the_secret_or_another_skill(child):
    """Whatever the step, the secret outside and the sibling skill's body never appear."""
    for sid in [s for s in PLANS if s != "probe"]:
        everything = json.dumps(child[sid].steps) + json.dumps(child[sid].events)
        assert SECRET not in everything
        assert VICTIM not in everything
        assert "TOP SECRET" not in everything


# --- X01 --------------------------------------------------------------------------------


@pytest.mark.parametrize("label", X01_C1)
def test_x01_nothing_runs_before_activation(child, label):
    """C1 per phase: no process started, by the library or the CLI, while a trusted skill
    full of commands is loaded, listed, shown, indexed, checked, resumed or read."""
    played = child["x01-c1"]

    assert played.error is None, played.error
    assert label in played.steps
    assert played.execs(label) == []
    assert played.outside(label) == []


def test_x01_leaves_no_canary_and_no_tripwire_log_before_activation(child):
    played = child["x01-c1"]

    assert played.error is None, played.error
    assert played.canaries() == []
    assert not played.log.exists(), played.log.read_text()


def test_x01_phases_show_the_commands_as_text(child):
    """The phases ran for real: the CLI and resource reads show the commands unrun, the
    skill was resumed active, and no diagnostic says a command was refused or failed."""
    played = child["x01-c1"]
    canary = played.tree.canary

    for verb in ("cli-list", "cli-show", "cli-index", "cli-doctor", "cli-validate"):
        assert played.value(verb)["code"] == 0, played.value(verb)
    assert "!`touch" in played.value("cli-show")["out"]
    assert "- x01: Runtime case x01." in played.value("cli-index")["out"]
    notes = f"Notes: !`touch {canary}/resource`\n"
    assert played.value("resource")["text"] == notes
    assert played.value("skills-read")["text"] == notes
    assert f"Inline: !`touch {canary}/inline`" in played.value("resource-skill-md")["text"]
    for resume in ("resume", "resume-anthropic", "resume-skills-use"):
        assert played.value(resume) == {"problems": [], "active": [["x01", "resume"]]}
    assert [s[0] for s in played.value("context")["segments"]] == ["agent.skills"]
    assert [t["name"] for t in played.value("tools-all")["tools"]] == [
        "load_skill", "skills_use", "skills_read", "skills_run_script",
    ]  # fmt: skip
    assert played.value("diagnostics") == {"diagnostics": []}


def test_x01_activation_runs_exactly_the_two_documented_forms(child):
    """The expected-execution phase: `` !`cmd` `` and ```` ```! ```` run, once each and
    in one pass; $(...), backticks, KEY=!`...`, prose and a ```bash fence never do."""
    played = child["x01-run"]
    c = played.tree.canary
    block = f"touch {c}/block\nprintf '!%s%s%s\\n' '`' 'touch {c}/rescanned' '`'"

    text = played.value("activate")["text"]

    assert played.execs("activate") == [["sh", "-c", f"touch {c}/inline"], ["sh", "-c", block]]
    assert played.execs() == played.execs("activate")
    assert played.canaries() == ["block", "inline"]
    assert not played.log.exists(), played.log.read_text()
    assert "Inline: \n" in text
    assert f"\n!`touch {c}/rescanned`\n" in text  # the block's output, not scanned again
    for unrun in (
        f"Dollar: $(touch {c}/dollar)",
        f"Backticks: `touch {c}/backticks`",
        f"KEY=!`touch {c}/key`",
        "Wow! History!! characters in prose !! and !-1 and !touch.",
        f"```bash\n!`touch {c}/bash-fence`\n$(touch {c}/bash-fence-dollar)\n```",
    ):
        assert unrun in text
    assert played.value("diagnostics") == {"diagnostics": []}


# --- X02 --------------------------------------------------------------------------------


def x02_refusals(tree: Tree) -> dict[str, str]:
    out = os.path.relpath(tree.outside / "evil.sh", tree.skills / "x02" / "scripts")
    return {
        "inactive": "Error (session.skill.inactive): skill 'x02' is not active; call "
        "skills_use with its name first",
        "dotdot": f"Error ({TRAVERSAL}): {DOTDOT}: '../../bin/sh'",
        "absolute": f"Error ({ABSOLUTE}): the resource path is absolute: '/bin/sh'",
        "link-out": f"Error ({ESCAPE}): 'scripts/link' is refused: the symlink 'scripts/link' "
        f"points to '/usr/bin/curl', {OUTSIDE}",
        "relative-link-out": f"Error ({ESCAPE}): 'scripts/out.sh' is refused: the symlink "
        f"'scripts/out.sh' points to {escaped(out)}, {OUTSIDE}",
        "directory": f"Error ({NOT_REGULAR}): 'scripts' is not a regular file: it is a directory",
        "unknown": NOEXEC,
    }


X02_REFUSED = ["inactive", "dotdot", "absolute", "link-out", "relative-link-out", "directory",
               "unknown"]  # fmt: skip


@pytest.mark.parametrize("label", X02_REFUSED)
def test_x02_script_refused_with_its_code_and_nothing_started(child, label):
    played = child["x02"]
    expected = x02_refusals(played.tree)[label]

    result = played.value(label)

    assert result["is_error"]
    assert result["code"] == expected[len("Error (") : expected.index(")")]
    assert result["text"] == expected
    assert played.execs(label) == []


def test_x02_crlf_shebang_is_an_exec_start_error_that_says_why(child):
    played = child["x02"]
    script = played.script("x02", "crlf.sh")

    result = played.value("crlf")

    assert (result["is_error"], result["code"]) == (True, "exec.start")
    assert result["data"]["exitCode"] is None
    assert result["data"]["error"] == (
        f"exec.start: cannot start {script!r}: its #! line ends in a carriage return "
        "(CRLF line endings); convert the file to LF"
    )
    assert played.execs("crlf") == [[script]]  # tried as argv; the kernel refused it


def test_x02_a_script_without_an_exec_bit_runs_through_its_shebang_interpreter(child):
    played = child["x02"]

    result = played.value("noexec")

    assert not result["is_error"]
    assert (result["data"]["exitCode"], result["data"]["stdout"]) == (0, "noexec")
    assert played.execs("noexec") == [["/bin/sh", played.script("x02", "noexec.sh")]]


def test_x02_args_reach_the_script_verbatim_never_through_a_shell(child):
    played = child["x02"]
    args = x02_args(played.tree)

    result = played.value("args")

    assert not result["is_error"]
    assert result["data"]["exitCode"] == 0
    assert result["data"]["stdout"] == "".join(f"<{a}>\n" for a in args)
    assert played.execs("args") == [[played.script("x02", "args.sh"), *args]]


def test_x02_nothing_outside_the_skill_ran(child):
    """No canary (not from the args, not from the script a link leads to), no shim ran,
    and the only processes were the three scripts asked for (the CRLF one, the one run
    through its #! line, the one echoing its args): the file with no interpreter never
    started."""
    played = child["x02"]

    assert played.canaries() == []
    assert not played.log.exists(), played.log.read_text()
    assert len(played.execs()) == 3
    assert played.execs("unknown") == []


# --- X03 --------------------------------------------------------------------------------


def timed_out(played: Played, label: str, script: str, seconds: str = "0.5") -> dict[str, Any]:
    result = played.value(label)
    data = result["data"]
    assert result["is_error"]
    assert (data["timedOut"], data["exitCode"]) == (True, None)
    assert data["error"] == (
        f"exec.timeout: {played.script('x03', script)!r} timed out after {seconds} s; "
        "its process group was killed"
    )
    assert played.seconds(label) < HANG
    return data


def test_x03_grandchild_holding_the_pipes_is_killed_with_its_group(child):
    """`sleep 600 &` then `sleep 600`: the call returns at the timeout and nothing of the
    group (script, background and foreground sleep) is left running."""
    played = child["x03"]

    data = timed_out(played, "grandchild", "grandchild.sh")

    script_pid, background_pid = (int(n) for n in data["stdout"].split())
    assert dead(script_pid)
    assert dead(background_pid)
    assert group_running(script_pid) == []


def test_x03_flood_is_cut_with_a_marker_and_stopped_at_the_timeout(child):
    played = child["x03"]

    data = timed_out(played, "flood", "flood.sh", "1")

    assert data["truncated"] is True
    match = CUT.search(data["stdout"])
    assert match, data["stdout"][-200:]
    assert int(match.group(1).replace(",", "")) > 10 * 1024 * 1024
    assert len(data["stdout"]) < 1024 * 1024 + 200
    assert played.rss_growth_kib < RSS_BOUND_KIB
    script_pid = int(data["stdout"].split()[0])
    assert dead(script_pid)
    assert group_running(script_pid) == []


def test_x03_flood_that_ends_is_cut_with_an_exact_marker(child):
    played = child["x03"]

    result = played.value("flood-once")

    assert not result["is_error"]
    data = result["data"]
    assert (data["exitCode"], data["timedOut"], data["truncated"]) == (0, False, True)
    assert data["stdout"].endswith(
        "\n[output cut by satchel: 10,485,760 bytes read, 1,048,576 kept]\n"
    )
    assert played.seconds("flood-once") < HANG


def test_x03_script_ignoring_term_is_killed(child):
    """The script traps TERM (and says so): SIGKILL follows and its group is gone."""
    played = child["x03"]

    data = timed_out(played, "trap", "trap.sh")

    assert "term-ignored" in data["stdout"]
    script_pid = int(data["stdout"].split()[0])
    assert dead(script_pid)
    assert group_running(script_pid) == []


def test_x03_only_the_scripts_started(child):
    played = child["x03"]

    for label, script in (
        ("grandchild", "grandchild.sh"),
        ("flood", "flood.sh"),
        ("flood-once", "flood-once.sh"),
        ("trap", "trap.sh"),
    ):
        assert played.execs(label) == [[played.script("x03", script)]]
    assert not played.log.exists(), played.log.read_text()
    assert played.canaries() == []


# --- P01-P07, S02 ------------------------------------------------------------------------


@pytest.mark.parametrize("label", RESOURCE_LABELS)
def test_resource_request_through_load_skill(child, label):
    """Each request gives its `resource.*` error (exact text) or, for the in-tree
    controls, the file; promptly (a FIFO never blocks) and starting nothing."""
    played = child["resources"]
    case = next(c for c in resource_cases(str(played.tree.outside / "id_secret"))
                if c.label == label)  # fmt: skip

    result = played.value(label)

    if case.code is None:
        assert not result["is_error"], result["text"]
        assert result["text"].startswith(case.message)
    else:
        assert (result["is_error"], result["code"]) == (True, case.code)
        assert result["text"] == f"Error ({case.code}): {case.message}"
    assert played.seconds(label) < HANG
    assert played.execs(label) == []


def test_p06_swapping_a_file_for_a_link_never_reads_the_secret(child):
    """10,000 flips while the model reads: each read is the in-tree text or an escape."""
    race = child["resources"].value("race")

    assert set(race["outcomes"]) <= {"read", ESCAPE}, race
    assert race["outcomes"].get("read", 0) > 0, race
    assert race["outcomes"].get(ESCAPE, 0) > 0, race
    for text in race["texts"]:
        assert text.startswith(f"Error ({ESCAPE}): 'references/flip.md' is refused: "), text


def test_s02_a_file_growing_while_read_never_yields_more_than_the_cap(child):
    grow = child["resources"].value("grow")

    assert set(grow["codes"]) <= {"read", "resource.too-large"}, grow
    assert grow["most_read"] <= 65_536


def test_resources_ran_nothing(child):
    played = child["resources"]

    assert played.execs() == []
    assert played.canaries() == []
    assert not played.log.exists()
    assert played.value("diagnostics") == {"diagnostics": []}


# --- C5 over every result of the child ---------------------------------------------------


def one_clean_line(text: str) -> bool:
    return "\n" not in text and "\r" not in text and not any(is_control(c) for c in text)


def test_every_error_result_is_one_clean_line(child):
    """C5: each error result and each diagnostic the child saw is one line of printable
    text (for a script's JSON result: its `error` field; stdout and stderr are data)."""
    seen = 0
    for sid in [s for s in PLANS if s != "probe"]:
        for label, played_step in child[sid].steps.items():
            value = played_step["value"]
            texts = [*value.get("texts", []), *(d[2] for d in value.get("diagnostics", []))]
            if value.get("is_error"):
                assert "\n" not in value["text"], (sid, label)
                data = value["data"] or {}
                texts.append(data.get("error", value["text"]))
            for text in texts:
                seen += 1
                assert one_clean_line(text), (sid, label, text)
    assert seen > 40


# --- C4: the same results twice, the tree rebuilt, and with listings reversed --------------


X02_SCRIPTS = (
    "../../bin/sh",
    "/bin/sh",
    "link",
    "scripts/out.sh",
    "scripts",
    "crlf.sh",
    "noexec.sh",
    "blob.dat",
)


def c4_outcome(tree: Tree) -> tuple[object, ...]:
    """Every tool result and diagnostic of one session over X01, X02 and the P/S cases."""
    env = tree.load()
    session = Session(env, tools="all", environ={"PATH": REAL_PATH})
    calls: list[tuple[str, dict[str, Any]]] = [("skills_use", {"name": "res"})]
    secret = str(tree.outside / "id_secret")
    calls += [
        ("load_skill", {"name": "res", "resource": r.request}) for r in resource_cases(secret)
    ]
    calls.append(("skills_use", {"name": "x02"}))
    for script in X02_SCRIPTS:
        calls.append(("skills_run_script", {"name": "x02", "script": script}))
    calls.append(
        ("skills_run_script", {"name": "x02", "script": "args.sh", "args": x02_args(tree)})
    )
    calls.append(("load_skill", {"name": "x01"}))
    results = [session.call(tool, arguments) for tool, arguments in calls]
    return (
        [(r.text, r.is_error, r.code, None if r.data is None else dict(r.data)) for r in results],
        env.diagnostics,
        session.diagnostics,
        session.toolbox.receipt(),
    )


def test_c4_session_results_are_the_same_twice_and_with_listings_reversed(tmp_path, monkeypatch):
    base = tmp_path / "c4"

    def rebuilt() -> Tree:
        if base.exists():
            shutil.rmtree(base)
        base.mkdir()
        tree = make_tree(base)
        build_x01(tree)
        build_x02(tree)
        build_resources(tree)
        return tree

    first = c4_outcome(rebuilt())
    results = first[0]
    assert "<skill_resources>" in results[0][0]
    assert results[-2][3]["exitCode"] == 0
    assert sum(r[1] for r in results) > 30

    assert c4_outcome(rebuilt()) == first
    with reversed_listing(monkeypatch):
        assert c4_outcome(rebuilt()) == first


# --- C5: hostile text in every argument a model controls -----------------------------------

HOSTILE = "\x1b[2J\x1b]8;;http://x\x07\r\n\u202e\u200b\U000e0041\x7f\x85"


@pytest.fixture
def hostile(tmp_path) -> Session:
    tree = make_tree(tmp_path)
    scripts = build_x02(tree) / "scripts"
    put(scripts / f"noexec{HOSTILE}.dat", "printf hi\n", mode=0o644)
    put(scripts / f"crlf{HOSTILE}.sh", "#!/bin/sh\r\nprintf hi\r\n", mode=0o755)
    build_resources(tree)
    session = Session(tree.load(), tools="all", environ={"PATH": REAL_PATH})
    session.call("skills_use", {"name": "x02"})
    return session


HOSTILE_CALLS = {
    "unknown-skill": ("load_skill", {"name": "ev" + HOSTILE}),
    "unknown-tool": ("load" + HOSTILE, {}),
    "bad-json": ("load_skill", "{" + HOSTILE),
    "bad-mode": ("skills_use", {"name": "res", "mode": HOSTILE}),
    "resource-missing": ("load_skill", {"name": "res", "resource": f"references/{HOSTILE}.md"}),
    "resource-nul": ("load_skill", {"name": "res", "resource": f"references/\x00{HOSTILE}"}),
    "resource-absolute": ("load_skill", {"name": "res", "resource": "/" + HOSTILE}),
    "resource-long": ("load_skill", {"name": "res", "resource": HOSTILE * 400}),
    "script-missing": ("skills_run_script", {"name": "x02", "script": HOSTILE + ".sh"}),
    "script-not-executable": (
        "skills_run_script",
        {"name": "x02", "script": f"noexec{HOSTILE}.dat"},
    ),
    "script-crlf": ("skills_run_script", {"name": "x02", "script": f"crlf{HOSTILE}.sh"}),
}


@pytest.mark.parametrize("label", HOSTILE_CALLS)
def test_c5_error_results_escape_hostile_text(hostile, label):
    """C5: whatever control, bidi or tag characters a model (or a file name) brings, an
    error result is one line of printable text, with those characters escaped."""
    tool, arguments = HOSTILE_CALLS[label]

    result = hostile.call(tool, arguments)

    assert result.is_error
    assert "\n" not in result.text
    shown = result.data["error"] if result.data and "error" in result.data else result.text
    assert one_clean_line(shown), shown


def test_c5_resume_diagnostics_escape_hostile_text(hostile):
    problems = hostile.activation.resume(
        [
            {"name": "load_skill", "arguments": {"name": HOSTILE}},
            {"name": "skills_use", "arguments": {"name": "x02", "mode": HOSTILE}},
            {"name": "load_skill", "arguments": HOSTILE},
        ]
    )

    assert problems
    for d in (*problems, *hostile.diagnostics):
        assert one_clean_line(d.message), d

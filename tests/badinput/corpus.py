"""The bad-input corpus: all 50 named cases of the threat model (section 5), one table.

Each `Entry` builds its case in a `Tree` at test time (every variant side by side), and
names the phases that must run nothing (`steps`, played in the tripwire child of
runtime_build.py) and where the case's behaviour is tested in depth (`tested`).
test_corpus.py checks the common invariants C1-C5 over every entry, and that no id of
the threat model is missing from the table.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import satchel
from satchel import WalkBounds
from satchel.install import InstallError, install_from_spec
from tests.support import write_skill

from . import corpus_build as cb
from . import regressions_build as rb
from .build import NESTED, Tree
from .cases import CASES, REJECTED, WARNED
from .runtime_build import build_resources, build_x01, build_x02, build_x03

Step = dict[str, Any]

GROUPS = (
    ("Y", 10), ("U", 1), ("N", 3), ("P", 7), ("S", 4), ("X", 3), ("H", 7), ("T", 3),
    ("M", 5), ("I", 7),
)  # fmt: skip
THREAT_MODEL_IDS = tuple(
    f"{letter}{n:02d}" for letter, count in GROUPS for n in range(1, count + 1)
)
# Cases beyond the threat model's 50, each a promise an attack once broke (docs/security.md).
REGRESSION_IDS = ("J01", "J02", "W01", "V01", "T04", "T05", "H10", "H11")
SLEEP, YES, HEAD = (shutil.which(p, path="/usr/bin:/bin") or p for p in ("sleep", "yes", "head"))


@dataclass(frozen=True)
class Entry:
    """One case of the threat model.

    `build` writes it; `steps` are the phases played under the tripwire (from the tree
    and what `build` returned); `tested` where its behaviour is tested in depth;
    `kind` the sense of "nothing executed" (``load``: loading and listing run nothing;
    ``untrusted``: nothing at all runs, session and hooks included; ``install``:
    nothing from the source runs, git alone may start); `walk` the discovery bounds;
    `programs` what may start; `adds` the directories the steps may create."""

    id: str
    title: str
    build: Callable[[Tree], Any]
    tested: tuple[str, ...]
    kind: str = "load"
    steps: Callable[[Tree, Any], list[Step]] | None = None
    walk: WalkBounds | None = None
    programs: frozenset[str] = frozenset()
    adds: tuple[str, ...] = ()  # what the steps may add below the fixture, and its parents


# --- steps ------------------------------------------------------------------------------


def load(walk: WalkBounds | None = None, **options: Any) -> Step:
    found = None if walk is None else dataclasses.asdict(walk)
    return {"label": "load", "op": "load", "walk": found, "options": options}


def cli(tree: Tree, label: str, *argv: str) -> Step:
    where = ["--project", str(tree.project), "--home", str(tree.home)]
    return {"label": label, "op": "cli", "argv": [*argv, *where]}


def looked_at(tree: Tree, walk: WalkBounds | None = None, **options: Any) -> list[Step]:
    """Every phase that only looks: load, doctor, list, plugins, hooks, MCP servers and
    the audit (SARIF: every finding, every path)."""
    return [
        load(walk, **options),
        cli(tree, "doctor", "doctor"),
        cli(tree, "list", "list", "--json"),
        cli(tree, "plugins", "plugins"),
        cli(tree, "hooks", "hooks"),
        cli(tree, "mcp list", "mcp", "list"),
        cli(tree, "audit", "audit", str(tree.project), "--format", "sarif"),
    ]


def session(**options: Any) -> Step:
    return {"label": "session", "op": "session", "options": options}


def call(label: str, **arguments: Any) -> Step:
    return {"label": label, "op": "call", "tool": "load_skill", "arguments": arguments}


def resources(*paths: str) -> Callable[[Tree, Any], list[Step]]:
    """Load, then ask the model's tool for each of `paths` in the `res` skill."""

    def steps(tree: Tree, _built: Any) -> list[Step]:
        asks = [call(f"resource {p!r}", name="res", resource=p) for p in paths]
        return [*looked_at(tree), session(), call("activate", name="res"), *asks]

    return steps


def activating(name: str) -> Callable[[Tree, Any], list[Step]]:
    def steps(tree: Tree, _built: Any) -> list[Step]:
        return [*looked_at(tree), session(), call("activate", name=name)]

    return steps


def untrusted(tree: Tree, _built: Any) -> list[Step]:
    """T01/T02: every phase of a session, a session start and a tool call included."""
    return [
        *looked_at(tree, claude_settings_hooks=True),
        {"label": "session start", "op": "fire", "event": "session_start", "payload": {}},
        session(),
        call("activate", name="setup"),
        {"label": "tool call", "op": "gate", "tool": "Bash", "input": {"command": "ls"}},
    ]


def pinned_steps(tree: Tree, _built: Any, **options: Any) -> list[Step]:
    """T03-T05: look, then a session start and a tool call: the edited hooks are held
    back, so nothing runs."""
    return [
        *looked_at(tree, **options),
        {"label": "session start", "op": "fire", "event": "session_start", "payload": {}},
        session(),
        {"label": "tool call", "op": "gate", "tool": "Bash", "input": {"command": "ls"}},
    ]


def installing(tree: Tree, built: list[str]) -> list[Step]:
    """Install each source (refused or not), then look at what is there."""
    where = ["--project", str(tree.project), "--home", str(tree.home)]
    installs = [
        {"label": f"install {i}", "op": "cli", "argv": ["install", "--json", *where, "--", s]}
        for i, s in enumerate(built)
    ]
    return [*installs, *looked_at(tree)]


# --- builders from cases.py ----------------------------------------------------------------


def discovery(prefix: str) -> Callable[[Tree], None]:
    """Every discovery variant of `prefix` from cases.py, side by side in one root."""
    files = [(c.dirname, c.content) for c in (*REJECTED, *WARNED) if c.id.startswith(prefix)]
    written = {c.id for c in (*REJECTED, *WARNED)}
    builders: list[Callable[[Tree], object]] = []
    for case in CASES:
        if case.id.startswith(prefix) and case.id not in written and case.build not in builders:
            builders.append(case.build)

    def build(tree: Tree) -> None:
        for i, (dirname, content) in enumerate(files):
            name = dirname if not (tree.skills / dirname).exists() else f"{dirname}-{i}"
            write_skill(tree.skills, name, content)
        for make in builders:
            make(tree)

    return build


def walk_of(prefix: str) -> WalkBounds | None:
    return NESTED if any(c.walk for c in CASES if c.id.startswith(prefix)) else None


def x03(tree: Tree) -> Any:
    return build_x03(tree, SLEEP, YES, HEAD)


W01_HOSTS = (
    "127.0.0.1:8765.evil.com", "localhost:8765@evil.com", "[::1]:8765.evil.com",
    "localhost:8765:1", "127.0.0.1:8766",
)  # fmt: skip
W01_GOOD = ("127.0.0.1:8765", "localhost:8765", "[::1]:8765")

# --- the table ------------------------------------------------------------------------------

BADINPUT = "tests/badinput"
HOOKS = "tests/hooks"
PLUGINS = "tests/plugins"
INSTALL = "tests/install"
P06_TEST = "test_p06_swapping_a_file_for_a_link_never_reads_the_secret"


def _discovery(id_: str, title: str, *tested: str) -> Entry:
    walk = walk_of(id_)

    def steps(tree: Tree, _built: Any) -> list[Step]:
        return looked_at(tree, walk)

    tests = (f"{BADINPUT}/test_conventions.py", *tested)
    return Entry(id_, title, discovery(id_), tests, walk=walk, steps=steps)


def _hooks(id_: str, title: str, *tested: str) -> Entry:
    return Entry(
        id_,
        title,
        lambda tree: cb.h_hooks(tree, id_),
        tested,
        steps=lambda tree, _b: [
            *looked_at(tree, claude_settings_hooks=True),
            cli(tree, "hooks json", "hooks", "--json"),
        ],
    )


def _plugins(id_: str, title: str, build: Callable[[Tree], Any], *tested: str) -> Entry:
    return Entry(id_, title, build, tested, steps=lambda tree, _b: looked_at(tree))


def _install(id_: str, title: str, build: Callable[[Tree], Any], *tested: str) -> Entry:
    git = frozenset({"git"}) if id_ in ("I04", "I05") else frozenset()
    return Entry(id_, title, build, tested, kind="install", steps=installing, programs=git)


CORPUS: tuple[Entry, ...] = (
    _discovery("Y01", "yaml-billion-laughs", f"{BADINPUT}/test_yaml.py"),
    _discovery("Y02", "yaml-duplicate-keys", f"{BADINPUT}/test_rejected.py"),
    _discovery("Y03", "yaml-tags", f"{BADINPUT}/test_yaml.py"),
    _discovery("Y04", "frontmatter-not-mapping", f"{BADINPUT}/test_yaml.py"),
    _discovery("Y05", "frontmatter-wrong-types", f"{BADINPUT}/test_yaml.py"),
    _discovery("Y06", "tab-indentation", f"{BADINPUT}/test_yaml.py"),
    Entry(
        "Y07",
        "bom-and-crlf-twins",
        cb.y07_twins,
        (f"{BADINPUT}/test_fences_and_encoding.py",),
        steps=lambda tree, _b: looked_at(tree),
    ),
    _discovery("Y08", "fence-errors", f"{BADINPUT}/test_fences_and_encoding.py"),
    _discovery("Y09", "frontmatter-too-large-or-deep", f"{BADINPUT}/test_yaml.py"),
    _discovery("Y10", "bad-encoding", f"{BADINPUT}/test_fences_and_encoding.py"),
    _discovery("U01", "invisible-and-control-characters", f"{BADINPUT}/test_hidden_text.py"),
    _discovery("N01", "name-syntax", f"{BADINPUT}/test_names.py"),
    _discovery("N02", "name-collision-normalisation", f"{BADINPUT}/test_names.py"),
    _discovery("N03", "cross-scope-shadowing", f"{BADINPUT}/test_names.py"),
    Entry(
        "P01",
        "dotdot-variants",
        build_resources,
        (f"{BADINPUT}/test_runtime.py", "tests/test_resources.py"),
        steps=resources("../../etc/passwd", "references/./../..//x", "%2e%2e/x", "..\\..\\x"),
    ),
    Entry(
        "P02",
        "absolute-variants",
        build_resources,
        (f"{BADINPUT}/test_runtime.py", "tests/test_resources.py"),
        steps=resources("/etc/passwd", "C:\\Windows\\win.ini", "~/.ssh/id_rsa", "a\x00.md"),
    ),
    Entry(
        "P03",
        "symlink-escape",
        lambda tree: (build_resources(tree), discovery("P03")(tree)),
        (f"{BADINPUT}/test_runtime.py", f"{BADINPUT}/test_symlinks.py"),
        steps=resources("references/key.md", "references/x.md", "references/slash/etc/passwd"),
    ),
    Entry(
        "P04",
        "symlink-loop",
        lambda tree: (build_resources(tree), discovery("P04")(tree)),
        (f"{BADINPUT}/test_runtime.py", f"{BADINPUT}/test_symlinks.py"),
        steps=resources("references/loop-a", "references/self", "references/up/references/x"),
    ),
    Entry(
        "P05",
        "special-files",
        build_resources,
        (f"{BADINPUT}/test_runtime.py", "tests/test_resources.py"),
        steps=resources("references/pipe.md", "references/zero", "references/sock"),
    ),
    Entry(
        "P06",
        "toctou-swap",
        build_resources,
        (f"{BADINPUT}/test_runtime.py::{P06_TEST}",),
        steps=resources("references/flip.md"),
    ),
    Entry(
        "P07",
        "hardlink-in",
        build_resources,
        (f"{BADINPUT}/test_runtime.py", "tests/test_resources.py"),
        steps=resources("references/hard.md"),
    ),
    _discovery("S01", "skill-md-1MiB-plus-1", f"{BADINPUT}/test_sizes.py"),
    Entry(
        "S02",
        "resource-4MiB-plus-1",
        build_resources,
        (f"{BADINPUT}/test_runtime.py",),
        steps=resources("assets/big.bin", "assets/cap.txt", "references/grow.txt"),
    ),
    Entry(
        "S03",
        "token-truncation",
        cb.s03_bodies,
        (f"{BADINPUT}/test_sizes.py", "tests/test_tokens.py"),
        steps=lambda tree, _b: [
            *looked_at(tree),
            session(),
            *(call(n, name=n) for n in ("ascii", "cjk", "emoji", "one-line", "fake-marker")),
        ],
    ),
    _discovery("S04", "tree-and-count-explosion", f"{BADINPUT}/test_sizes.py"),
    Entry(
        "X01",
        "interpolation-never-at-load",
        build_x01,
        (f"{BADINPUT}/test_runtime.py", "tests/session/test_shell.py"),
        steps=lambda tree, _b: [*looked_at(tree), session(), {"label": "index", "op": "index"}],
    ),
    Entry(
        "X02",
        "script-path-and-argv",
        build_x02,
        (
            f"{BADINPUT}/test_runtime.py",
            "tests/test_process.py",
            "tests/session/test_skill_layouts.py",
        ),
        steps=activating("x02"),
    ),
    Entry(
        "X03",
        "script-timeout-grandchild-and-flood",
        x03,
        (f"{BADINPUT}/test_runtime.py",),
        steps=activating("x03"),
    ),
    _hooks("H01", "hook-never-exits", f"{HOOKS}/test_badinput.py"),
    _hooks("H02", "hook-prints-10MB", f"{HOOKS}/test_badinput.py"),
    _hooks("H03", "hook-failure-modes", f"{HOOKS}/test_answers.py"),
    _hooks("H04", "hook-exit2-empty-stderr", f"{HOOKS}/test_answers.py"),
    _hooks("H05", "deny-plus-updatedInput-two-hooks", f"{HOOKS}/test_badinput.py"),
    _hooks("H06", "conflicting-rewrites-and-ask", f"{HOOKS}/test_badinput.py"),
    _hooks("H07", "pipe-deadlocks", f"{HOOKS}/test_badinput.py"),
    Entry(
        "T01",
        "untrusted-project-executes-nothing",
        cb.t01_untrusted,
        (f"{HOOKS}/test_runner.py", "tests/test_trust.py"),
        kind="untrusted",
        steps=untrusted,
    ),
    Entry(
        "T02",
        "self-trusting-config",
        cb.t02_self_trusting,
        (f"{HOOKS}/test_runner.py", "tests/test_trust.py"),
        kind="untrusted",
        steps=untrusted,
    ),
    Entry(
        "T03",
        "content-change-after-approval",
        cb.t03_changed_after_trust,
        ("tests/test_approval.py",),
        kind="untrusted",
        steps=pinned_steps,
    ),
    _plugins(
        "M01",
        "manifest-drift",
        cb.m01_drift,
        f"{PLUGINS}/formats/test_claude.py",
        f"{BADINPUT}/test_corpus.py::test_m01_a_plugin_manifest_with_a_key_twice_is_refused",
    ),
    _plugins(
        "M02",
        "manifest-paths-outside-root",
        cb.m02_paths,
        f"{PLUGINS}/formats/test_claude.py",
        f"{PLUGINS}/components/test_paths.py",
    ),
    _plugins(
        "M03",
        "namespace-reserved-and-collision",
        cb.m03_names,
        f"{PLUGINS}/test_discover.py",
        f"{PLUGINS}/formats/test_vibe_extension.py",
    ),
    _plugins("M04", "ambiguous-format", cb.m04_ambiguous, f"{PLUGINS}/formats/test_detect.py"),
    _plugins(
        "M05",
        "mcp-env-and-command",
        cb.m05_mcp,
        f"{PLUGINS}/components/test_mcp_json.py",
        "tests/mcp/test_supervisor_launch.py",
        "tests/test_process.py",
    ),
    _install("I01", "zip-slip", cb.i01_slip, f"{INSTALL}/test_extract.py"),
    _install("I02", "archive-links-devices-modes", cb.i02_links, f"{INSTALL}/test_extract.py"),
    _install("I03", "archive-bomb-and-duplicates", cb.i03_bombs, f"{INSTALL}/test_extract.py"),
    _install("I04", "git-submodules", cb.i04_submodules, f"{INSTALL}/test_git.py"),
    _install("I05", "git-checkout-time-execution", cb.i05_checkout, f"{INSTALL}/test_git.py"),
    _install("I06", "npm-lifecycle-scripts", cb.i06_npm, f"{INSTALL}/test_npm.py"),
    _install(
        "I07",
        "source-integrity-and-atomicity",
        cb.i07_sources,
        f"{INSTALL}/test_sources.py",
        f"{INSTALL}/test_cli.py",
        f"{INSTALL}/test_git.py",
    ),
    Entry(
        "J01",
        "json-nesting-100000-deep",
        rb.j01_deep_json,
        ("tests/test_json_depth.py", f"{HOOKS}/test_deep_answer.py"),
        steps=lambda tree, _b: [
            *looked_at(tree, claude_settings_hooks=True),
            session(),
            {"label": "tool call", "op": "gate", "tool": "Bash", "input": {"command": "ls"}},
            cli(tree, "hooks run", "hooks", "run", "before_tool_use", "--tool", "Bash", "--json"),
            cli(tree, "install verify", "verify", "--json"),
            cli(tree, "install frozen", "install", "--frozen", "--json"),
        ],
        programs=frozenset({"sh"}),
    ),
    Entry(
        "J02",
        "mcp-answer-100000-deep",
        rb.j02_deep_mcp,
        ("tests/mcp/test_supervisor_deep.py",),
        steps=lambda tree, _b: [
            *looked_at(tree),
            {
                "label": "supervisor call",
                "op": "mcp",
                "tool": "mcp__plugin_deep_deep__deep",
                "timeout": 60,
            },
        ],
        programs=frozenset({"server.sh"}),
        adds=("home/.local/share/satchel/plugin-data/deep",),  # PLUGIN_DATA of its servers
    ),
    Entry(
        "W01",
        "http-host-prefix",
        lambda tree: None,
        ("tests/mcp/test_serve.py", "tests/mcp/test_serve_http.py"),
        steps=lambda tree, _b: [
            *looked_at(tree),
            {
                "label": "host check",
                "op": "hosts",
                "host": "127.0.0.1",
                "port": 8765,
                "hosts": [*W01_HOSTS, *W01_GOOD],
                "origins": [f"http://{h}" for h in (*W01_HOSTS, *W01_GOOD)],
            },
        ],
    ),
    Entry(
        "V01",
        "setuid-after-install",
        rb.v01_setuid_after_install,
        (f"{INSTALL}/test_hand_edits.py",),
        kind="install",
        steps=lambda tree, _b: [
            cli(tree, "install verify", "verify", "--json"),
            cli(tree, "install update", "update", "--json"),
            *looked_at(tree),
        ],
    ),
    # promises an attack once broke: the hooks' and the pins'
    Entry(
        "T04",
        "pinned-script-named-every-way",
        cb.t04_named_every_way,
        ("tests/test_approval.py",),
        kind="untrusted",
        steps=pinned_steps,
    ),
    Entry(
        "T05",
        "settings-json-hooks-pinned",
        cb.t05_settings_pinned,
        ("tests/test_approval.py",),
        kind="untrusted",
        steps=lambda tree, built: pinned_steps(tree, built, claude_settings_hooks=True),
    ),
    _hooks("H10", "duplicate-handlers-one-strict", f"{HOOKS}/test_bounds.py"),
    _hooks(
        "H11",
        "timeout-without-bound-and-sigterm",
        f"{HOOKS}/test_bounds.py",
        "tests/test_signals.py",
    ),
)


def entry(id_: str) -> Entry:
    return next(e for e in CORPUS if e.id == id_)


# --- C4: what a run shows -----------------------------------------------------------------


def outcome(tree: Tree, item: Entry, built: Any) -> list[Any]:
    """What one run shows, for the determinism check: each install's refusal or result,
    then every diagnostic of a load, the skills, plugins and hooks that loaded."""
    shown: list[Any] = []
    if item.kind == "install":
        environ = {"PATH": os.environ.get("PATH", ""), "HOME": str(tree.home)}
        for source in built:
            try:
                result = install_from_spec(source, layout=tree.layout(), environ=environ)
            except InstallError as refused:
                shown.append(("refused", refused.code, str(refused)))
            else:
                shown.append(("installed", [d.code for d in result.diagnostics]))
    env = satchel.load(layout=tree.layout(item.walk), claude_settings_hooks=True)
    shown.append([(d.code, d.severity, str(d.path), d.line, d.message) for d in env.diagnostics])
    shown.append(sorted((s.name, str(s.path)) for s in env.skills.values()))
    shown.append(sorted(env.plugins.plugins))
    shown.append([(h.source, h.status, h.why) for h in env.hooks.hooks])
    return shown


def relative(path: str | Path, tree: Tree) -> str:
    return os.path.relpath(path, tree.base)

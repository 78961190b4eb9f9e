"""Discovery benchmark: `satchel.load()` against the I/O floor and skills-ref.

Run from the repository root:

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/discovery.py

It builds a synthetic corpus of skills in a temporary directory (removed at the end)
spread over five roots of `satchel.Layout.default`, with some names repeated across
roots so that shadowing is exercised, then times in one process:

* the floor: `os.scandir` of every root and the first 4 KiB of every SKILL.md;
* the floor plus PyYAML's `CSafeLoader` on each frontmatter (context only);
* `satchel.load(layout=..., cache=False)`: cold, the discovery cache off;
* `satchel.load(layout=...)` with a warm discovery cache (every SKILL.md unchanged);
* `satchel.load(layout=...)` after the cache files are removed (context: a first load,
  which writes the cache);
* floor W (context): what an eager warm load cannot skip: each root listed, each
  SKILL.md `lstat`ed, its ``skill.md`` twin probed, and its `Path` and `Skill` made from
  the cache's entry held in memory;
* floor S (context): only floor W's system calls (each root listed, each SKILL.md
  `lstat`ed, its twin probed), with no object made, and, beside it, the discovery cache's
  files read and unmarshalled: together, the part of a warm load that no Python per skill
  can shorten;
* `skills_ref.read_properties(dir)` for every skill directory.

Each operation is warmed up once, then K rounds are timed with `time.perf_counter()`,
each round running every operation once after a `gc.collect()`; the median and the
minimum are printed.

The plugins scenario (`--plugins N`, default 50; 0 skips it) builds the same skills
plus N plugins over the layout's four plugin roots (one in ten Claude Code, one in ten
Codex, the rest Agent Plugins 1.0; `PLUGIN_SKILLS` skills in each), checks that every
plugin loads whole and, in a subprocess with an audit hook, that its floor opens every
file and lists every directory `satchel.load()` does, then times in the same way:

* its floor (`plugin_floor`): the skills floor over every skills root, a listing of
  every commands, agents and plugins root and of each plugin directory, every
  manifest, MCP and hooks file the listing shows read whole, and each plugin's
  ``skills/``, ``commands/`` and ``agents/`` listed with each file's head read;
* floor B (context): SKILL.md heads only, over the roots and the plugins' ``skills/``
  (the floor of Mistral Vibe's published figure);
* `satchel.load(layout=...)`, then `load(plugins=False)` and `load_plugins` (context).

The scaling scenario (`--scale N`, default 10; 0 skips it) builds a second corpus of N
times the skills and times cold and warm loads of both corpora in the same rounds.

A second corpus of 10,000 skills is then loaded in a fresh subprocess to measure how
much the resident set grows while the `Environment` is held, cold and warm.

The discovery cache lives in a temporary directory for the run (``SATCHEL_CACHE_DIR``),
and every file of a corpus is dated an hour back, as files are that were not written
in the last seconds (the cache does not keep a file modified in the two seconds before
it was read). See docs/performance.md.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.metadata
import io
import json
import marshal
import os
import platform
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

import satchel
from satchel.foundations.origin import NO_ORIGIN
from satchel.skills._cache import _fields, _rebuild, cache_dir
from satchel.trust._trust import store_path, trust

COLD_TARGET = 3.0  # satchel.load(cache=False) at most this many times the floor
WARM_TARGET = 1.0  # satchel.load() with a warm discovery cache at most the floor
SCALE_TARGET = 11.0  # 10x the skills at most this many times the time
PLUGIN_TARGET = 8.0  # with plugins: satchel.load() at most this many times its floor
VIBE_PUBLISHED = 48.0  # Vibe, published (not measured here): SkillManager + resolve()
PEER_TARGET = 20.0  # skills-ref at least this many times slower than satchel.load()
RSS_TARGET_MB = 50.0  # growth of the resident set for 10,000 skills
HEAD = 4096
AN_HOUR_AGO = time.time_ns() - 3600 * 10**9
SKILL_FILE = "SKILL.md"
DUPLICATE_EVERY = 20  # in every root after the first, one skill in 20 reuses a name
PLUGIN_SKILLS = 4  # skills inside each plugin, in its skills/ directory
NATIVE_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"

# (base, relative path): the five populated roots, in satchel's precedence order.
ROOTS = (
    ("project", ".satchel/skills"),
    ("project", ".claude/skills"),
    ("project", ".agents/skills"),
    ("home", ".claude/skills"),
    ("home", ".agents/skills"),
)

WORDS = (
    "archive", "audit", "batch", "bundle", "cache", "chart", "commit", "config",
    "deploy", "diff", "docs", "export", "fixture", "format", "graph", "import",
    "index", "invoice", "ledger", "lint", "merge", "migrate", "notebook", "parse",
    "patch", "pdf", "query", "release", "report", "schema", "search", "sheet",
    "sql", "sync", "table", "template", "ticket", "trace", "upload", "vector",
)  # fmt: skip

VERBS = ("review", "clean up", "convert", "check", "summarise", "rebuild", "compare")

FRONTMATTER = """\
---
name: {name}
description: {description}
license: Apache-2.0
compatibility: Requires Python 3.11 or later, git and a POSIX shell on the PATH
metadata:
  author: bench-team
  version: "1.{minor}"
  category: {w1}
  owner: platform-{w2}
allowed-tools: Bash(python:*) Bash(git status:*) Read Grep Glob
---
"""

# A description the satchel fast path declines (a folded block scalar), so that the
# full YAML parser runs; used only with --fallback-share.
FOLDED_DESCRIPTION = """>
  {title} helper number {i}. Use when the user asks to {verb} {w1} and {w2} files,
  inspect their structure, summarise what changed or prepare a short report."""

BODY = """
# {title}

This skill helps the agent {verb} {w1} and {w2} material in the current project. It
collects the relevant files, runs the bundled script, and reports what it found in a
short, structured summary that the user can act on without reading every file.

## When to use

- The user asks to {verb} {w1} files, or mentions {w2} data that needs attention.
- A task produced {w1} output that should be checked before it is committed.
- A teammate asked for a summary of recent {w2} changes in this repository.
- The repository holds a `{w1}/` or `{w2}/` directory and the user asks about it.

Do not use this skill for unrelated {w2} questions that need no files, for secrets,
or for anything that would send data outside the machine.

## Steps

1. Read the request and decide which {w1} files are in scope. Ask if it is unclear.
2. List the candidate files with `git ls-files` and keep only the tracked ones.
3. Run `scripts/run.py` on the files, one batch of at most fifty at a time.
4. Read the JSON the script prints. Every entry has a path, a status and a note.
5. Group the entries by status: ok, needs-review and broken.
6. For each broken entry, open the file and find the first line that is wrong.
7. Propose a fix for each broken entry, but do not apply it without approval.
8. Write the summary: counts first, then the broken entries, then the reviews.

## Example

```bash
git ls-files '*.{w1}' | head -n 50 > build/{name}.txt
python scripts/run.py --input build/{name}.txt --format json > build/{name}.json
python -m json.tool build/{name}.json | grep -c '"status": "broken"'
git status --short
```

## Notes

- The script never writes to the files it reads; it only prints to standard output.
- Large repositories may need several batches; keep the order stable between them.
- If the script exits with status 2, the input list was empty: say so and stop.
- If it exits with status 3, a file could not be decoded as UTF-8; report its path.
- Keep the summary under forty lines unless the user asks for the full listing.
- Mention skipped files by count only, so the summary stays short.

## Output format

- Start with one line of counts: how many files were ok, to review and broken.
- List broken files first, each with its path, the first bad line and a fix.
- Then list the files to review, each with a one-sentence reason.
- End with the exact command the user can run to repeat the check later.
- Never paste whole files into the summary; quote at most three lines of each.
- Use relative paths from the repository root, never absolute ones.

## Troubleshooting

When the script is missing, the skill directory was copied without its `scripts/`
folder; reinstall the skill rather than writing a replacement by hand. When the
output is empty although files exist, check that they are tracked by git, since
untracked files are skipped on purpose. When the counts look wrong, run the script
on a single file and compare its output with what the file actually contains.
"""

SCRIPT = """\
import json
import sys


def main() -> int:
    paths = [line.strip() for line in open(sys.argv[-1]) if line.strip()]
    if not paths:
        return 2
    print(json.dumps([{"path": p, "status": "ok", "note": ""} for p in paths]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
"""


# --------------------------------------------------------------------------- corpus


@dataclass
class Corpus:
    """A generated tree: the layout to load it with and what it should give."""

    project: Path
    home: Path
    layout: satchel.Layout
    dirs: list[Path] = field(default_factory=list)
    duplicates: int = 0
    folded: int = 0
    bytes_total: int = 0
    plugins: list[PluginSpec] = field(default_factory=list)
    plugin_bytes: int = 0

    @property
    def unique(self) -> int:
        return len(self.dirs) - self.duplicates

    @property
    def plugin_skills(self) -> int:
        return sum(len(p.skills) for p in self.plugins)

    @property
    def roots(self) -> list[str]:
        """Every root of the layout, existing or not, in precedence order."""
        return [str(root.path) for root in self.layout.skill_roots()]


def skill_text(name: str, i: int, *, folded: bool) -> str:
    w1, w2 = WORDS[i % len(WORDS)], WORDS[(i // len(WORDS) + 7) % len(WORDS)]
    verb = VERBS[i % len(VERBS)]
    title = f"{w1.title()} {w2}"
    if folded:
        description = FOLDED_DESCRIPTION.format(title=title, i=i, verb=verb, w1=w1, w2=w2)
    else:
        description = (
            f"{title} helper number {i}. Use when the user asks to {verb} {w1} and {w2} "
            f"files, inspect their structure, summarise what changed or prepare a short "
            f"report; not for unrelated {w2} questions."
        )
    head = FRONTMATTER.format(name=name, description=description, minor=i % 10, w1=w1, w2=w2)
    body = BODY.format(name=name, title=title, verb=verb, w1=w1, w2=w2)
    return head + body


def build_corpus(base: Path, count: int, *, fallback_share: float = 0.0) -> Corpus:
    """`count` skills over the five roots; in roots after the first, one skill in
    `DUPLICATE_EVERY` takes the name of a skill in the first root (and is shadowed)."""
    project, home = base / "project", base / "home"
    project.mkdir()
    home.mkdir()
    layout = satchel.Layout.default(project, home=home, project=project)
    trust(layout, project)  # as `satchel trust` records it: the project's plugins load
    corpus = Corpus(project, home, layout)
    per_root = [count // len(ROOTS) + (r < count % len(ROOTS)) for r in range(len(ROOTS))]
    width = max(4, len(str(count)))
    first_names: list[str] = []
    folded_every = round(1 / fallback_share) if fallback_share > 0 else 0
    i = 0
    for r, ((where, rel), n) in enumerate(zip(ROOTS, per_root, strict=True)):
        root = (project if where == "project" else home) / rel
        root.mkdir(parents=True)
        for j in range(n):
            if r > 0 and j % DUPLICATE_EVERY == 0 and first_names:
                name = first_names[(j + r) % len(first_names)]
                corpus.duplicates += 1
            else:
                w1, w2 = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
                name = f"{w1}-{w2}-{i:0{width}d}"
            if r == 0:
                first_names.append(name)
            folded = bool(folded_every) and i % folded_every == 0
            corpus.folded += folded
            text = skill_text(name, i, folded=folded)
            skill_dir = root / name
            (skill_dir / "scripts").mkdir(parents=True)
            data = text.encode()
            (skill_dir / SKILL_FILE).write_bytes(data)
            (skill_dir / "scripts" / "run.py").write_text(SCRIPT)
            os.utime(skill_dir / SKILL_FILE, ns=(AN_HOUR_AGO, AN_HOUR_AGO))
            corpus.dirs.append(skill_dir)
            corpus.bytes_total += len(data)
            i += 1
    return corpus


# ------------------------------------------------------------------- plugins corpus

PLUGIN_COMMAND = """\
---
description: Run the {w} checks of this plugin and summarise the result
argument-hint: [path]
---
Run the {w} checks on $ARGUMENTS (the whole project when empty), then list the
failures first, each with its file, line and a one-line fix.
"""

PLUGIN_AGENT = """\
---
name: {w}-reviewer
description: Reviews {w} changes for mistakes before they are committed.
tools: Read, Grep, Glob
---
You review {w} changes. Read the diff, find the mistakes, and report each one with
its file, its line and a short fix. Do not edit files.
"""

PREFIX = {"agent-plugins": "ap", "claude": "cc", "codex": "cx"}
GUARD = "#!/bin/sh\n# refuses writes to generated files\nexit 0\n"


@dataclass
class PluginSpec:
    """One generated plugin and what satchel should make of it."""

    path: Path
    format: str  # "agent-plugins", "claude" or "codex"
    name: str
    namespace: str
    skills: list[str]
    commands: int = 0
    agents: int = 0
    hooks: int = 0


def plugin_formats(count: int) -> list[str]:
    """One plugin in ten Claude Code, one in ten Codex, the rest Agent Plugins 1.0 (50:
    40 + 5 + 5). The foreign ones come first so that, dealt over the plugin roots in
    turn, they land in every root."""
    foreign = count // 10
    return ["claude"] * foreign + ["codex"] * foreign + ["agent-plugins"] * (count - 2 * foreign)


def write_json(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) + "\n")


def add_plugins(corpus: Corpus, count: int) -> None:
    """`count` plugins dealt in turn over the layout's plugin roots, each with
    `PLUGIN_SKILLS` skills in ``skills/`` (the same 3.5 KB SKILL.md as the roots')."""
    roots = [root.path for root in corpus.layout.plugin_dirs()]
    i = len(corpus.dirs)  # skill numbers continue after the roots' skills
    for k, fmt in enumerate(plugin_formats(count)):
        w = WORDS[k % len(WORDS)]
        name = f"{PREFIX[fmt]}-{w}-{k:02d}"
        path = roots[k % len(roots)] / name
        path.mkdir(parents=True)
        skills_dir = path / "skills"
        names = []
        for _ in range(PLUGIN_SKILLS):
            w1, w2 = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
            skill = f"{w1}-{w2}-{i:04d}"
            data = skill_text(skill, i, folded=False).encode()
            (skills_dir / skill / "scripts").mkdir(parents=True)
            (skills_dir / skill / SKILL_FILE).write_bytes(data)
            (skills_dir / skill / "scripts" / "run.py").write_text(SCRIPT)
            corpus.plugin_bytes += len(data)
            names.append(skill)
            i += 1
        (path / "README.md").write_text(f"# {name}\n\nA generated plugin.\n")
        spec = PluginSpec(path, fmt, name, name, names)
        about = f"{w.title()} tools for the agent: {PLUGIN_SKILLS} skills and one MCP server."
        author = {"name": "Bench Team", "email": "bench@example.com"}
        if fmt == "agent-plugins":
            spec.namespace = name.replace("-", "_")  # Vibe's derived toolNamespace
            _native_plugin(path, name, about, author, w)
        elif fmt == "claude":
            spec.commands = spec.agents = 1
            spec.hooks = 2
            _claude_plugin(path, name, about, author, w)
        else:
            _codex_plugin(path, name, about, author, w)
        corpus.plugins.append(spec)


def _native_plugin(path: Path, name: str, about: str, author: dict[str, str], w: str) -> None:
    manifest = {
        "$schema": NATIVE_SCHEMA,
        "name": name,
        "version": "1.4.0",
        "description": about,
        "author": author,
        "homepage": f"https://example.com/plugins/{name}",
        "repository": f"https://github.com/example/{name}",
        "license": "Apache-2.0",
        "keywords": [w, "bench"],
    }
    write_json(path / "plugin.json", manifest)
    server = {
        "type": "stdio",
        "command": "node",
        "args": ["${PLUGIN_ROOT}/server/index.js", "--stdio"],
        "env": {"LOG_LEVEL": "info", "DATA_DIR": "${PLUGIN_DATA}"},
    }
    write_json(path / "mcp.json", {"$schema": MCP_SCHEMA, "mcpServers": {name: server}})
    (path / "server").mkdir()
    (path / "server" / "index.js").write_text("// the MCP server (never run here)\n")


def _claude_plugin(path: Path, name: str, about: str, author: dict[str, str], w: str) -> None:
    manifest = {
        "name": name,
        "version": "2.1.0",
        "description": about,
        "author": author,
        "homepage": f"https://example.com/plugins/{name}",
        "license": "MIT",
        "keywords": [w, "bench"],
    }
    write_json(path / ".claude-plugin" / "plugin.json", manifest)
    (path / "commands").mkdir()
    (path / "commands" / f"{w}-check.md").write_text(PLUGIN_COMMAND.format(w=w))
    (path / "agents").mkdir()
    (path / "agents" / f"{w}-reviewer.md").write_text(PLUGIN_AGENT.format(w=w))
    guard = "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"
    hooks = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": guard}]}
            ],
            "SessionStart": [{"hooks": [{"type": "command", "command": "echo ready"}]}],
        }
    }
    write_json(path / "hooks" / "hooks.json", hooks)
    (path / "hooks" / "guard.sh").write_text(GUARD)
    server = {"command": "npx", "args": ["-y", f"@example/{name}-mcp"], "env": {"LOG": "info"}}
    write_json(path / ".mcp.json", {"mcpServers": {name: server}})


def _codex_plugin(path: Path, name: str, about: str, author: dict[str, str], w: str) -> None:
    manifest = {
        "name": name,
        "version": "0.9.2",
        "description": about,
        "author": author,
        "homepage": f"https://example.com/plugins/{name}",
        "license": "MIT",
        "keywords": [w, "bench"],
        "skills": "./skills/",
        "mcpServers": "./.mcp.json",
        "interface": {"displayName": w.title(), "category": "Productivity"},
    }
    write_json(path / ".codex-plugin" / "plugin.json", manifest)
    server = {"command": "uvx", "args": [f"{name}-mcp"]}
    write_json(path / ".mcp.json", {"mcpServers": {name: server}})


# ------------------------------------------------------------------------ operations


def skill_dirs(roots: list[str]) -> Iterator[str]:
    """Every directory directly under the roots (the floor lists no deeper)."""
    for root in roots:
        try:
            it = os.scandir(root)
        except FileNotFoundError:
            continue
        with it:
            yield from (entry.path for entry in it if entry.is_dir())


def heads(roots: list[str]) -> Iterator[bytes]:
    """The I/O any discovery must do: list each root, read each SKILL.md's head."""
    for directory in skill_dirs(roots):
        try:
            with open(os.path.join(directory, SKILL_FILE), "rb") as f:
                yield f.read(HEAD)
        except FileNotFoundError:
            continue


def floor(roots: list[str]) -> int:
    """The floor: the heads, read and dropped."""
    return sum(1 for _ in heads(roots))


def floor_yaml(roots: list[str]) -> int:
    """The floor, plus a line-anchored split and PyYAML's libyaml loader."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    found = 0
    for head in heads(roots):
        text = head.decode()
        end = text.find("\n---\n", 3)
        fields = yaml.load(text[4 : end + 1], Loader=loader)
        found += isinstance(fields, dict)
    return found


def stamp_each(roots: list[str]) -> Iterator[tuple[Path, str, str]]:
    """What an eager warm load must do per skill: list each root in name order, then
    for each directory in it ``lstat`` its SKILL.md and probe for a ``skill.md`` twin;
    yields (the root, the directory's name, the SKILL.md path)."""
    for root in roots:
        try:
            entries = sorted(os.scandir(root), key=lambda e: e.name)
        except FileNotFoundError:
            continue
        parent = Path(root)
        for entry in entries:
            if not entry.is_dir(follow_symlinks=False):
                continue
            file = entry.path + os.sep + SKILL_FILE
            os.lstat(file)
            os.access(entry.path + os.sep + "skill.md", os.F_OK)
            yield parent, entry.name, file


def warm_minimum(roots: list[str], kept: dict[str, tuple[object, ...]]) -> int:
    """Floor W, the least an eager warm load does: `stamp_each`, then the skill's `Path`
    and `Skill` made from what the cache kept (`kept`: SKILL.md path -> its entry, in
    memory, so no cache file is read and nothing is settled)."""
    made = 0
    for parent, name, file in stamp_each(roots):
        path = parent / name / SKILL_FILE
        made += _rebuild(kept[file], path, NO_ORIGIN)[0] is not None
    return made


def warm_syscalls(roots: list[str]) -> int:
    """Floor S: `stamp_each` alone, the system calls of floor W with no object made."""
    return sum(1 for _ in stamp_each(roots))


def cache_files_read() -> int:
    """Every file of the discovery cache read and unmarshalled, as a warm load reads
    them (the collector paused, as the cache does)."""
    where = cache_dir()
    entries = 0
    if where is None:
        return entries
    for path in sorted(where.glob("*.marshal")):
        gc.disable()
        try:
            entries += len(marshal.loads(path.read_bytes())[2])
        finally:
            gc.enable()
    return entries


def kept_entries(layout: satchel.Layout) -> dict[str, tuple[object, ...]]:
    """What the discovery cache keeps for each loaded skill, by SKILL.md path."""
    found = satchel.load(layout=layout, plugins=False)
    every = [*found.skills.values(), *(s.loser for s in found.shadowed)]
    return {str(s.path): (0, 0, 0, 0, (), *_fields(s)) for s in every}


def satchel_load(layout: satchel.Layout) -> int:
    return len(satchel.load(layout=layout).skills)


def satchel_cold(layout: satchel.Layout) -> int:
    return len(satchel.load(layout=layout, cache=False).skills)


def satchel_first(layout: satchel.Layout) -> int:
    """A first load: no cache files, so every SKILL.md is read and the cache written."""
    shutil.rmtree(os.environ["SATCHEL_CACHE_DIR"], ignore_errors=True)
    return len(satchel.load(layout=layout).skills)


def same_loads(layout: satchel.Layout) -> bool:
    """Whether a load through the warm cache gives what a load without it gives."""

    def seen(env: satchel.Environment) -> object:
        skills = [(s.to_json(), s.origin, s.stamp) for s in env.skills.values()]
        return skills, list(env.diagnostics), [(s.winner.path, s.loser.path) for s in env.shadowed]

    satchel.load(layout=layout)  # writes the cache
    return seen(satchel.load(layout=layout)) == seen(satchel.load(layout=layout, cache=False))


def skills_ref_all(roots: list[str]) -> int:
    """`skills_ref.read_properties` for every skill directory under the roots."""
    from skills_ref import read_properties

    found = 0
    for directory in skill_dirs(roots):
        read_properties(Path(directory))
        found += 1
    return found


# The plugins scenario's floor. Files at a plugin's root and one level down that some
# format defines, each read whole when the plugin's listing shows it; and the
# directories of markdown files (Claude Code's commands/ and agents/), listed with
# each file's head read.
PLUGIN_FILES = ("plugin.json", "mcp.json", ".mcp.json")
PLUGIN_NESTED = (
    (".claude-plugin", "plugin.json"),
    (".codex-plugin", "plugin.json"),
    ("hooks", "hooks.json"),
)
PLUGIN_MARKDOWN = ("commands", "agents")


@dataclass(frozen=True)
class FloorPlan:
    """Where the plugins floor looks: every root of the layout, by kind."""

    skill_roots: list[str]
    other_roots: list[str]  # the commands and agents roots (listed, empty here)
    plugin_roots: list[str]
    settings: list[str]  # the user's files read whole: the list of trusted folders

    @classmethod
    def of(cls, layout: satchel.Layout) -> FloorPlan:
        def paths(roots: tuple[satchel.Root, ...]) -> list[str]:
            return [str(root.path) for root in roots]

        return cls(
            paths(layout.skill_roots()),
            paths(layout.command_dirs()) + paths(layout.agent_dirs()),
            paths(layout.plugin_dirs()),
            [str(store_path(layout))],
        )


def _listing(path: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(path) as it:
            return list(it)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _read(path: str, size: int = -1) -> int:
    """1 when the file was read (whole, or its first `size` bytes), else 0."""
    try:
        with open(path, "rb") as f:
            f.read(size)
    except FileNotFoundError:
        return 0
    return 1


def plugin_floor(plan: FloorPlan) -> int:
    """The raw I/O of the plugins scenario: the skills floor over every skills root,
    a listing of every commands, agents and plugins root, then for each plugin
    directory a listing of it and `_plugin_io`. Returns the number of files read."""
    read = floor(plan.skill_roots) + sum(_read(path) for path in plan.settings)
    for root in plan.other_roots:
        read += len(_listing(root))
    for root in plan.plugin_roots:
        for entry in _listing(root):
            if entry.is_dir():
                read += _plugin_io(entry.path)
    return read


def _plugin_io(plugin: str) -> int:
    """One plugin: the manifests and MCP/hooks files its listing shows (read whole),
    ``skills/`` listed and each SKILL.md's head read, ``commands/`` and ``agents/``
    listed and each file's head read."""
    names = {entry.name for entry in _listing(plugin)}
    read = sum(_read(os.path.join(plugin, name)) for name in PLUGIN_FILES if name in names)
    for directory, name in PLUGIN_NESTED:
        if directory in names:
            read += _read(os.path.join(plugin, directory, name))
    if "skills" in names:
        read += floor([os.path.join(plugin, "skills")])
    for directory in PLUGIN_MARKDOWN:
        if directory in names:
            for entry in _listing(os.path.join(plugin, directory)):
                read += _read(entry.path, HEAD)
    return read


@dataclass
class Timing:
    label: str
    median: float  # seconds
    best: float


def measure(ops: list[tuple[str, Callable[[], object]]], repeat: int) -> list[Timing]:
    """Warm every operation up once, then time `repeat` rounds. A round runs each
    operation once, after a `gc.collect()`, so that a slow spell of a shared machine
    falls on all of them rather than on whichever happened to be running."""
    for _, fn in ops:
        fn()  # warm-up: imports, page cache, regex caches
    times: list[list[float]] = [[] for _ in ops]
    for _ in range(repeat):
        for (_, fn), out in zip(ops, times, strict=True):
            gc.collect()
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return [
        Timing(label, statistics.median(t), min(t))
        for (label, _), t in zip(ops, times, strict=True)
    ]


# ---------------------------------------------------------------------- sanity checks


def check_corpus(corpus: Corpus, *, with_skills_ref: bool) -> list[str]:
    """Problems with the corpus or with what satchel made of it (empty when fine)."""
    problems: list[str] = []
    env = satchel.load(layout=corpus.layout)
    if len(env.skills) != corpus.unique:
        problems.append(f"satchel loaded {len(env.skills)} skills, expected {corpus.unique}")
    if len(env.shadowed) != corpus.duplicates:
        problems.append(f"satchel shadowed {len(env.shadowed)}, expected {corpus.duplicates}")
    codes = sorted({d.code for d in env.diagnostics} - {"skill.shadowed"})
    if codes:
        problems.append(f"unexpected diagnostics: {', '.join(codes)}")
    if not with_skills_ref:
        return problems
    from skills_ref import read_properties, validate

    step = max(1, len(corpus.dirs) // 10)
    for skill_dir in corpus.dirs[::step]:
        errors = validate(skill_dir)
        if errors:
            problems.append(f"skills_ref.validate({skill_dir.name}): {errors}")
    for skill in env.skills.values():
        assert skill.path is not None
        props = read_properties(skill.path.parent)
        ours = (skill.name, skill.description.strip(), skill.license, skill.compatibility)
        theirs = (props.name, props.description, props.license, props.compatibility)
        if ours != theirs or dict(skill.metadata) != props.metadata:
            problems.append(f"satchel and skills-ref disagree on {skill.name}")
            break
        if " ".join(skill.allowed_tools) != props.allowed_tools:
            problems.append(f"satchel and skills-ref disagree on {skill.name} allowed-tools")
            break
    return problems


def check_plugins(corpus: Corpus) -> list[str]:
    """Problems with the plugins corpus or with what satchel made of it: every plugin
    loads with its format, namespace, skills, MCP server (and, for Claude Code, its
    command, agent and hooks); every plugin skill is in `Environment.skills` under
    ``<namespace>:<skill>``; no diagnostic but the planted shadowing."""
    problems: list[str] = []
    env = satchel.load(layout=corpus.layout)
    expected = corpus.unique + corpus.plugin_skills
    if len(env.skills) != expected:
        problems.append(f"satchel loaded {len(env.skills)} skills, expected {expected}")
    if len(env.shadowed) != corpus.duplicates:
        problems.append(f"satchel shadowed {len(env.shadowed)}, expected {corpus.duplicates}")
    codes = sorted({d.code for d in env.diagnostics} - {"skill.shadowed"})
    if codes:
        problems.append(f"unexpected diagnostics: {', '.join(codes)}")
    loaded = env.plugins.plugins
    if len(loaded) != len(corpus.plugins):
        problems.append(f"satchel found {len(loaded)} plugins, expected {len(corpus.plugins)}")
    for spec in corpus.plugins:
        plugin = loaded.get(spec.name)
        if plugin is None or not plugin.enabled:
            problems.append(f"plugin {spec.name} did not load")
            continue
        got = (
            plugin.format,
            plugin.namespace,
            sorted(s.name for s in plugin.skills),
            [s.transport for s in plugin.mcp_servers],
            (len(plugin.commands), len(plugin.agents), len(plugin.hooks)),
            [d.code for d in plugin.diagnostics],
        )
        want = (
            spec.format,
            spec.namespace,
            sorted(spec.skills),
            ["stdio"],
            (spec.commands, spec.agents, spec.hooks),
            [],
        )
        if got != want:
            problems.append(f"plugin {spec.name}: got {got}, expected {want}")
        missing = [s for s in spec.skills if f"{spec.namespace}:{s}" not in env.skills]
        commands = [c for c in env.commands.commands if c.startswith(f"{spec.name}:")]
        agents = [a for a in env.agents.agents if a.startswith(f"{spec.name}:")]
        if missing or (len(commands), len(agents)) != (spec.commands, spec.agents):
            problems.append(f"plugin {spec.name}: its parts are not all in the Environment")
    return problems


def audit_child(project: str, home: str) -> None:
    """Runs in a fresh interpreter: the files `satchel.load()` opens and the
    directories it lists (Python's audit events ``open`` and ``os.scandir`` /
    ``os.listdir``), and the same for `plugin_floor`, as JSON."""
    layout = satchel.Layout.default(project, home=home, project=project)
    plan = FloorPlan.of(layout)
    satchel.load(layout=layout)  # imports done before recording
    seen: dict[str, list[tuple[str, str]]] = {"satchel": [], "floor": []}
    into: list[list[tuple[str, str]]] = []

    def hook(event: str, args: tuple[object, ...]) -> None:
        # an open of a descriptor (`os.fdopen`, as the discovery cache reads) opens no
        # path: it is skipped, and raising here would fail that open
        if into and event in ("open", "os.scandir", "os.listdir") and args:
            if isinstance(args[0], int):
                return
            into[0].append((event, os.fsdecode(args[0]) if args[0] is not None else "."))

    sys.addaudithook(hook)
    into.append(seen["satchel"])
    satchel.load(layout=layout)
    into[0] = seen["floor"]
    plugin_floor(plan)
    into.clear()
    print(json.dumps(seen))


def check_floor_covers(corpus: Corpus) -> tuple[list[str], str]:
    """Whether the plugins floor opens every file and lists every directory that
    `satchel.load()` does (checked in a subprocess, so that the audit hook never
    slows the timed process); the problems, and a line saying what was compared."""
    proc = subprocess.run(
        [
            sys.executable,
            os.path.abspath(__file__),
            "--audit-child",
            str(corpus.project),
            str(corpus.home),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        return [f"the I/O audit failed: {proc.stderr.strip()[-500:]}"], ""
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    cache = os.environ.get("SATCHEL_CACHE_DIR")
    if cache:  # the discovery cache's files are satchel's own, not the corpus's
        seen = {w: [(e, p) for e, p in seen[w] if not p.startswith(cache + os.sep)] for w in seen}
    opened = {who: {p for e, p in seen[who] if e == "open"} for who in seen}
    listed = {who: {p for e, p in seen[who] if e != "open"} for who in seen}
    problems = []
    for kind, sets in (("opens", opened), ("lists", listed)):
        extra = sorted(sets["satchel"] - sets["floor"])
        if extra:
            problems.append(f"satchel {kind} {len(extra)} paths the floor does not: {extra[:3]}")
    opens = sum(1 for e, _ in seen["satchel"] if e == "open")
    line = (
        f"audit      satchel.load() opened {len(opened['satchel'])} files ({opens} opens) and "
        f"listed {len(listed['satchel'])} dirs;\n           the floor opens "
        f"{len(opened['floor'])} files and lists {len(listed['floor'])} dirs, every one of "
        "satchel's included"
    )
    return problems, line


# ---------------------------------------------------------------------------- report


def machine() -> list[str]:
    def version(dist: str) -> str:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    libyaml = "with libyaml" if getattr(yaml, "__with_libyaml__", False) else "WITHOUT libyaml"
    return [
        f"machine    {os.cpu_count()} CPUs, {platform.machine()}, {_cpu_model()}",
        f"system     {platform.system()} {platform.release()}",
        f"python     {platform.python_implementation()} {platform.python_version()}",
        f"pyyaml     {yaml.__version__} ({libyaml})",
        f"satchel    {satchel.__version__}{_commit()}; skills-ref {version('skills-ref')}",
    ]


def _commit() -> str:
    """` (commit abc1234)` when satchel runs from a git checkout, else empty."""
    repo = Path(satchel.__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return f" (commit {head}{', src modified' if dirty else ''})"


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _fs_type(path: Path) -> str:
    """The filesystem type of the mount holding `path` (Linux), else "unknown"."""
    best, kind = "", "unknown"
    try:
        with open("/proc/mounts") as f:
            for line in f:
                parts = line.split()
                if len(parts) > 2 and str(path).startswith(parts[1]) and len(parts[1]) > len(best):
                    best, kind = parts[1], parts[2]
    except OSError:
        pass
    return kind


def print_table(timings: list[Timing], skills: int) -> None:
    base = timings[0].median
    print(f"{'operation':<44}{'median ms':>10}{'min ms':>9}{'x floor':>9}{'us/skill':>10}")
    for t in timings:
        print(
            f"{t.label:<44}{t.median * 1e3:>10.1f}{t.best * 1e3:>9.1f}"
            f"{t.median / base:>8.1f}x{t.median / skills * 1e6:>10.1f}"
        )


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


# ------------------------------------------------------------------------------- RSS


def _vmrss_kib() -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _maxrss_kib() -> int:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # bytes on macOS


def rss_child(project: str, home: str, mode: str) -> None:
    """Runs in a fresh interpreter: RSS before and after load(), Environment held;
    `mode` ``cold`` loads with the cache off, ``warm`` through it."""
    layout = satchel.Layout.default(project, home=home, project=project)
    gc.collect()
    before, peak_before = _vmrss_kib(), _maxrss_kib()
    start = time.perf_counter()
    env = satchel.load(layout=layout, cache=mode == "warm")
    elapsed = time.perf_counter() - start
    gc.collect()
    after, peak_after = _vmrss_kib(), _maxrss_kib()
    result = {
        "skills": len(env.skills),
        "shadowed": len(env.shadowed),
        "load_s": elapsed,
        "vmrss_before_kib": before,
        "vmrss_after_kib": after,
        "maxrss_before_kib": peak_before,
        "maxrss_after_kib": peak_after,
    }
    print(json.dumps(result))
    del env


def run_rss(count: int) -> bool:
    """Build `count` skills, load them in a subprocess, cold then warm, print the growth."""
    print(f"\nRSS: {count} skills, satchel.load() in a fresh subprocess, Environment held")
    with tempfile.TemporaryDirectory(prefix="satchel-bench-rss-") as tmp:
        start = time.perf_counter()
        corpus = build_corpus(Path(tmp), count)
        print(
            f"  corpus     {len(corpus.dirs)} skill dirs ({corpus.unique} unique names), "
            f"{corpus.bytes_total / 2**20:.1f} MiB of SKILL.md, built in "
            f"{time.perf_counter() - start:.1f} s"
        )
        child = [sys.executable, os.path.abspath(__file__), "--rss-child"]
        procs = {}
        for mode in ("cold", "warm", "warm"):  # the first warm child writes the cache
            procs[mode] = subprocess.run(
                [*child, str(corpus.project), str(corpus.home), mode],
                capture_output=True,
                text=True,
                check=False,
            )
    ok = True
    for mode, proc in procs.items():
        print(f"  {mode}:")
        ok = _rss_report(proc) and ok
    return ok


def _rss_report(proc: subprocess.CompletedProcess[str]) -> bool:
    if proc.returncode != 0:
        print(proc.stderr)
        print("  RSS measurement failed")
        return False
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    if r["vmrss_before_kib"] is not None:
        grown_kib = r["vmrss_after_kib"] - r["vmrss_before_kib"]
        source = "VmRSS"
    else:
        grown_kib = r["maxrss_after_kib"] - r["maxrss_before_kib"]
        source = "ru_maxrss"
    print(
        f"  loaded     {r['skills']} skills ({r['shadowed']} shadowed) in "
        f"{r['load_s'] * 1e3:.0f} ms"
    )
    if r["vmrss_before_kib"] is not None:
        print(
            f"  VmRSS      {r['vmrss_before_kib'] / 1024:.1f} MiB before, "
            f"{r['vmrss_after_kib'] / 1024:.1f} MiB after"
        )
    start_kib = r["vmrss_before_kib"] or r["maxrss_before_kib"]
    if r["maxrss_after_kib"] > r["maxrss_before_kib"]:
        print(
            f"  peak RSS   {r['maxrss_after_kib'] / 1024:.1f} MiB (ru_maxrss), reached during "
            f"load(): {max(0, r['maxrss_after_kib'] - start_kib) / 1024:.1f} MiB above the start"
        )
    else:
        print("  peak RSS   load() did not raise the process's high-water mark (ru_maxrss)")
    growth_mb = grown_kib * 1024 / 1e6  # the target is in decimal megabytes
    ok = growth_mb <= RSS_TARGET_MB
    print(
        f"  growth     {growth_mb:.1f} MB = {grown_kib / 1024:.1f} MiB ({source}), "
        f"{grown_kib * 1024 / max(1, r['skills']):.0f} bytes per skill held; "
        f"target <= {RSS_TARGET_MB:.0f} MB: {verdict(ok)}"
    )
    return ok


# ----------------------------------------------------------------------------- main


def profile_load(
    layout: satchel.Layout, repeat: int, title: str = "", *, cache: bool = True
) -> None:
    satchel.load(layout=layout, cache=cache)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeat):
        satchel.load(layout=layout, cache=cache)
    profiler.disable()
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(25)
        print(f"\ncProfile of satchel.load(){title} x{repeat}, by {order}:")
        print(out.getvalue())


def run_timings(args: argparse.Namespace) -> bool:
    with_ref = not args.no_skills_ref
    if with_ref:
        try:
            import skills_ref  # noqa: F401
        except ImportError:
            print("skills-ref is not installed (pip install -e '.[bench]'); skipping it")
            with_ref = False
    with tempfile.TemporaryDirectory(prefix="satchel-bench-") as tmp:
        start = time.perf_counter()
        corpus = build_corpus(Path(tmp), args.skills, fallback_share=args.fallback_share)
        built = time.perf_counter() - start
        n = len(corpus.dirs)
        print(
            f"corpus     {n} skill dirs over {len(ROOTS)} roots ({n // len(ROOTS)} per root), "
            f"{corpus.duplicates} shadowed duplicates, {corpus.unique} unique names"
        )
        print(
            f"           SKILL.md {corpus.bytes_total / max(1, n):.0f} bytes on average, "
            f"{corpus.folded} with a folded description; built in {built:.1f} s on "
            f"{_fs_type(Path(tmp))}"
        )
        problems = check_corpus(corpus, with_skills_ref=with_ref)
        for problem in problems:
            print(f"CORPUS PROBLEM: {problem}")
        if problems:
            return False
        if not same_loads(corpus.layout):
            print("CORPUS PROBLEM: a load through the cache differs from one without it")
            return False
        agreed = "; skills-ref agrees on every loaded skill" if with_ref else ""
        print(
            f"checked    satchel loaded what the corpus holds{agreed}; a warm load equals a "
            f"cold one; K={args.repeat}\n"
        )

        roots, kept = corpus.roots, kept_entries(corpus.layout)
        ops: list[tuple[str, Callable[[], object]]] = [
            ("floor: scandir + read 4 KiB", lambda: floor(roots)),
            ("floor + PyYAML CSafeLoader (context)", lambda: floor_yaml(roots)),
            ("load(cache=False): cold", lambda: satchel_cold(corpus.layout)),
            ("load(): warm cache", lambda: satchel_load(corpus.layout)),
            ("load(): first, writes the cache (context)", lambda: satchel_first(corpus.layout)),
            ("floor W: stat, probe, Path, Skill (context)", lambda: warm_minimum(roots, kept)),
            ("floor S: stat and probe only (context)", lambda: warm_syscalls(roots)),
            ("the cache files read (context)", cache_files_read),
        ]
        if with_ref:
            ops.append((f"skills_ref.read_properties x{n}", lambda: skills_ref_all(roots)))
        timings = measure(ops, args.repeat)
        print_table(timings, n)
        base, ours, warm = timings[0].median, timings[2].median, timings[3].median
        cold_ok, warm_ok = ours / base <= COLD_TARGET, warm / base <= WARM_TARGET
        ok = cold_ok and warm_ok
        print(
            f"\ntarget     load(cache=False) <= {COLD_TARGET:.0f}x floor: "
            f"{ours / base:.2f}x  {verdict(cold_ok)}"
        )
        print(
            f"target     load() warm <= {WARM_TARGET:.1f}x floor: "
            f"{warm / base:.2f}x  {verdict(warm_ok)}"
        )
        least = timings[5].median
        print(
            f"context    floor W / floor: {least / base:.2f}x: what an eager warm load "
            f"cannot skip; the warm load is {warm / least:.2f}x floor W"
        )
        fixed = timings[6].median + timings[7].median
        left = max(0.0, base - fixed) / n * 1e6
        print(
            f"context    floor S + the cache files read / floor: {fixed / base:.2f}x: the "
            f"system calls and the cache, before any object; a 1.0x warm load leaves "
            f"{left:.1f} us per skill for everything else (the warm load spends "
            f"{max(0.0, warm - fixed) / n * 1e6:.1f})"
        )
        if with_ref:
            ratio = timings[8].median / ours
            peer_ok = ratio >= PEER_TARGET
            ok = ok and peer_ok
            print(
                f"target     skills-ref / satchel >= {PEER_TARGET:.0f}x: "
                f"{ratio:.1f}x  {verdict(peer_ok)}"
            )
        if args.profile:
            profile_load(corpus.layout, args.repeat, " cold", cache=False)
            profile_load(corpus.layout, args.repeat, " warm")
    return ok


def run_scale(args: argparse.Namespace) -> bool:
    """Cold and warm loads of `args.skills` and of `args.scale` times as many skills,
    in the same rounds."""
    big = args.skills * args.scale
    print(f"\nSCALE: {args.skills} and {big} skills, cold and warm loads in the same rounds")
    with tempfile.TemporaryDirectory(prefix="satchel-bench-scale-") as tmp:
        Path(tmp, "small").mkdir()
        Path(tmp, "big").mkdir()
        small_c = build_corpus(Path(tmp, "small"), args.skills)
        big_c = build_corpus(Path(tmp, "big"), big)
        ops: list[tuple[str, Callable[[], object]]] = [
            (f"floor, {args.skills}", lambda: floor(small_c.roots)),
            (f"floor, {big}", lambda: floor(big_c.roots)),
            (f"load(cache=False), {args.skills}", lambda: satchel_cold(small_c.layout)),
            (f"load(cache=False), {big}", lambda: satchel_cold(big_c.layout)),
            (f"load() warm, {args.skills}", lambda: satchel_load(small_c.layout)),
            (f"load() warm, {big}", lambda: satchel_load(big_c.layout)),
        ]
        timings = measure(ops, max(1, min(args.repeat, 3)))
    print_table(timings, args.skills)
    ok = True
    for name, i in (("floor", 0), ("cold", 2), ("warm", 4)):
        ratio = timings[i + 1].median / timings[i].median
        passed = name == "floor" or ratio <= SCALE_TARGET
        ok = ok and passed
        target = "(context)" if name == "floor" else f"<= {SCALE_TARGET:.0f}x: {verdict(passed)}"
        print(f"scale      {name}: {big} skills cost {ratio:.2f}x {args.skills} {target}")
    return ok


def run_plugin_timings(args: argparse.Namespace) -> bool:
    """The plugins scenario: the skills corpus plus `args.plugins` plugins, timed
    against its own floor (see `plugin_floor`)."""
    print(f"\nPLUGINS: {args.skills} skills in roots plus {args.plugins} plugins")
    with tempfile.TemporaryDirectory(prefix="satchel-bench-plugins-") as tmp:
        start = time.perf_counter()
        corpus = build_corpus(Path(tmp), args.skills)
        add_plugins(corpus, args.plugins)
        built = time.perf_counter() - start
        kinds = {fmt: sum(p.format == fmt for p in corpus.plugins) for fmt in PREFIX}
        roots = corpus.layout.plugin_dirs()
        print(
            f"corpus     {len(corpus.dirs)} skill dirs over {len(ROOTS)} roots "
            f"({corpus.duplicates} shadowed) + {len(corpus.plugins)} plugins over "
            f"{len(roots)} plugin roots:\n"
            f"           {kinds['agent-plugins']} Agent Plugins (plugin.json, mcp.json), "
            f"{kinds['claude']} Claude Code (plugin.json, a command,\n"
            f"           an agent, hooks.json, .mcp.json), {kinds['codex']} Codex "
            f"(plugin.json, .mcp.json); {PLUGIN_SKILLS} skills in\n"
            f"           each plugin = {corpus.plugin_skills} plugin skills; built in "
            f"{built:.1f} s"
        )
        problems = check_plugins(corpus)
        audit_problems, audit = check_floor_covers(corpus)
        problems += audit_problems
        for problem in problems:
            print(f"CORPUS PROBLEM: {problem}")
        if problems:
            return False
        total = corpus.unique + corpus.plugin_skills
        print(
            f"checked    all {len(corpus.plugins)} plugins load with every part; {total} "
            f"skills; no diagnostic but {corpus.duplicates} skill.shadowed"
        )
        print(f"{audit}; K={args.repeat}\n")

        from satchel.plugins import load_plugins

        plan = FloorPlan.of(corpus.layout)
        skills_only = corpus.roots + [str(p.path / "skills") for p in corpus.plugins]
        layout = corpus.layout
        ops: list[tuple[str, Callable[[], object]]] = [
            ("floor: every root, plugin dir and file read", lambda: plugin_floor(plan)),
            ("floor B: SKILL.md heads only (context)", lambda: floor(skills_only)),
            ("satchel.load(layout=..., cache=False)", lambda: satchel_cold(layout)),
            (
                "  load(plugins=False, cache=False) (context)",
                lambda: satchel.load(layout=layout, plugins=False, cache=False),
            ),
            ("  plugins.load_plugins(layout) (context)", lambda: load_plugins(layout)),
        ]
        timings = measure(ops, args.repeat)
        print_table(timings, len(corpus.dirs) + corpus.plugin_skills)
        base, floor_b, ours = timings[0].median, timings[1].median, timings[2].median
        ok = ours / base <= PLUGIN_TARGET
        print(
            f"\ntarget     satchel.load() <= {PLUGIN_TARGET:.0f}x floor (plugins): "
            f"{ours / base:.2f}x  {verdict(ok)}"
        )
        print(
            f"context    satchel.load() / floor B: {ours / floor_b:.1f}x; Mistral Vibe: "
            f"~{VIBE_PUBLISHED:.0f}x floor B (published, not measured here)"
        )
        if args.profile:
            profile_load(layout, args.repeat, " with plugins", cache=False)
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skills", type=int, default=1000, help="skills to time (1000)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per operation (7)")
    parser.add_argument("--rss", action="store_true", help="only the RSS measurement")
    parser.add_argument("--no-rss", action="store_true", help="skip the RSS measurement")
    parser.add_argument("--rss-skills", type=int, default=10_000, help="skills for RSS (10000)")
    parser.add_argument("--no-skills-ref", action="store_true", help="do not time skills-ref")
    parser.add_argument(
        "--fallback-share",
        type=float,
        default=0.0,
        help="share of skills whose frontmatter needs the full YAML parser (0.0-1.0)",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile satchel.load()")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--plugins", type=int, default=50, help="plugins in the plugins scenario (50; 0: skip it)"
    )
    parser.add_argument(
        "--scale", type=int, default=10, help="the scaling scenario's factor (10; 0: skip it)"
    )
    parser.add_argument("--rss-child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--audit-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss_child:
        rss_child(*args.rss_child)
        return 0
    if args.audit_child:
        audit_child(*args.audit_child)
        return 0
    if args.skills < len(ROOTS) or args.repeat < 1 or not 0.0 <= args.fallback_share <= 1.0:
        parser.error("need --skills >= 5, --repeat >= 1 and 0 <= --fallback-share <= 1")
    if args.plugins < 0:
        parser.error("need --plugins >= 0")
    print("\n".join(machine()))
    with tempfile.TemporaryDirectory(prefix="satchel-bench-cache-") as cache:
        os.environ["SATCHEL_CACHE_DIR"] = cache  # never the user's cache
        os.environ.pop("SATCHEL_CACHE", None)
        ok = True
        if not args.rss:
            print()
            ok = run_timings(args)
            if args.scale:
                ok = run_scale(args) and ok
            if args.plugins:
                ok = run_plugin_timings(args) and ok
        if not args.no_rss:
            ok = run_rss(args.rss_skills) and ok
    return 1 if args.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())

"""What every format adapter shares: reading a manifest, keeping paths inside the
plugin root, and reading skills, commands and agents from a plugin's files.

Containment (Agent Plugins 1.0 §4): every file or directory read from a plugin must
resolve, after symlinks, inside the resolved plugin root; links that stay inside are
fine. A path the plugin declares (`entry`) is plugin-relative: ``./x`` or plain
``x``; an absolute path or one with a ``..`` segment is refused before it is looked
at (``plugin.path.outside_root``, that entry dropped), and so is one whose real path
leaves the root. A fixed component location (`fixed`) that leaves the root makes
that component type invalid; the rest of the plugin loads.

Plugin skills, commands and agents are read by the skills, commands and agents
packages: skills have scope ``plugin`` and the plugin's name as their family;
commands are named ``<namespace>:<name>``; agents ``<namespace>:<name>``. A plugin
agent that fails is ``plugin.agent.invalid`` (the agents package's ``agent.invalid``
with its message kept). Nothing here runs anything.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel._files import FileProblem, read_bounded
from satchel.agents import AgentType, parse_agent, scan_agent_dir
from satchel.agents.read import read_agent_file
from satchel.commands import Command, read_command, scan_commands
from satchel.diagnostics import Diagnostic, diagnostic, type_name
from satchel.layout import PLUGIN, Root
from satchel.plugins.mcp import parse_claude_mcp, parse_server_tables
from satchel.plugins.model import McpServer
from satchel.skills.fields import FieldRules
from satchel.skills.model import Skill
from satchel.skills.read import SKILL_FILE, read_skill

__all__ = [
    "MAX_MANIFEST",
    "Ctx",
    "Fatal",
    "contained",
    "foreign_servers",
    "listed_or_default",
    "load_agents",
    "load_commands",
    "load_skill_dir",
    "load_skill_paths",
    "load_skills",
    "plugin_name",
    "unique_servers",
    "read_json",
    "read_manifest",
    "real_root",
]

MAX_MANIFEST = 1024 * 1024
SKIP = frozenset((".git", "node_modules"))
NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}\Z")
# skill diagnostics that mean the name is not the spec's name for its directory
_NAME_CODES = frozenset(
    ("skill.name.missing", "skill.name.invalid", "skill.name.mismatch", "skill.name.too-long")
)
Kind = Literal["hooks", "mcp", "agents"]
_UNSUPPORTED: Mapping[Kind, tuple[str, str]] = MappingProxyType(
    {
        "hooks": ("plugin.hooks.unsupported", "plugin hooks recognised but not executed"),
        "mcp": ("plugin.mcp.unsupported", "plugin MCP component recognised but not loaded"),
        "agents": ("plugin.agents.unsupported", "plugin agents recognised but not loaded"),
    }
)


class Fatal(Exception):  # a value carried out of a manifest check, not a bug
    """A problem that drops the whole plugin."""

    def __init__(self, found: Diagnostic) -> None:
        super().__init__(found.message)
        self.diagnostic = found


def fatal(code: str, message: str, path: Path | None, *, hint: str | None = None) -> Fatal:
    return Fatal(diagnostic(code, message, path, hint=hint, severity="error"))


@dataclass(slots=True)
class Ctx:
    """One plugin being read: its resolved root, name, namespace and options, and
    the diagnostics of its parts so far."""

    root: Path
    dir_name: str = ""  # the directory's name as given (before symlinks)
    name: str = ""
    namespace: str = ""
    executable: bool = True
    diags: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def of(cls, root: Path, *, executable: bool) -> Ctx:
        given = Path(os.path.abspath(root))
        return cls(real_root(given), given.name, executable=executable)

    def add(self, code: str, message: str, path: Path | None, **kw: Any) -> None:
        self.diags.append(diagnostic(code, message, path, **kw))

    def rel(self, path: Path) -> str:
        """`path` as the plugin names it, for messages."""
        try:
            return path.relative_to(self.root).as_posix() or "."
        except ValueError:
            return str(path)

    def fixed(self, relative: str) -> Path | None:
        """A fixed component location when it exists and stays inside the root; None
        when it is missing, or (reported) when it leads out."""
        path = self.root / relative
        if not os.path.lexists(path):
            return None
        if contained(path, self.root):
            return path
        message = f"{relative} resolves outside the plugin root; it is not loaded"
        self.add("plugin.path.outside_root", message, path, severity="warning")
        return None

    def entry(self, value: Any, where: str, path: Path | None) -> Path | None:
        """A path the plugin declares (`where` names the field, `path` the file that
        declares it): the contained path, or None (reported)."""
        if not isinstance(value, str) or not value.strip():
            got = repr(value) if isinstance(value, str) else type_name(value)
            message = f"{where} must be a plugin-relative path, not {got}; it is ignored"
            self.add("plugin.manifest.invalid", message, path, severity="warning")
            return None
        parts = value.replace("\\", "/").split("/")
        if value.startswith(("/", "\\")) or ".." in parts or (len(value) > 1 and value[1] == ":"):
            message = f"{where} {value!r} leaves the plugin root (absolute or ..); it is ignored"
            self.add("plugin.path.outside_root", message, path, severity="warning")
            return None
        target = self.root.joinpath(*[p for p in parts if p not in ("", ".")])
        if not contained(target, self.root):
            message = f"{where} {value!r} resolves outside the plugin root; it is ignored"
            self.add("plugin.path.outside_root", message, path, severity="warning")
            return None
        return target

    def unsupported(self, kind: Kind, paths: Sequence[Path]) -> None:
        """Declarative-only mode: one diagnostic naming where the component is."""
        if not paths:
            return
        code, what = _UNSUPPORTED[kind]
        where = ", ".join(self.rel(p) for p in paths)
        message = f"{what} by a declarative-only client: {where}"
        self.add(code, message, paths[0])


def plugin_name(value: Any, dir_name: str, path: Path) -> str:
    """A foreign plugin's name: `value` when given and not empty, else the directory
    name; either must be 1-64 of ``a-z 0-9 - _ .`` starting with a letter or digit
    (so ``<name>:<command>`` can be typed), else `Fatal` ``plugin.manifest.invalid``."""
    name = dir_name if value is None or value == "" else value
    if not isinstance(name, str) or not NAME.match(name):
        origin = "the directory name" if value in (None, "") else "the name"
        shown = repr(name) if isinstance(name, str) else type_name(name)
        raise fatal(
            "plugin.manifest.invalid",
            f"{origin} {shown} cannot name a plugin: 1-64 of a-z, 0-9, '-', '_', '.', "
            "starting with a letter or digit",
            path,
        )
    return name


def real_root(root: Path) -> Path:
    return Path(os.path.realpath(root))


def contained(path: Path, root: Path) -> bool:
    """Whether `path` resolves (after symlinks) inside `root`, a resolved directory.

    A path spelled below `root` whose components (below the root) hold no symlink is
    inside as it stands: only those components are looked at (one ``lstat`` each,
    where resolving the whole path would look at every component from ``/``)."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return _resolves_inside(path, root)
    here = root
    for part in parts:
        if part in ("..", "."):
            return _resolves_inside(path, root)
        here = here / part
        try:
            mode = os.lstat(here).st_mode
        except FileNotFoundError:
            return True  # nothing there (yet): as spelled, it is inside
        except (OSError, ValueError):
            return _resolves_inside(path, root)
        if stat.S_ISLNK(mode):
            return _resolves_inside(path, root)
    return True


def _resolves_inside(path: Path, root: Path) -> bool:
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return False
    top = str(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def read_json(path: Path, cap: int = MAX_MANIFEST) -> tuple[Any, str | None]:
    """The JSON value in the file at `path`, or (None, why not)."""
    try:
        data = read_bounded(path, cap)
    except FileProblem as e:
        return None, f"cannot read it: {e.message}"
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None, "it is not valid UTF-8"
    try:
        return json.loads(text), None
    except ValueError as e:
        return None, f"it is not valid JSON: {e}"
    except RecursionError:
        return None, "the JSON nests too deep to read"


def is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def listdir(ctx: Ctx, directory: Path, code: str) -> list[os.DirEntry[str]]:
    """The entries of `directory` in name order ([] and `code` when it cannot be
    listed)."""
    try:
        with os.scandir(directory) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as e:
        message = f"cannot list {ctx.rel(directory)}: {e.strerror or e}"
        ctx.add(code, message, directory, severity="warning")
        return []


def read_manifest(
    ctx: Ctx, path: Path, label: str, problem_of: Callable[[str, Any], str | None]
) -> dict[str, Any]:
    """A foreign JSON manifest, which must exist, resolve inside the root and hold an
    object whose known fields have their types (`problem_of(key, value)`)."""
    if not os.path.lexists(path):
        raise fatal("plugin.manifest.invalid", f"no {label}", path)
    if not contained(path, ctx.root):
        raise fatal("plugin.path.outside_root", f"{label} resolves outside the root", path)
    value, problem = read_json(path)
    if problem is not None:
        raise fatal("plugin.manifest.invalid", f"{label}: {problem}", path)
    if not isinstance(value, dict):
        message = f"{label} must hold a JSON object, not {type_name(value)}"
        raise fatal("plugin.manifest.invalid", message, path)
    for key, item in value.items():
        found = problem_of(key, item)
        if found is not None:
            raise fatal("plugin.manifest.invalid", f"`{key}` must be {found}", path)
    return value


def listed_or_default(
    ctx: Ctx, manifest: Mapping[str, Any], key: str, default: str, path: Path
) -> list[Path]:
    """The contained paths a field lists, or the default location when the field is
    absent."""
    if key not in manifest:
        fixed = ctx.fixed(default)
        return [] if fixed is None else [fixed]
    value = manifest[key]
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    found = [ctx.entry(v, f"`{key}`", path) for v in values]
    return [p for p in found if p is not None]


# -- skills ------------------------------------------------------------------------


def load_skills(ctx: Ctx, directory: Path, *, match_dir: bool) -> list[Skill]:
    """The skills in the immediate child directories of `directory` that hold a
    SKILL.md (no deeper search). `directory` being something other than a
    directory makes the component invalid (reported); the rest loads."""
    if not is_dir(directory):
        message = f"{ctx.rel(directory)} is not a directory, so no skills load from it"
        ctx.add("plugin.skill.invalid", message, directory)
        return []
    skills: list[Skill] = []
    for entry in listdir(ctx, directory, "plugin.skill.invalid"):
        if entry.name in SKIP or not is_dir(Path(entry.path)):
            continue
        skill = load_skill_dir(ctx, Path(entry.path), match_dir=match_dir, quiet=True)
        if skill is not None:
            skills.append(skill)
    return skills


def load_skill_paths(ctx: Ctx, paths: Iterable[Path], *, match_dir: bool = False) -> list[Skill]:
    """Declared skill paths: one holding SKILL.md is a skill, any other directory a
    skills root. The same real directory is read once."""
    skills: list[Skill] = []
    seen: set[str] = set()
    for path in paths:
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        if is_dir(path) and not os.path.lexists(path / SKILL_FILE):
            skills += load_skills(ctx, path, match_dir=match_dir)
            continue
        skill = load_skill_dir(ctx, path, match_dir=match_dir)
        if skill is not None:
            skills.append(skill)
    return skills


def load_skill_dir(
    ctx: Ctx, skill_dir: Path, *, match_dir: bool, quiet: bool = False, name: str | None = None
) -> Skill | None:
    """The skill in `skill_dir` (its SKILL.md must be a regular file resolving inside
    the plugin root). With `match_dir`, its name must equal the directory name
    (seed 003), else ``plugin.skill.invalid``. `quiet`: a directory without
    SKILL.md is passed over silently. `name` stands in for the directory name."""
    path = skill_dir / SKILL_FILE
    if not os.path.lexists(path):
        if not quiet:
            ctx.add("plugin.skill.invalid", f"no {SKILL_FILE} in {ctx.rel(skill_dir)}", skill_dir)
        return None
    if not contained(path, ctx.root):
        message = f"{SKILL_FILE} must resolve inside the plugin root; the skill is skipped"
        ctx.add("plugin.skill.invalid", message, path)
        return None
    if not is_file(path):
        ctx.add("plugin.skill.invalid", f"{SKILL_FILE} is not a regular file", path)
        return None
    return _read_skill(ctx, path, name or skill_dir.name, match_dir, stand_in=name is not None)


def _read_skill(
    ctx: Ctx, path: Path, dir_name: str, match_dir: bool, *, stand_in: bool = False
) -> Skill | None:
    # a SKILL.md linked elsewhere inside the root is read where it really is
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    read = read_skill(target, FieldRules(), scope=PLUGIN, family=ctx.name, dir_name=dir_name)
    if read is None:
        ctx.add("plugin.skill.invalid", f"{SKILL_FILE} vanished while it was read", path)
        return None
    skill, diags = read
    if stand_in:  # a root SKILL.md: its directory is the plugin's, not the skill's
        diags = [d for d in diags if d.code != "skill.name.mismatch"]
    ctx.diags.extend(diags)
    if skill is None:
        why = next((d.message for d in diags if d.severity == "error"), "it did not parse")
        ctx.add("plugin.skill.invalid", f"the skill is skipped: {why}", path)
        return None
    if match_dir and (skill.name != dir_name or any(d.code in _NAME_CODES for d in diags)):
        message = (
            f"the skill's name must be given and equal its directory name {dir_name!r} "
            f"(got {skill.name!r}); the skill is skipped"
        )
        ctx.add("plugin.skill.invalid", message, path)
        return None
    return skill


# -- commands ----------------------------------------------------------------------


def load_commands(ctx: Ctx, paths: Iterable[Path]) -> list[Command]:
    """Commands from directories (``**/*.md``, walked by the commands package) and
    single ``.md`` files, named ``<namespace>:<name>``."""
    commands: list[Command] = []
    for path in paths:
        if is_dir(path):
            scan = scan_commands(Root(path, PLUGIN, ctx.name), plugin=ctx.namespace)
            ctx.diags.extend(scan.diagnostics)
            commands += scan.commands
            continue
        command = load_command_file(ctx, path)
        if command is not None:
            commands.append(command)
    return commands


def load_command_file(ctx: Ctx, path: Path) -> Command | None:
    command, diags = read_command(
        path, scope=PLUGIN, family=ctx.name, plugin=ctx.namespace, inside=ctx.root
    )
    ctx.diags.extend(diags)
    return command


# -- agents ------------------------------------------------------------------------


def load_agents(ctx: Ctx, paths: Iterable[Path], *, recursive: bool = True) -> list[AgentType]:
    """Agent types from directories (Claude Code ``.md`` and Vibe ``.toml`` files)
    and single files, named ``<namespace>:<name>``."""
    agents: list[AgentType] = []
    for path in paths:
        if is_dir(path):
            scan = scan_agent_dir(
                path,
                scope=PLUGIN,
                family=ctx.name,
                namespace=ctx.namespace,
                plugin=ctx.name,
                recursive=recursive,
            )
            ctx.diags.extend(skipped_agents(as_plugin_agent(scan.diagnostics), scan.agents))
            agents += scan.agents
            continue
        agent = load_agent_file(ctx, path)
        if agent is not None:
            agents.append(agent)
    return agents


def load_agent_file(ctx: Ctx, path: Path) -> AgentType | None:
    data, diags = read_agent_file(path, contain=ctx.root)
    ctx.diags.extend(as_plugin_agent(diags))
    if data is None:
        return None
    agent, diags = parse_agent(
        data, path, scope=PLUGIN, family=ctx.name, namespace=ctx.namespace, plugin=ctx.name
    )
    ctx.diags.extend(skipped_agents(as_plugin_agent(diags), [] if agent is None else [agent]))
    return agent


def as_plugin_agent(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The agents package's ``agent.invalid`` is a plugin's ``plugin.agent.invalid``
    (seed 003), with its message kept."""
    return [
        replace(d, code="plugin.agent.invalid", severity="warning")
        if d.code == "agent.invalid"
        else d
        for d in diags
    ]


def skipped_agents(diags: list[Diagnostic], loaded: Sequence[AgentType]) -> list[Diagnostic]:
    """`diags`, plus one ``plugin.agent.invalid`` for each file that an error kept from
    loading without saying so in that code (a YAML error, an unreadable file...)."""
    loaded_paths = {a.path for a in loaded}
    said = {d.path for d in diags if d.code == "plugin.agent.invalid"}
    out = list(diags)
    for d in diags:
        if d.severity == "error" and d.path not in loaded_paths and d.path not in said:
            said.add(d.path)
            message = f"the agent is skipped: {d.message}"
            out.append(diagnostic("plugin.agent.invalid", message, d.path))
    return out


def frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


def foreign_servers(
    ctx: Ctx, files: Sequence[Path], inline: Mapping[str, Any] | None, manifest: Path
) -> tuple[McpServer, ...]:
    """A foreign plugin's MCP servers: Claude-shaped ``.mcp.json`` files, then an
    inline object of the manifest. Declarative-only: none, and one diagnostic."""
    if not ctx.executable:
        ctx.unsupported("mcp", [*files, *([manifest] if inline is not None else [])])
        return ()
    results = [parse_claude_mcp(file, ctx.root, ctx.name) for file in files]
    if inline is not None:
        tables = parse_server_tables(inline, root=ctx.root, plugin=ctx.name, path=manifest)
        results.append(tables)
    return tuple(unique_servers(ctx, results))


def unique_servers(
    ctx: Ctx, results: Iterable[tuple[tuple[McpServer, ...], list[Diagnostic]]]
) -> list[McpServer]:
    """The servers of several sources in order; a name declared again is dropped
    (the first wins, ``plugin.mcp.invalid``)."""
    servers: list[McpServer] = []
    first: dict[str, McpServer] = {}
    for found, diags in results:
        ctx.diags.extend(diags)
        for server in found:
            if server.name in first:
                where = first[server.name].path
                message = (
                    f"MCP server {server.name!r} is declared again; the one in {where} is kept"
                )
                ctx.add("plugin.mcp.invalid", message, server.path)
                continue
            first[server.name] = server
            servers.append(server)
    return servers

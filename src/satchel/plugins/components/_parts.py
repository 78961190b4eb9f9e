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

Skill ids (`SkillRule`): under Claude Code's rule (``claude-code``, the default) a
format that names skills by directory (`load_skills(by_dir=True)`) gives a skill of a
skills root the name of its directory, whatever its frontmatter says (a differing
``name`` is a ``skill.name.mismatch`` warning); Vibe's rule (``vibe``) skips a skill
whose name is not its directory's (``plugin.skill.invalid``), in every format.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypeVar

from satchel._contain import is_inside, real_below, real_path, str_list, unique_keys, walk
from satchel._files import FileProblem, read_bounded
from satchel._json import loads
from satchel.agents import AgentType, parse_agent, scan_agent_dir
from satchel.agents._read import read_agent_file
from satchel.commands import Command, read_command, scan_commands
from satchel.diagnostics import Diagnostic, diagnostic, type_name
from satchel.layout import PLUGIN, Root
from satchel.mcp._parse import parse_claude_mcp, parse_server_tables
from satchel.plugins._model import Format, McpServer, Plugin
from satchel.skills._bare import read_bare_skill
from satchel.skills._fields import FieldRules
from satchel.skills._model import Skill
from satchel.skills._read import SKILL_FILE, read_skill

__all__ = [
    "MAX_MANIFEST",
    "SKILL_RULES",
    "Ctx",
    "Fatal",
    "Loader",
    "adapter",
    "check_inside",
    "contained",
    "foreign_servers",
    "listed_or_default",
    "load_agents",
    "load_commands",
    "load_skill_dir",
    "load_skill_paths",
    "load_skills",
    "manifest_object",
    "manifest_servers",
    "plugin_name",
    "root_skill",
    "SkillRule",
    "skills_problem",
    "unique_servers",
    "read_json",
    "read_manifest",
    "resolve_root",
]

MAX_MANIFEST = 1024 * 1024
SKIP = frozenset((".git", "node_modules"))
NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}\Z")
# skill diagnostics that mean the name is not the spec's name for its directory
_NAME_CODES = frozenset(
    ("skill.name.missing", "skill.name.invalid", "skill.name.mismatch", "skill.name.too-long")
)
_RULES = FieldRules()  # plugin skills are judged leniently, as the client's own
Kind = Literal["hooks", "mcp", "agents"]
SkillRule = Literal["claude-code", "vibe"]
SKILL_RULES: tuple[SkillRule, ...] = ("claude-code", "vibe")
T = TypeVar("T")
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
    skill_rule: SkillRule = "claude-code"
    diags: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        root: Path,
        *,
        executable: bool,
        real_root: Path | None = None,
        skill_rule: SkillRule = "claude-code",
    ) -> Ctx:
        """The plugin at `root`; `real_root`: `root` already resolved, when the caller
        has it."""
        given = Path(os.path.abspath(root))
        real = resolve_root(given) if real_root is None else real_root
        return cls(real, given.name, executable=executable, skill_rule=skill_rule)

    def add(self, code: str, message: str, path: Path | None, **kw: Any) -> None:
        self.diags.append(diagnostic(code, message, path, **kw))

    def keep(self, result: tuple[Iterable[T], Iterable[Diagnostic]]) -> tuple[T, ...]:
        """What a component parser found; its diagnostics join the plugin's."""
        found, diags = result
        self.diags.extend(diags)
        return tuple(found)

    def plugin(
        self, fmt: Format, scope: str, manifest: Mapping[str, Any] | None = None, **parts: Any
    ) -> Plugin:
        """The plugin read so far: its name, root and diagnostics, the version and
        description of `manifest`, and `parts`."""
        if manifest is not None:
            parts["manifest"] = frozen(manifest)
            parts["version"] = manifest.get("version")
            parts["description"] = manifest.get("description")
        return Plugin(
            name=self.name,
            root=self.root,
            format=fmt,
            namespace=self.namespace,
            scope=scope,
            diagnostics=tuple(self.diags),
            **parts,
        )

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
        state, _ = walk(path, self.root)
        if state == "missing" or (state == "linked" and not os.path.lexists(path)):
            return None
        if state == "clean" or _resolves_inside(path, self.root):
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

    def listed(self, manifest: Mapping[str, Any], key: str, path: Path) -> list[Path]:
        """The contained paths a manifest field names, one path or a list of them
        (refused entries reported)."""
        value = manifest.get(key)
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        found = [self.entry(v, f"`{key}`", path) for v in values]
        return [p for p in found if p is not None]

    def runs(self, kind: Kind, paths: Sequence[Path]) -> bool:
        """Whether components of `kind` are read: not by a declarative-only client,
        which only notes where they are (one diagnostic, when there are any)."""
        if self.executable:
            return True
        if paths:
            code, what = _UNSUPPORTED[kind]
            where = ", ".join(self.rel(p) for p in paths)
            self.add(code, f"{what} by a declarative-only client: {where}", paths[0])
        return False


Result = tuple[Plugin | None, list[Diagnostic]]
Loader = Callable[..., Result]


def adapter(read: Callable[[Ctx, str, bool], Plugin]) -> Loader:
    """A format adapter, ``load(root, *, scope, strict, executable, real_root,
    skill_rule)``, from `read(ctx, scope, strict)`, which reads the plugin into `ctx`
    or raises `Fatal`: the plugin and its diagnostics, or None and the diagnostics so
    far with the fatal one last. `real_root` is `root` resolved, when the caller has
    it (so that a plugin root is resolved once). `read`'s docstring is the adapter's."""

    def load(
        root: Path,
        *,
        scope: str = "",
        strict: bool = False,
        executable: bool = True,
        real_root: Path | None = None,
        skill_rule: SkillRule = "claude-code",
    ) -> Result:
        ctx = Ctx.of(root, executable=executable, real_root=real_root, skill_rule=skill_rule)
        try:
            plugin = read(ctx, scope, strict)
        except Fatal as f:
            return None, [*ctx.diags, f.diagnostic]
        return plugin, ctx.diags

    load.__doc__ = read.__doc__
    return load


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


def resolve_root(root: Path) -> Path:
    """A plugin root with every symlink resolved (once per plugin read)."""
    return Path(os.path.realpath(root))


def contained(path: Path, root: Path) -> bool:
    """Whether `path` resolves (after symlinks) inside `root`, a resolved directory.

    A path spelled below `root` whose components (below the root) hold no symlink is
    inside as it stands, and so is one whose first missing component comes before any
    symlink: only those components are looked at (`walk`); any other is resolved."""
    return walk(path, root)[0] != "linked" or _resolves_inside(path, root)


def _resolves_inside(path: Path, root: Path) -> bool:
    real = real_path(path)
    return real is not None and is_inside(real, root)


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
        return loads(text, object_pairs_hook=unique_keys), None  # no key twice (M01)
    except ValueError as e:  # nesting past the limit too
        return None, f"it is not valid JSON: {e}"


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


def skills_problem(key: str, value: Any) -> str | None:
    """What the name, version, description, keywords or skills field of a Codex or
    Kimi manifest must be, when `value` is not that."""
    if key in ("name", "version", "description") and not isinstance(value, str):
        return f"a string, not {type_name(value)}"
    if key == "keywords" and not str_list(value):
        return "an array of strings"
    if key == "skills" and not (isinstance(value, str) or str_list(value)):
        return f"a path or a list of paths, not {type_name(value)}"
    return None


def check_inside(ctx: Ctx, path: Path, label: str) -> None:
    """A manifest resolving outside the root is fatal."""
    if not contained(path, ctx.root):
        raise fatal("plugin.path.outside_root", f"{label} resolves outside the root", path)


def manifest_object(ctx: Ctx, path: Path, label: str) -> dict[str, Any]:
    """The JSON object in the manifest `path` (named `label`), which must resolve
    inside the root; anything else is fatal."""
    check_inside(ctx, path, label)
    value, problem = read_json(path)
    if problem is not None:
        raise fatal("plugin.manifest.invalid", f"{label}: {problem}", path)
    if not isinstance(value, dict):
        message = f"{label} must hold a JSON object, not {type_name(value)}"
        raise fatal("plugin.manifest.invalid", message, path)
    return value


def read_manifest(
    ctx: Ctx,
    path: Path,
    label: str,
    problem_of: Callable[[str, Any], str | None],
    *,
    optional: bool = False,
) -> dict[str, Any]:
    """A foreign JSON manifest, which must exist (`optional`: else it is {}), resolve
    inside the root and hold an object whose known fields have their types
    (`problem_of(key, value)`)."""
    if not os.path.lexists(path):
        if optional:
            return {}
        raise fatal("plugin.manifest.invalid", f"no {label}", path)
    value = manifest_object(ctx, path, label)
    for key, item in value.items():
        found = problem_of(key, item)
        if found is not None:
            raise fatal("plugin.manifest.invalid", f"`{key}` must be {found}", path)
    return value


def listed_or_default(
    ctx: Ctx, manifest: Mapping[str, Any], key: str, default: str | None, path: Path
) -> list[Path]:
    """The contained paths a field lists, or the default location (if any) when the
    field is absent."""
    if key in manifest:
        return ctx.listed(manifest, key, path)
    fixed = None if default is None else ctx.fixed(default)
    return [] if fixed is None else [fixed]


# -- skills ------------------------------------------------------------------------


def load_skills(ctx: Ctx, directory: Path, *, match_dir: bool, by_dir: bool = False) -> list[Skill]:
    """The skills in the immediate child directories of `directory` that hold a
    SKILL.md (no deeper search). `directory` being something other than a
    directory makes the component invalid (reported); the rest loads. `by_dir`:
    each is named after its directory (Claude Code's rule)."""
    state, mode = walk(directory, ctx.root)
    real = state == "clean"  # then `directory` is a real path, and so is a plain child
    if not (stat.S_ISDIR(mode) if real else is_dir(directory)):
        message = f"{ctx.rel(directory)} is not a directory, so no skills load from it"
        ctx.add("plugin.skill.invalid", message, directory)
        return []
    skills: list[Skill] = []
    for entry in listdir(ctx, directory, "plugin.skill.invalid"):
        if entry.name in SKIP:
            continue
        plain = _plain_dir(entry) if real else None
        skill_dir = Path(entry.path)
        if plain is False or (plain is None and not is_dir(skill_dir)):
            continue
        skill = load_skill_dir(
            ctx, skill_dir, match_dir=match_dir, quiet=True, real=bool(plain), by_dir=by_dir
        )
        if skill is not None:
            skills.append(skill)
    return skills


def _plain_dir(entry: os.DirEntry[str]) -> bool | None:
    """Whether a listed entry that is not a symlink is a directory (from the listing,
    most often without a look at the disk); None for a symlink, or when unsure."""
    try:
        return None if entry.is_symlink() else entry.is_dir(follow_symlinks=False)
    except OSError:
        return None


def load_skill_paths(
    ctx: Ctx, paths: Iterable[Path], *, match_dir: bool = False, by_dir: bool = False
) -> list[Skill]:
    """Declared skill paths: one holding SKILL.md is a skill (named by its
    frontmatter, as Claude Code names a listed skill directory), any other directory a
    skills root (`by_dir`: its skills are named after their directories). The same
    real directory is read once."""
    unique: dict[str, Path] = {}
    for path in paths:
        unique.setdefault(str(real_below(path, ctx.root) or path), path)
    return _each_path(
        unique.values(),
        lambda path: not os.path.lexists(path / SKILL_FILE),
        lambda path: load_skills(ctx, path, match_dir=match_dir, by_dir=by_dir),
        lambda path: load_skill_dir(ctx, path, match_dir=match_dir),
    )


def root_skill(ctx: Ctx) -> list[Skill]:
    """A root SKILL.md as the plugin's one skill, named after the plugin."""
    if not os.path.lexists(ctx.root / SKILL_FILE):
        return []
    skill = load_skill_dir(ctx, ctx.root, match_dir=False, name=ctx.name)
    return [] if skill is None else [skill]


def _each_path(
    paths: Iterable[Path],
    scans: Callable[[Path], bool],
    scan: Callable[[Path], list[T]],
    read: Callable[[Path], T | None],
) -> list[T]:
    """What `paths` hold, in order: `scan` of a directory (that `scans`), else `read`
    of the one thing at the path."""
    found: list[T] = []
    for path in paths:
        if is_dir(path) and scans(path):
            found += scan(path)
            continue
        one = read(path)
        if one is not None:
            found.append(one)
    return found


def load_skill_dir(
    ctx: Ctx,
    skill_dir: Path,
    *,
    match_dir: bool,
    quiet: bool = False,
    name: str | None = None,
    real: bool = False,
    by_dir: bool = False,
) -> Skill | None:
    """The skill in `skill_dir` (its SKILL.md must be a regular file resolving inside
    the plugin root). With `match_dir` (or Vibe's `SkillRule`), its name must equal
    the directory name (Vibe), else ``plugin.skill.invalid``; with `by_dir` the
    directory name is its name. `quiet`: a directory without SKILL.md is passed over
    silently. `name` stands in for the directory name. `real`: `skill_dir` is a real
    path inside the root, so only SKILL.md is looked at."""
    path = skill_dir / SKILL_FILE
    state, mode = walk(path, skill_dir if real else ctx.root)
    linked = state == "linked"
    if state == "missing" or (linked and not os.path.lexists(path)):
        if not quiet:
            ctx.add("plugin.skill.invalid", f"no {SKILL_FILE} in {ctx.rel(skill_dir)}", skill_dir)
        return None
    if linked and not _resolves_inside(path, ctx.root):
        message = f"{SKILL_FILE} must resolve inside the plugin root; the skill is skipped"
        ctx.add("plugin.skill.invalid", message, path)
        return None
    if not (is_file(path) if linked else stat.S_ISREG(mode)):
        ctx.add("plugin.skill.invalid", f"{SKILL_FILE} is not a regular file", path)
        return None
    # a SKILL.md linked elsewhere inside the root is read where it really is
    target = Path(os.path.realpath(path)) if linked and path.is_symlink() else path
    dir_name = name or skill_dir.name
    match_dir = match_dir or ctx.skill_rule == "vibe"
    by_dir = by_dir and not match_dir
    skill = _read_skill(
        ctx, path, target, dir_name, match_dir, stand_in=name is not None, by_dir=by_dir
    )
    return skill if skill is None or not by_dir else replace(skill, name=dir_name)


def _named_by_dir(ctx: Ctx, found: Diagnostic, dir_name: str) -> Diagnostic:
    """A ``skill.name.mismatch`` said again for a skill named by its directory."""
    if found.code != "skill.name.mismatch":
        return found
    message = (
        f"{found.message}; the skill is {ctx.namespace}:{dir_name}, named by its directory "
        "as Claude Code names it"
    )
    return replace(found, message=message, hint=f"set name: {dir_name}")


def _read_skill(
    ctx: Ctx,
    path: Path,
    target: Path,
    dir_name: str,
    match_dir: bool,
    *,
    stand_in: bool,
    by_dir: bool = False,
) -> Skill | None:
    read = read_skill(target, _RULES, scope=PLUGIN, family=ctx.name, dir_name=dir_name)
    if read is None:
        ctx.add("plugin.skill.invalid", f"{SKILL_FILE} vanished while it was read", path)
        return None
    skill, diags = read
    if skill is None and by_dir and _no_frontmatter(diags):  # Claude Code loads it anyway
        skill, diags = read_bare_skill(
            target, _RULES, dir_name=dir_name, scope=PLUGIN, family=ctx.name
        )
    if stand_in:  # a root SKILL.md: its directory is the plugin's, not the skill's
        diags = [d for d in diags if d.code != "skill.name.mismatch"]
    if by_dir:
        diags = [_named_by_dir(ctx, d, dir_name) for d in diags]
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


def _no_frontmatter(diags: Sequence[Diagnostic]) -> bool:
    """Whether the only error is a SKILL.md with no frontmatter at all."""
    return [d.code for d in diags if d.severity == "error"] == ["frontmatter.missing"]


# -- commands ----------------------------------------------------------------------


def load_commands(ctx: Ctx, paths: Iterable[Path], *, file_names: bool = False) -> list[Command]:
    """Commands from directories (``**/*.md``, walked by the commands package) and
    single ``.md`` files, named ``<namespace>:<name>``. `file_names` (Claude Code's
    rule): the name is the file's path under the directory joined by ``:``
    (``content/draft.md`` is ``<namespace>:content:draft``), a frontmatter ``name``
    is not read."""

    def scan(path: Path) -> list[Command]:
        root = Root(path, PLUGIN, ctx.name)
        found = scan_commands(root, plugin=ctx.namespace, file_names=file_names)
        ctx.diags.extend(found.diagnostics)
        return list(found.commands)

    def one(path: Path) -> Command | None:
        return load_command_file(ctx, path, file_names=file_names)

    return _each_path(paths, _always, scan, one)


def load_command_file(ctx: Ctx, path: Path, *, file_names: bool = False) -> Command | None:
    command, diags = read_command(
        path,
        scope=PLUGIN,
        family=ctx.name,
        plugin=ctx.namespace,
        inside=ctx.root,
        file_names=file_names,
    )
    ctx.diags.extend(diags)
    return command


# -- agents ------------------------------------------------------------------------


def load_agents(
    ctx: Ctx, paths: Iterable[Path], *, recursive: bool = True, nested_names: bool = False
) -> list[AgentType]:
    """Agent types from directories (Claude Code ``.md`` and Vibe ``.toml`` files)
    and single files, named ``<namespace>:<name>``. `nested_names` (Claude Code's
    rule): an agent in a subdirectory of a directory has the subdirectories in its
    name (``agents/review/deep.md`` named ``deep`` is ``<namespace>:review:deep``)."""

    def scan(path: Path) -> list[AgentType]:
        found = scan_agent_dir(
            path,
            scope=PLUGIN,
            family=ctx.name,
            namespace=ctx.namespace,
            plugin=ctx.name,
            recursive=recursive,
        )
        ctx.diags.extend(skipped_agents(as_plugin_agent(found.diagnostics), found.agents))
        if not nested_names:
            return list(found.agents)
        return [_nested_name(ctx, agent, path) for agent in found.agents]

    return _each_path(paths, _always, scan, lambda path: load_agent_file(ctx, path))


def _nested_name(ctx: Ctx, agent: AgentType, directory: Path) -> AgentType:
    """`agent` (found under `directory`) with the subdirectories it sits in named:
    ``<namespace>:<dir>:...:<name>``."""
    try:
        groups = agent.path.parent.relative_to(directory).parts if agent.path else ()
    except ValueError:
        return agent
    if not groups:
        return agent
    bare = agent.name.removeprefix(f"{ctx.namespace}:")
    return replace(agent, name=":".join((ctx.namespace, *groups, bare)))


def _always(_: Path) -> bool:
    return True


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
    (Vibe), with its message kept."""
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
    ctx: Ctx,
    files: Sequence[Path],
    inline: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    manifest: Path,
) -> tuple[McpServer, ...]:
    """A foreign plugin's MCP servers: Claude-shaped ``.mcp.json`` files, then the
    manifest's inline objects (one or a list). Declarative-only: none, and one
    diagnostic."""
    objects = [] if inline is None else [inline] if isinstance(inline, Mapping) else inline
    if not ctx.runs("mcp", [*files, *([manifest] if objects else [])]):
        return ()
    results = [parse_claude_mcp(file, ctx.root, ctx.name, resolved=True) for file in files]
    for table in objects:
        results.append(
            parse_server_tables(table, root=ctx.root, plugin=ctx.name, path=manifest, resolved=True)
        )
    return tuple(unique_servers(ctx, results))


def manifest_servers(
    ctx: Ctx, manifest: Mapping[str, Any], path: Path, default: str | None
) -> tuple[McpServer, ...]:
    """The servers a foreign manifest's ``mcpServers`` gives: an inline object, or the
    ``.mcp.json``-shaped files it lists (`default` when it is absent)."""
    value = manifest.get("mcpServers")
    if isinstance(value, dict):
        return foreign_servers(ctx, [], value, path)
    files = listed_or_default(ctx, manifest, "mcpServers", default, path)
    return foreign_servers(ctx, files, None, path)


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

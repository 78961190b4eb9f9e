"""Links between host folders: the symlinks that let one set of skills, commands,
agents or instructions serve several hosts (``.claude/skills -> ../.agents/skills``,
``CLAUDE.md -> AGENTS.md``), when they are broken, loop, lead out of the project (or,
for the user's folders, out of the home), or were committed as plain files (git
writes a symlink as a small file holding its target's path when it cannot make
links: ``core.symlinks=false``, Windows checkouts).

The folders are each host's own: its root tables (`Host.skills`, `commands`,
`agents`) and its instruction rule's files. A link anywhere on the way from the
project (or the home) to such a folder counts (``.claude -> .agents`` serves
``.claude/skills``). One finding per host that reads the path, so that each host's
report says what it loses; a link one host reads for several kinds is named once,
with every kind. A symlink inside a skills folder is the load's own
(``skill.read.error``). Read-only: links are read with `os.readlink` and
`os.path.realpath`; only a small regular file inside the root is opened.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from satchel.core._model import model
from satchel.core.layout import Layout
from satchel.foundations._host_files import expand
from satchel.foundations._host_settings import read_host_settings
from satchel.hosts._lookup import host_instruction_rule
from satchel.kinds._instructions import gemini_context_names
from satchel.kinds._instructions._hosts import CONTEXT, user_folder
from satchel.reports.checkup._finding import HostFinding
from satchel.reports.checkup._machine import HostView, Machine

__all__ = ["failing_links", "link_findings"]

PLAIN_MAX = 1024  # bytes: a path git wrote in place of a link is shorter
OUTSIDE = "hosts.link.outside"  # read by the host: not a failing link


@model
class Place:
    """A path a host reads (`path`), the `kind` of thing it reads there (``skills``),
    and the root it belongs to (`root`: the project or the home; `word` names it)."""

    path: Path
    kind: str
    root: Path
    word: str


@model
class Link:
    """A problem with `path` (a link or a plain file): `code`, what it holds (`text`)
    and, for a link leading out, where it leads (`where`)."""

    path: Path
    code: str
    text: str
    root: str
    where: str = ""


def link_findings(machine: Machine) -> Iterator[HostFinding]:
    """For each host, each link on the way to its folders that fails it, once per
    link with every kind the host reads through it."""
    for view in machine.views:
        for link, kinds in _failing(view).items():
            yield _finding(machine, view, link, kinds)


def failing_links(view: HostView) -> frozenset[Path]:
    """The links and plain files that fail `view`'s host: the base check leaves out
    the load's own word on a path at or below one of them (``cannot read CLAUDE.md: a
    symlink loop``), which this check says with its cause."""
    return frozenset(link.path for link in _failing(view) if link.code != OUTSIDE)


def _failing(view: HostView) -> dict[Link, list[str]]:
    kinds: dict[Link, list[str]] = {}
    for place in _places(view, view.env.layout):
        for link, kind in _problems(place):
            read = kinds.setdefault(link, [])
            if kind not in read:
                read.append(kind)
    return kinds


def _problems(place: Place) -> Iterator[tuple[Link, str]]:
    """The first link or plain file on the way from `place.root` to `place.path` that
    fails (a failing link hides what is behind it)."""
    if not place.path.is_relative_to(place.root) or place.path == place.root:
        return
    step = place.root
    for part in place.path.relative_to(place.root).parts:
        step = step / part
        found = _link(step, place) if os.path.islink(step) else _plain(step, place)
        if found is not None:
            yield found, place.kind
            return
        if not os.path.isdir(step):
            return


def _link(path: Path, place: Place) -> Link | None:
    try:
        text = os.readlink(path)
    except OSError:  # gone or unreadable since it was seen: nothing to say
        return None
    target = Path(os.path.realpath(path))
    if os.path.islink(target):  # realpath stops where the links loop
        return Link(path, "hosts.link.loop", text, place.word)
    if not os.path.exists(target):  # broken wherever it leads: the host reads nothing
        return Link(path, "hosts.link.broken", text, place.word)
    if not target.is_relative_to(Path(os.path.realpath(place.root))):
        return Link(path, OUTSIDE, text, place.word, str(target))
    return None


def _plain(path: Path, place: Place) -> Link | None:
    """`path` when it is a small regular file whose whole text is a relative path to
    something that exists inside the root, as git writes a link it could not make."""
    try:
        if not path.is_file() or path.stat().st_size > PLAIN_MAX:
            return None
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text or text != text.strip() or "\n" in text or "\0" in text:
        return None
    if os.path.isabs(text) or ":" in text or "\\" in text:
        return None
    target = Path(os.path.normpath(path.parent / text))
    if not target.is_relative_to(place.root) or target == path:
        return None
    if not os.path.lexists(target):
        return None
    return Link(path, "hosts.link.plain-file", text, place.word)


def _finding(machine: Machine, view: HostView, link: Link, kinds: list[str]) -> HostFinding:
    title, shown = view.host.title, machine.shown(link.path)
    what = _words(kinds)
    root = link.root
    if link.code == "hosts.link.plain-file":
        message = (
            f"{shown} is a plain file holding the path {link.text}, as git writes a "
            f"symlink it could not make: {title} reads no {what} through it"
        )
        fix = (
            f"make it a symlink again (ln -sfn {link.text} {shown}) and clone with "
            "core.symlinks=true (on Windows: Developer Mode)"
        )
    elif link.code == OUTSIDE:
        message = (
            f"{shown} -> {link.text} leads outside the {root}, to {link.where}: {title} "
            f"reads {what} from there, which the {root} alone does not hold"
        )
        fix = f"point it at a folder inside the {root}, or copy what it needs into the {root}"
    elif link.code == "hosts.link.loop":
        message = f"{shown} -> {link.text}: the links loop, so {title} reads no {what} through it"
        fix = "point the link at a real folder or file"
    else:
        message = (
            f"{shown} -> {link.text}: its target does not exist, so {title} reads no "
            f"{what} through it"
        )
        fix = "create the target, or point the link at the folder or file that holds them"
    return HostFinding.new(view.name, link.code, message, fix, link.path)


def _words(kinds: list[str]) -> str:
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]


def _places(view: HostView, layout: Layout) -> Iterator[Place]:
    """Every folder and instruction file `view`'s host reads, with its root."""
    host = view.host
    for kind, table in (
        ("skills", host.skills),
        ("commands", host.commands),
        ("agents", host.agents),
    ):
        for row in table:
            path = _expand(row.template, layout)
            if path is not None:
                yield from _rooted(path, kind, layout)
    yield from _instruction_places(view, layout)


def _instruction_places(view: HostView, layout: Layout) -> Iterator[Place]:
    """The instruction files of the host's rule, in the user's folder and the
    project's (``{context}``: each name the host's settings give, as its load reads)."""
    rule = host_instruction_rule(view.host)
    if rule is None:
        return
    context = _context_names(view)
    for folder, sources in ((user_folder(layout, rule), rule.user), (layout.project, rule.project)):
        if folder is None:
            continue
        for source in sources:
            for name in context if source.path == CONTEXT else (source.path,):
                if "{" in name:
                    continue
                path = layout.home / name[2:] if name.startswith("~/") else folder / name
                yield from _rooted(path, "instructions", layout)


def _context_names(view: HostView) -> tuple[str, ...]:
    """The names ``{context}`` stands for: the host's settings', read as its load reads
    them (``GEMINI.md`` alone when they set none)."""
    settings, env = view.env.options.host_settings, view.env
    if settings is None:
        return gemini_context_names(None)
    read, _ = read_host_settings(settings, env.layout, trust_project=env.trust.load_project)
    return gemini_context_names(read.context_names)


def _rooted(path: Path, kind: str, layout: Layout) -> Iterator[Place]:
    """`path` with the root it belongs to: the project's first, then the home's."""
    for root, word in ((layout.project, "project"), (layout.home, "home")):
        if path.is_relative_to(root):
            yield Place(path, kind, root, word)
            return


def _expand(template: str, layout: Layout) -> Path | None:
    """A root template under `layout` (``~/`` is the home; None: a placeholder this
    check does not know)."""
    if not template:
        return None
    if template.startswith("~/"):
        template = "{home}/" + template[2:]
    path = expand(template, {**layout.values(), "client": layout.client})
    return None if "{" in path else Path(path)

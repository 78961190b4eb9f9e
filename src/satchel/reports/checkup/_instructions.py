"""The project's instruction files a host cuts or does not read because of its size
cap, and where.

A host whose instruction rule caps the project's files together
(`satchel.hosts.InstructionRule.max_total`: Codex's ``project_doc_max_bytes``, 32 KiB
unless its config says otherwise) reads them root first and cuts the one that passes
the cap; the ones after it are not read. The files each host reads are its load's
(`InstructionFile.truncated` marks the one cut); this check says where the cut falls
(the byte offset and the line) and what is lost: ``hosts.instructions.cut`` for the
file cut, ``hosts.instructions.unread`` for each file past the cap. Bytes are counted
as they are on disk, a BOM and CRLF line ends included: Codex cuts the raw file. A host
with no cap (Claude Code, Gemini CLI) gives none.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from satchel.core._files import FileProblem, read_bounded
from satchel.core._model import model
from satchel.foundations._host_state import dotted, host_config, instruction_settings
from satchel.hosts._instructions import InstructionRule
from satchel.hosts._lookup import instruction_rule
from satchel.kinds._instructions import InstructionFile
from satchel.kinds._instructions._load import MAX_FILE, unread_after
from satchel.reports.checkup._finding import HostFinding
from satchel.reports.checkup._machine import HostView, Machine

__all__ = ["capped", "instruction_findings"]

FIX_CUT = "move what matters most to the first files, shorten the files the host reads first"
FIX_UNREAD = "shorten the instruction files read before it, or fold what it says into them"


@model
class Cap:
    """A host's cap on the project's instruction files: its `bytes`, the setting that
    sets it (`key`, None: the host has none) and the file it is set in (`where`, None:
    the host's default), the config file a user would set it in (`config`), and the
    file names the host's config adds to its own (`fallback`)."""

    bytes: int
    key: str | None = None
    where: Path | None = None
    config: Path | None = None
    fallback: tuple[str, ...] = ()

    def said(self, machine: Machine) -> str:
        """``a 32,768-byte cap (project_doc_max_bytes, by default)``."""
        if self.key is None:
            return f"a {self.bytes:,}-byte cap"
        place = "by default" if self.where is None else f"in {machine.shown(self.where)}"
        return f"a {self.bytes:,}-byte cap ({self.key}, {place})"

    def raise_it(self, machine: Machine) -> str:
        """The fix's tail: where to raise the cap (empty when the host has no setting)."""
        if self.key is None:
            return ""
        config = self.where or self.config
        where = f" in {machine.shown(config)}" if config is not None else ""
        return f", or raise {self.key}{where} (now {self.bytes:,})"

    def zero(self, machine: Machine, title: str) -> str:
        """The fix for a cap of 0: set it above 0, or drop it for the host's default."""
        if self.key is None:
            return f"{title} reads no project instruction file"
        config = self.where or self.config
        where = f" in {machine.shown(config)}" if config is not None else ""
        return f"set {self.key}{where} above 0, or remove it for {title}'s default"


def capped(view: HostView) -> bool:
    """Whether `view`'s host caps the project's instruction files (its load's
    ``instructions.truncated`` diagnostics are this check's findings)."""
    return _rule(view) is not None


def instruction_findings(machine: Machine) -> Iterator[HostFinding]:
    """For each host with a cap on the project's instruction files: the file it cuts
    and the files it does not read."""
    for view in machine.views:
        rule = _rule(view)
        if rule is None or rule.max_total is None:
            continue
        cap = _cap(view, rule.max_total)
        project = [f for f in view.env.instructions if f.scope == "project"]
        used = sum(_size(f) for f in project)
        cut = next((f for f in project if f.truncated), None)
        if cut is None and used < cap.bytes:
            continue
        if cut is not None:
            yield _cut(view, machine, cut, cap, used)
        last = cut or (project[-1] if project else None)
        after = None if last is None else last.path.parent
        for path in unread_after(view.env.layout, rule, after, fallback_names=cap.fallback):
            yield _unread(view, machine, path, cap, last)


def _rule(view: HostView) -> InstructionRule | None:
    mode = view.host.instructions
    rule = view.host.instruction_rule or (None if mode is None else instruction_rule(mode))
    return rule if rule is not None and rule.max_total is not None else None


def _cap(view: HostView, default: int) -> Cap:
    """The cap `view`'s host applies: `default` (its rule's) unless its config sets
    one, with the file names its config adds (read as the host's load reads them)."""
    state = view.env.options.host_state
    if state is None:
        return Cap(default)
    config = host_config(view.env.layout, state, trust_project=view.env.trust.load_project)
    found = instruction_settings(state, config)
    key, size = state.doc_max_bytes, found.get("max_total", default)
    where = None
    if key is not None and "max_total" in found:
        where = next(p for p, doc in reversed(config.layers()) if dotted(doc, key) is not None)
    names = found.get("fallback_names", ())
    return Cap(size, key, where, config.user_path, tuple(names))


def _raw(path: Path, project: Path) -> bytes | None:
    """The file's bytes as on disk, as the host's cap counts them (a BOM and CRLF line
    ends included), or None when it cannot be read or lies outside the `project` (a
    link out of it is not followed)."""
    root = os.path.realpath(project)
    if os.path.commonpath([root, os.path.realpath(path)]) != root:
        return None
    try:
        return read_bounded(path, MAX_FILE)
    except FileProblem:
        return None


def _lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def _size(file: InstructionFile) -> int:
    return len(file.text.encode("utf-8")) if file.size is None else file.size


def _cut(
    view: HostView, machine: Machine, cut: InstructionFile, cap: Cap, used: int
) -> HostFinding:
    kept = _size(cut)
    whole = _raw(cut.path, view.env.layout.project)
    line = (cut.text.count("\n") if whole is None else whole.count(b"\n", 0, kept)) + 1
    before = used - kept
    shown = machine.shown(cut.path)
    message = (
        f"{view.host.title} cuts {shown} at byte {kept:,}, in line {line}: the project's "
        f"instruction files share {cap.said(machine)} and the files before it take "
        f"{before:,} bytes"
    )
    if whole is not None:
        size = len(whole)
        message += (
            f"; {size - kept:,} of its {size:,} bytes are lost "
            f"(from line {line} to line {_lines(whole)})"
        )
    fix = FIX_CUT + cap.raise_it(machine)
    return HostFinding.new(view.name, "hosts.instructions.cut", message, fix, cut.path, line=line)


def _unread(
    view: HostView, machine: Machine, path: Path, cap: Cap, last: InstructionFile | None
) -> HostFinding:
    shown = machine.shown(path)
    reached = "" if last is None else f" at {machine.shown(last.path)}"
    message = (
        f"{view.host.title} does not read {shown}: the project's instruction files "
        f"reached {cap.said(machine)}{reached}"
    )
    fix = FIX_UNREAD + cap.raise_it(machine)
    if cap.bytes == 0:  # no file is read before it: the cap alone keeps it out
        message = (
            f"{view.host.title} does not read {shown}: with {cap.said(machine)} it reads "
            "none of the project's instruction files"
        )
        fix = cap.zero(machine, view.host.title)
    whole = _raw(path, view.env.layout.project)
    if whole is not None:
        message += f"; its {len(whole):,} bytes ({_lines(whole)} lines) are lost"
    return HostFinding.new(view.name, "hosts.instructions.unread", message, fix, path)

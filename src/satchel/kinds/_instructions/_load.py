"""`load_instructions` (a mode by name) and `instruction_segments`: see the package."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import get_args

from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import Layout
from satchel.foundations._segments import ContextSegment
from satchel.hosts._instructions import InstructionRule, InstructionSource, Reader
from satchel.hosts._lookup import instruction_rule
from satchel.hosts._vocabulary import InstructionMode
from satchel.kinds._instructions._classic import agents_else_claude, first_file, later_files
from satchel.kinds._instructions._hosts import CONTEXT, GEMINI, every_file, plain_name, walk_dirs
from satchel.kinds._instructions._model import InstructionFile
from satchel.kinds._instructions._read import Loader

MAX_FILE = 256 * 1024
MAX_TOTAL = 32 * 1024
SEGMENT_ID = "agent.instructions"


def load_instructions(
    layout: Layout,
    *,
    mode: InstructionMode | InstructionRule = "satchel",
    max_file: int = MAX_FILE,
    max_total: int | None = None,
    trust_project: bool = True,
    context_names: Sequence[str] = (GEMINI,),
    fallback_names: Sequence[str] = (),
) -> tuple[tuple[InstructionFile, ...], tuple[Diagnostic, ...]]:
    """The instruction files for `layout` as the rule `mode` names says (its host's
    `InstructionRule`; or a rule of one's own, given as it is), in prompt order (a
    later file wins), and what was wrong.
    `max_total` caps the project files where the rule has a cap (codex; None: the
    rule's own, `InstructionRule.max_total`);
    `context_names` are the names ``{context}`` stands for (Gemini's
    ``context.fileName``, see `gemini_context_names`); `fallback_names` the files read,
    after the rule's own, in a project folder that holds none of those (Codex's
    ``project_doc_fallback_filenames``; a name that is not a plain file name is
    ignored). Never raises for a bad file; see the module docstring."""
    rule = mode if isinstance(mode, InstructionRule) else instruction_rule(mode)
    if rule is None:
        modes = ", ".join(get_args(InstructionMode))
        raise ValueError(f"mode must be one of {modes}, not {mode!r}")
    rule = _with_fallback(rule, fallback_names)
    names = tuple(context_names)
    if _names_files(rule) and (not names or not all(plain_name(n) for n in names)):
        raise ValueError(f"context_names must be plain file names, not {names!r}")
    loader = Loader(layout, max_file)
    cap = max_total if max_total is not None else rule.max_total or MAX_TOTAL
    READERS[rule.reader](loader, rule, trust_project, names, cap)
    return tuple(loader.files), tuple(loader.diags)


def unread_after(
    layout: Layout,
    rule: InstructionRule,
    after: Path | None,
    *,
    fallback_names: Sequence[str] = (),
    context_names: Sequence[str] = (GEMINI,),
) -> tuple[Path, ...]:
    """The project files `rule` would read in the folders of its walk past `after`
    (the folder of the last file it read; None: every folder), the first of its files
    in each (`fallback_names` as `load_instructions` takes them): those a cap reached
    before them leaves unread. Nothing is read: only whether the files are there."""
    rule = _with_fallback(rule, fallback_names)
    loader = Loader(layout, MAX_FILE)
    dirs = walk_dirs(loader, rule)
    if after is not None:
        dirs = dirs[dirs.index(after) + 1 :] if after in dirs else []
    return tuple(later_files(loader, rule, dirs, tuple(context_names)))


Read = Callable[[Loader, InstructionRule, bool, Sequence[str], int], None]
READERS: dict[Reader, Read] = {
    "every-file": every_file,
    "first-file": first_file,
    "agents-else-claude": agents_else_claude,
}
"""Each `Reader` word of a rule, the function that reads as it says."""


def _with_fallback(rule: InstructionRule, names: Sequence[str]) -> InstructionRule:
    """`rule` with `names` read after its own project files, as AGENTS.md is."""
    own = {s.path for s in rule.project}
    extra = tuple(InstructionSource(n, "agents") for n in names if plain_name(n) and n not in own)
    return dataclasses.replace(rule, project=(*rule.project, *extra)) if extra else rule


def _names_files(rule: InstructionRule) -> bool:
    """Whether `rule` reads the context file names."""
    return any(s.path == CONTEXT for s in (*rule.user, *(s for p in rule.passes for s in p)))


def instruction_segments(files: Iterable[InstructionFile]) -> tuple[ContextSegment, ...]:
    """One ``build`` segment per always-on file, in the files' order (a conditional
    file is attached by the runtime when it applies: `applies_to`)."""
    return tuple(
        ContextSegment(
            f"{SEGMENT_ID}.{f.scope}:{f.label}",
            "instruction",
            "build",
            f"Instructions from {f.label}:\n{f.text.lstrip(chr(10)).rstrip()}",
        )
        for f in files
        if f.always
    )

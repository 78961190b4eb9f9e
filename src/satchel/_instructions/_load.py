"""`load_instructions` (a mode by name) and `instruction_segments`: see the package."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from satchel._instructions._classic import codex_mode, satchel_mode
from satchel._instructions._hosts import (
    GEMINI,
    claude_code_mode,
    copilot_mode,
    cursor_mode,
    gemini_mode,
    plain_name,
)
from satchel._instructions._model import InstructionFile
from satchel._instructions._modes import MODES, InstructionMode
from satchel._instructions._read import Loader
from satchel._model import model
from satchel._segments import ContextSegment
from satchel.diagnostics import Diagnostic
from satchel.layout import Layout

MAX_FILE = 256 * 1024
MAX_TOTAL = 32 * 1024
SEGMENT_ID = "agent.instructions"


@model
class _Given:
    """What a mode's reader may take beside the loader and the trust: the cap on the
    project's files, Gemini's file names and Codex's fallback names."""

    max_total: int
    context_names: tuple[str, ...]
    fallback_names: tuple[str, ...]


def _gemini(loader: Loader, trust: bool, names: tuple[str, ...]) -> None:
    if not names or not all(plain_name(n) for n in names):
        raise ValueError(f"context_names must be plain file names, not {names!r}")
    gemini_mode(loader, trust, names)


_Reader = Callable[[Loader, bool, _Given], None]
# each mode's reader, by mode name (`MODES` says what each reads)
_READERS: Mapping[str, _Reader] = MappingProxyType(
    {
        "satchel": lambda loader, trust, _: satchel_mode(loader, trust),
        "codex": lambda loader, trust, given: codex_mode(
            loader, trust, given.max_total, given.fallback_names
        ),
        "claude-code": lambda loader, trust, _: claude_code_mode(loader, trust),
        "cursor": lambda loader, trust, _: cursor_mode(loader, trust),
        "gemini": lambda loader, trust, given: _gemini(loader, trust, given.context_names),
        "copilot": lambda loader, trust, _: copilot_mode(loader, trust),
    }
)


def load_instructions(
    layout: Layout,
    *,
    mode: InstructionMode = "satchel",
    max_file: int = MAX_FILE,
    max_total: int = MAX_TOTAL,
    trust_project: bool = True,
    context_names: Sequence[str] = (GEMINI,),
    fallback_names: Sequence[str] = (),
) -> tuple[tuple[InstructionFile, ...], tuple[Diagnostic, ...]]:
    """The instruction files for `layout`, in prompt order (a later file wins), and
    what was wrong. `max_total` caps the project files where the host has a cap
    (codex); `context_names` are Gemini's file names (``context.fileName``, see
    `gemini_context_names`); `fallback_names` the files read in a folder without the
    mode's own (codex: ``project_doc_fallback_filenames``; a name that is not a plain
    file name is ignored). Never raises for a bad file; see the module docstring."""
    reader = _READERS.get(mode)
    if reader is None:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    loader = Loader(layout, max_file)
    given = _Given(max_total, tuple(context_names), tuple(filter(plain_name, fallback_names)))
    reader(loader, trust_project, given)
    return tuple(loader.files), tuple(loader.diags)


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

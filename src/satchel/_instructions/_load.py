"""`load_instructions` (a mode by name) and `instruction_segments`: see the package."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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
from satchel._segments import ContextSegment
from satchel.diagnostics import Diagnostic
from satchel.layout import Layout

MAX_FILE = 256 * 1024
MAX_TOTAL = 32 * 1024
SEGMENT_ID = "agent.instructions"


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
    loader = Loader(layout, max_file)
    if mode == "satchel":
        satchel_mode(loader, trust_project)
    elif mode == "codex":
        codex_mode(loader, trust_project, max_total, tuple(filter(plain_name, fallback_names)))
    elif mode == "claude-code":
        claude_code_mode(loader, trust_project)
    elif mode == "cursor":
        cursor_mode(loader, trust_project)
    elif mode == "gemini":
        names = tuple(context_names)
        if not names or not all(plain_name(n) for n in names):
            raise ValueError(f"context_names must be plain file names, not {names!r}")
        gemini_mode(loader, trust_project, names)
    elif mode == "copilot":
        copilot_mode(loader, trust_project)
    else:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
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

"""Hooks modules: ``hooks/hooks.json``'s ``modules``, a list of one path (relative to
the hooks file's directory) to an ES module (``.js``, ``.ts``, ``.tsx``, ...) that
exports ``register(on)`` and hooks Claude Code's engine events (``prompt.submit``,
``command.run``, ...).

As ``claude plugin validate --json`` 2.1.332 checks them (no documentation page yet;
the binary's messages): ``modules`` must be an array of strings ("Invalid input:
expected array"); "hooks.json `modules` names one hooks module per plugin; a second
entry is refused"; the file must exist; it must export ``register``. ``provides``
lists ``{"path": "hooks/mod.js"}``, the path from the plugin root. Claude Code refuses
the plugin for any of these; satchel keeps the first good module, leaves the rest
out with `plugin.module.invalid`, and loads the rest of the plugin.

satchel never runs a module: each is reported as recognised and not run
(`plugin.component.not-run`, info). `events` lists the ``on("<event>", ...)`` names
its text mentions, satchel's own reading (Claude Code reads the source with a
JavaScript parser).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import Refusal, contained, read_inside, read_json
from satchel.plugins._kinds import HooksModule

__all__ = ["MAX_MODULE", "HooksModule", "read_modules"]

MAX_MODULE = 1024 * 1024
INVALID = "plugin.module.invalid"
NOT_RUN = "plugin.component.not-run"
_REGISTER = re.compile(
    r"export\s+(?:async\s+)?function\s*\*?\s*register\b"
    r"|export\s+(?:const|let|var)\s+register\b"
    r"|export\s*\{[^}]*\bregister\b[^}]*\}"
)
_ONE = "hooks.json `modules` names one hooks module per plugin"
_NOT_RUN = "satchel runs no JavaScript"
_SHAPE = "export function register(on) {...}"
_ON = re.compile(r"""\bon\(\s*["'`]([A-Za-z0-9_.*-]+)["'`]""")


def read_modules(
    hook_files: Iterable[Path], root: Path, plugin: str
) -> tuple[list[HooksModule], list[Diagnostic]]:
    """The hooks module the plugin's hooks files name (at most one), and every problem.
    A hooks file that cannot be read is the hooks parser's to report, not this one's."""
    found: list[HooksModule] = []
    diags: list[Diagnostic] = []
    for file in hook_files:
        for entry in _entries(file, root, diags):
            if found:
                message = f"{_ONE}; a second entry ({entry!r}) is refused"
                diags.append(_invalid(message, file))
                continue
            module, problem = _module(entry, file, root, plugin)
            diags.extend([problem] if problem is not None else [])
            if module is not None:
                found.append(module)
                message = f"hooks module {module.relative} is recognised and not run: {_NOT_RUN}"
                diags.append(diagnostic(NOT_RUN, message, module.path))
    return found, diags


def _entries(file: Path, root: Path, diags: list[Diagnostic]) -> list[Any]:
    """The ``modules`` of one hooks file ([] when it has none or it is not a list)."""
    data, problem = read_json(file, root, INVALID)
    if problem is not None or not isinstance(data, dict) or "modules" not in data:
        return []
    entries = data["modules"]
    if not isinstance(entries, list):
        message = f"`modules` must be an array of paths, not {type_name(entries)}; none loads"
        diags.append(_invalid(message, file))
        return []
    return entries


def _module(
    entry: Any, declared: Path, root: Path, plugin: str
) -> tuple[HooksModule | None, Diagnostic | None]:
    if not isinstance(entry, str) or not entry.strip():
        got = repr(entry) if isinstance(entry, str) else type_name(entry)
        return None, _invalid(f"a `modules` entry must be a path, not {got}", declared)
    target = declared.parent.joinpath(*[p for p in entry.split("/") if p not in ("", ".")])
    if entry.startswith("/") or ".." in entry.split("/") or not contained(target, root):
        message = f"`modules` entry {entry!r} leaves the plugin root; it is ignored"
        return None, diagnostic("plugin.path.outside_root", message, declared, severity="warning")
    data = read_inside(target, root, MAX_MODULE)
    if isinstance(data, Refusal):
        return None, data.diagnostic(INVALID, target)
    text = data.decode("utf-8", errors="replace")
    relative = target.relative_to(root).as_posix()
    if _REGISTER.search(text) is None:
        message = f"{relative} has no export named register ({_SHAPE}); it is left out"
        return None, _invalid(message, target)
    events = tuple(dict.fromkeys(_ON.findall(text)))
    return HooksModule(target, relative, declared, events, plugin), None


def _invalid(message: str, path: Path) -> Diagnostic:
    return diagnostic(INVALID, message, path, severity="warning")

"""Dynamic workflows: a plugin's ``workflows/*.js`` (not walked deeper); the manifest's
``workflows`` (a path or a list of paths, files or directories) replaces that
directory.

A workflow script must begin with ``export const meta = { name, description,
phases }``, a pure literal; Claude Code runs the rest in its own sandbox, fanning out
agents (CHANGELOG 2.1.154, 2.1.202; its binary's message: "`export const meta = {
name, description, phases }` must be the FIRST statement in the script"). As
``claude plugin validate --json`` 2.1.332 lists them, a workflow is
``<plugin>:<meta.name>``, and a script without that first statement, or with a
computed name, is left out without a word. satchel leaves it out too and says why
(`plugin.workflow.invalid`).

satchel reads the ``meta`` literal's ``name`` and ``description`` strings and never
runs the script: each workflow is reported as recognised and not run
(`plugin.component.not-run`, info). The check for the first statement is satchel's
own reading of the text (comments and blank lines before it are skipped), not a
JavaScript parser.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import Refusal, read_inside
from satchel.plugins._kinds import Workflow
from satchel.plugins.components._kindfiles import kind_files

__all__ = ["DEFAULT_DIR", "MAX_SCRIPT", "NOT_RUN", "Workflow", "read_workflows"]

DEFAULT_DIR = "workflows"
MAX_SCRIPT = 1024 * 1024
INVALID = "plugin.workflow.invalid"
NOT_RUN = "plugin.component.not-run"
_LEAD = re.compile(r"\A(?:\s+|//[^\n]*\n|/\*.*?\*/)*", re.S)
_META = re.compile(r"export\s+const\s+meta\s*=\s*\{")
_STRING = r"""\s*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')\s*([,}])"""


def read_workflows(
    paths: Iterable[Path], root: Path, plugin: str
) -> tuple[list[Workflow], list[Diagnostic]]:
    """The workflows of `paths` (``*.js`` files, directories one level deep)."""
    files, missing = kind_files(paths, (".js",), recursive=False)
    diags = [_invalid(f"{p.name} does not exist; no workflow loads from it", p) for p in missing]
    found: list[Workflow] = []
    for file in files:
        workflow, problem = _workflow(file, root, plugin)
        if problem is not None:
            diags.append(problem)
        if workflow is not None:
            found.append(workflow)
            message = (
                f"workflow {workflow.id!r} is recognised and not run: satchel runs no JavaScript"
            )
            diags.append(diagnostic(NOT_RUN, message, file))
    return found, diags


def _workflow(path: Path, root: Path, plugin: str) -> tuple[Workflow | None, Diagnostic | None]:
    data = read_inside(path, root, MAX_SCRIPT)
    if isinstance(data, Refusal):
        return None, data.diagnostic(INVALID, path)
    text = data.decode("utf-8", errors="replace")
    start = _LEAD.match(text)
    head = _META.match(text, start.end() if start else 0)
    if head is None:
        message = (
            "`export const meta = { name, description, phases }` must be the first "
            "statement of a workflow script; it is left out"
        )
        return None, _invalid(message, path)
    meta = text[head.end() - 1 : _literal_end(text, head.end())]
    name = _key(meta, "name")
    if not name:
        message = "meta.name must be a non-empty string literal; the workflow is left out"
        return None, _invalid(message, path)
    return Workflow(name, path, _key(meta, "description"), plugin), None


def _literal_end(text: str, start: int) -> int:
    """Where the object literal whose ``{`` is just before `start` ends (quoted text
    skipped); the end of `text` when it does not."""
    depth, index, quote = 1, start, ""
    while index < len(text) and depth:
        char = text[index]
        if quote:
            index += 1 if char == "\\" else 0
            quote = "" if char == quote else quote
        elif char in "\"'`":
            quote = char
        else:
            depth += {"{": 1, "[": 1, "}": -1, "]": -1}.get(char, 0)
        index += 1
    return index


def _key(meta: str, key: str) -> str | None:
    """The string literal `key` holds in the object literal `meta` (None when it is
    absent or not a plain literal)."""
    found = re.compile(rf"[{{,\s]{key}\s*:" + _STRING).search(meta)
    if found is None:
        return None
    value = found.group(1) if found.group(1) is not None else found.group(2)
    return value or None


def _invalid(message: str, path: Path) -> Diagnostic:
    return diagnostic(INVALID, message, path, severity="warning")

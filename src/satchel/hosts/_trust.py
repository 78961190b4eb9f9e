"""Other hosts' own lists of trusted folders, for a host profile that decides trust as
its host does (`Host.trust_list`).

Gemini CLI keeps ``~/.gemini/trustedFolders.json``: a JSON object mapping an absolute
path to ``TRUST_FOLDER`` (that folder and everything below it), ``TRUST_PARENT`` (the
folder above the path, and everything below it) or ``DO_NOT_TRUST``. The working
directory is trusted when a trusting entry covers it and no ``DO_NOT_TRUST`` entry names
it; an unreadable or malformed file trusts nothing and says so (``config.trust.invalid``)
(sources: geminicli.com/docs/cli/trusted-folders; gemini-cli
``packages/cli/src/config/trustedFolders.ts``).
"""

from __future__ import annotations

import os
from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.foundations._contain import probe_json
from satchel.foundations._host_files import dig, expand, read_state
from satchel.hosts._rules import GEMINI_TRUSTED_FOLDERS, TrustSource
from satchel.hosts._vocabulary import TrustListName

__all__ = [
    "TrustListName",
    "TrustSource",
    "folder_verdicts",
    "gemini_trusts",
    "host_trusted_folders",
]

GEMINI_FILE = GEMINI_TRUSTED_FOLDERS
MAX_FILE = 1024 * 1024
_TRUSTING = frozenset(("TRUST_FOLDER", "TRUST_PARENT"))


def gemini_trusts(layout: Layout) -> tuple[bool, Diagnostic | None]:
    """Whether Gemini CLI's list trusts `layout`'s working directory, and why the
    list could not be read (if so)."""
    return folder_verdicts(layout, GEMINI_FILE)


def folder_verdicts(layout: Layout, file: str) -> tuple[bool, Diagnostic | None]:
    """Whether the host's list of folder verdicts at `file` under the home (Gemini
    CLI's format, `satchel.hosts.TRUST_LISTS`) trusts `layout`'s working directory,
    and why the list could not be read (if so)."""
    path = layout.home / file
    if not os.path.lexists(path):
        return False, None
    data, problem = probe_json(path, MAX_FILE)
    if problem is not None:
        return False, _invalid(path, problem)
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        return False, _invalid(
            path, "it must map folders to TRUST_FOLDER, TRUST_PARENT or DO_NOT_TRUST"
        )
    return _covered(layout.cwd, data), None


def _covered(cwd: Path, rules: dict[str, str]) -> bool:
    here = Path(os.path.normpath(cwd))
    refused = any(v == "DO_NOT_TRUST" and Path(k) == here for k, v in rules.items())
    trusting = (
        Path(os.path.normpath(k)).parent if v == "TRUST_PARENT" else Path(os.path.normpath(k))
        for k, v in rules.items()
        if v in _TRUSTING and os.path.isabs(k)
    )
    return not refused and any(here.is_relative_to(folder) for folder in trusting)


def _invalid(path: Path, why: str) -> Diagnostic:
    return diagnostic("config.trust.invalid", f"{path.name}: {why}; no folder is trusted", path)


def host_trusted_folders(
    source: TrustSource, home: Path
) -> tuple[Path, tuple[Path, ...], Diagnostic | None]:
    """The file `source` names under `home`, the absolute folders its records mark
    trusted (in the file's order), and why the file could not be read (if so)."""
    path = Path(expand(source.path, {"home": str(home)}))
    document, problem = read_state(path)
    table = dig(document, source.keys)
    if not isinstance(table, dict):
        return path, (), problem
    folders = tuple(
        Path(folder)
        for folder, record in table.items()
        if isinstance(record, dict) and record.get(source.flag) is True and os.path.isabs(folder)
    )
    return path, folders, problem

"""A site's skills index (the Agent Skills discovery draft, 0.2.0) as a source.

A site publishes ``/.well-known/agent-skills/index.json``: a ``$schema`` naming the
draft's version and a ``skills`` array, each entry a ``name``, a ``type``
(``skill-md``: one ``SKILL.md``; ``archive``: a ``.tar.gz`` or ``.zip`` of the skill's
folder, its files at the archive's root), a ``description``, a ``url`` and the
``digest`` (``sha256:<hex>``) of the artifact's raw bytes. The client rules:

- The index is read from the origin's ``/.well-known/agent-skills/index.json``; when
  that is not found (404), from the path the draft renamed, ``/.well-known/skills/``.
  It is at most `INDEX_CAP` bytes and `MAX_ENTRIES` entries
  (``wellknown.index.too-large``), a JSON object with a ``skills`` array
  (``wellknown.index.invalid``), and its redirects stay on its origin
  (``install.redirect.refused``). Fields satchel does not know are ignored.
- ``$schema`` must be the 0.2.0 URI (`SCHEMA`); another is not processed
  (``wellknown.schema.unknown``). An index without one is a 0.1.0 index, whose entries
  carry no digest: they are listed, and never installed (``wellknown.digest.missing``).
- An entry whose ``type`` is neither ``skill-md`` nor ``archive`` is skipped
  (``wellknown.entry.skipped``). One that breaks another rule (its name, its digest's
  form, a description past 1024 characters, a URL that is not https, or http to a
  loopback host from a loopback index) is left out with a warning, and refused when it
  is picked (``wellknown.entry.invalid``). Two entries of one name refuse the index.
- ``url`` is resolved against the index URL (RFC 3986): path-absolute, relative, or
  absolute (another host, e.g. a CDN); its redirects stay on its own origin.
- Each artifact is downloaded into the private workspace (a ``SKILL.md`` at most
  `MAX_SKILL_FILE` bytes, an archive at most the archive limit) and its sha256
  compared with the entry's digest before anything is unpacked or placed
  (``wellknown.digest.mismatch``). An archive is then unpacked by satchel's own
  extractor (no ``..``, no absolute path, no link leaving the tree, the size limits),
  its format read from its bytes, and must hold ``SKILL.md`` at its root
  (``wellknown.archive.layout``). The ``SKILL.md`` must name the skill as its entry
  does (``wellknown.name.mismatch``): the entry's name is the one installed and locked.
- The lock's ``source`` is the index URL and ``resolved`` the entry's digest, so
  ``satchel update`` reads the index again and a changed digest is an update;
  ``install --frozen`` installs only the entry still published with the locked digest
  (``install.integrity`` otherwise).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from satchel.core._json import loads
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import HttpRefused
from satchel.foundations._net import LOOPBACK_NAMES
from satchel.install._contents import item_at
from satchel.install._errors import InstallError, refuse
from satchel.install._extract import extract_archive
from satchel.install._fetched import Fetched
from satchel.install._http import Progress, download, get_bytes
from satchel.install._settings import Settings
from satchel.install._sources import WELL_KNOWN, WELL_KNOWN_OLD, Source, is_skill_name
from satchel.skills import MAX_SKILL_FILE

__all__ = [
    "INDEX_CAP",
    "MAX_ENTRIES",
    "SCHEMA",
    "IndexEntry",
    "SiteIndex",
    "fetch_wellknown",
    "read_index",
]

SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
INDEX_CAP = 4 * 1024 * 1024
MAX_ENTRIES = 2000
TYPES = ("skill-md", "archive")
_DESCRIPTION = 1024


@model
class IndexEntry:
    """One entry of a site's index: its artifact's URL resolved against the index's,
    and its digest (None in a 0.1.0 index). `problem` says why it cannot be installed."""

    name: str
    type: str
    description: str
    url: str
    digest: str | None
    problem: Diagnostic | None = None


@model
class SiteIndex:
    """A site's index as read: its URL, its entries (each valid name once), the
    warnings reading it gave."""

    url: str
    entries: tuple[IndexEntry, ...]
    diagnostics: tuple[Diagnostic, ...] = ()


def read_index(source: Source, settings: Settings) -> SiteIndex:
    """The index `source` names, read by the draft's client rules (module docstring)."""
    url = source.location
    try:
        body = _get_index(url, settings)
    except HttpRefused as e:
        if e.status != 404 or not url.endswith(WELL_KNOWN):
            raise
        url = url[: -len(WELL_KNOWN)] + WELL_KNOWN_OLD
        body = _get_index(url, settings)
    return _parse(url, body)


def _get_index(url: str, settings: Settings) -> bytes:
    return get_bytes(
        url, settings, cap=INDEX_CAP, auth=False, stay=True, too_large="wellknown.index.too-large"
    )


def _parse(url: str, body: bytes) -> SiteIndex:
    try:
        doc = loads(body)
    except ValueError:
        raise _bad(url, "it is not JSON") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("skills"), list):
        raise _bad(url, "it is not a JSON object with a 'skills' array")
    rows: list[Any] = doc["skills"]
    if len(rows) > MAX_ENTRIES:
        message = f"the index {url} lists {len(rows):,} skills; the limit is {MAX_ENTRIES:,}"
        raise refuse("wellknown.index.too-large", message)
    schema = doc.get("$schema")
    if schema is not None and schema != SCHEMA:
        message = f"the index {url} names the schema {str(schema)[:200]!r}, not {SCHEMA}"
        hint = "satchel reads the Agent Skills discovery draft 0.2.0 (or 0.1.0, without $schema)"
        raise refuse("wellknown.schema.unknown", message, hint=hint)
    read = _entry if schema is not None else _old_entry
    notes: list[Diagnostic] = []
    entries: dict[str, IndexEntry] = {}
    for n, row in enumerate(rows):
        found = read(url, n, row)
        if isinstance(found, Diagnostic):
            notes.append(found)
            continue
        if found.name in entries:
            raise _bad(url, f"it lists the skill {found.name!r} twice")
        entries[found.name] = found
        if found.problem is not None:
            notes.append(found.problem)
    return SiteIndex(url, tuple(entries.values()), tuple(notes))


def _bad(url: str, why: str) -> InstallError:
    return refuse("wellknown.index.invalid", f"the index {url} cannot be read: {why}")


def _entry(url: str, n: int, row: Any) -> IndexEntry | Diagnostic:
    """An entry of a 0.2.0 index, or why it is left out."""
    if not isinstance(row, dict) or not isinstance(row.get("name"), str):
        return _skip("wellknown.entry.invalid", url, f"entry {n} has no name")
    name, kind = row["name"], row.get("type")
    if kind not in TYPES:
        why = f"skill {name[:64]!r} has the type {str(kind)[:64]!r}, which satchel does not know"
        return _skip("wellknown.entry.skipped", url, why)
    problem = _name_problem(name)
    if problem is not None:
        return _skip("wellknown.entry.invalid", url, f"entry {n}: {problem}")
    description, target, digest = row.get("description"), row.get("url"), row.get("digest")
    problem = (
        _description_problem(description) or _digest_problem(digest) or _url_problem(url, target)
    )
    resolved = urljoin(url, target) if isinstance(target, str) else ""
    shown = description if isinstance(description, str) else ""
    if problem is None:
        return IndexEntry(name, kind, shown, resolved, digest)
    bad = _unusable("wellknown.entry.invalid", url, f"skill {name!r}: {problem}")
    return IndexEntry(name, kind, shown, resolved, None, bad)


def _old_entry(url: str, n: int, row: Any) -> IndexEntry | Diagnostic:
    """An entry of a 0.1.0 index: listed, never installed (it carries no digest)."""
    if not isinstance(row, dict) or not isinstance(row.get("name"), str):
        return _skip("wellknown.entry.invalid", url, f"entry {n} has no name")
    name = row["name"]
    problem = _name_problem(name)
    if problem is not None:
        return _skip("wellknown.entry.invalid", url, f"entry {n}: {problem}")
    description = row.get("description")
    shown = description if isinstance(description, str) else ""
    why = (
        f"skill {name!r} has no digest (the index has no $schema: it is the draft's "
        "0.1.0), so what is fetched cannot be checked"
    )
    base = url.rsplit("/", 1)[0]
    missing = _unusable("wellknown.digest.missing", url, why)
    return IndexEntry(name, "skill-md", shown, f"{base}/{name}/SKILL.md", None, missing)


def _skip(code: str, url: str, why: str) -> Diagnostic:
    return diagnostic(code, f"the index {url}: {why}; it is left out")


def _unusable(code: str, url: str, why: str) -> Diagnostic:
    """A listed entry that cannot be installed: a warning when listed, the error
    when it is picked."""
    return diagnostic(code, f"the index {url}: {why}; it cannot be installed")


def _name_problem(name: str) -> str | None:
    if is_skill_name(name):
        return None
    return f"the name {name[:80]!r} is not 1-64 of a-z, 0-9 and single inner hyphens"


def _description_problem(description: Any) -> str | None:
    if not isinstance(description, str) or not description.strip():
        return "it has no description"
    if len(description) > _DESCRIPTION:
        return f"its description passes {_DESCRIPTION} characters"
    return None


def _digest_problem(digest: Any) -> str | None:
    ok = (
        isinstance(digest, str)
        and len(digest) == 71
        and digest.startswith("sha256:")
        and all(c in "0123456789abcdef" for c in digest[7:])
    )
    return None if ok else "its digest is not sha256:<64 lowercase hex digits>"


def _url_problem(index: str, target: Any) -> str | None:
    if not isinstance(target, str) or not target:
        return "it has no url"
    parts = urlsplit(urljoin(index, target))
    if parts.username or parts.password:
        return "its url carries credentials"
    if parts.scheme == "https" and parts.hostname:
        return None
    loopback = urlsplit(index).hostname in LOOPBACK_NAMES
    if parts.scheme == "http" and parts.hostname in LOOPBACK_NAMES and loopback:
        return None
    return f"its url {parts.scheme}://{parts.netloc}{parts.path[:80]} is not https"


def fetch_wellknown(
    source: Source,
    work: Path,
    settings: Settings,
    *,
    pin: str | None = None,
    progress: Progress | None = None,
) -> Fetched:
    """Each picked entry of the site's index (all without picks; with `pin`, the one
    published with that digest), verified, in ``work/tree/<name>/``; `pins` maps each
    to its digest, `source` is the index URL."""
    index = read_index(source, settings)
    chosen, notes = _chosen(index, source.skills, pin)
    tree = work / "tree"
    tree.mkdir()
    for n, entry in enumerate(chosen):
        _artifact(entry, work / f"artifact-{n}", tree / entry.name, settings, progress)
        _named_as_listed(entry, tree)
    pins = {e.name: e.digest for e in chosen if e.digest is not None}
    return Fetched(tree, None, None, tuple(notes), pins, index.url)


def _chosen(
    index: SiteIndex, picks: Sequence[str], pin: str | None
) -> tuple[list[IndexEntry], list[Diagnostic]]:
    """The entries to fetch, and the warnings to give. A picked entry that cannot be
    installed refuses the whole fetch, with its own diagnostic as the error."""
    if pin is not None:
        found = [e for e in index.entries if e.digest == pin and e.problem is None]
        if not found:
            message = f"the index {index.url} no longer publishes a skill with the digest {pin}"
            raise refuse("install.integrity", message)
        return found, []
    if not picks:
        return [e for e in index.entries if e.problem is None], list(index.diagnostics)
    out = []
    for pick in picks:
        entry = next((e for e in index.entries if e.name == pick), None)
        if entry is None:
            names = ", ".join(e.name for e in index.entries) or "nothing"
            message = f"the index {index.url} has no skill {pick!r}"
            raise refuse("install.skill.unknown", message, hint=f"it lists: {names[:400]}")
        if entry.problem is not None:
            raise InstallError(replace(entry.problem, severity="error"))
        out.append(entry)
    return out, []


def _artifact(
    entry: IndexEntry, download_to: Path, into: Path, settings: Settings, progress: Progress | None
) -> None:
    """`entry`'s artifact downloaded, its digest checked, and only then placed in `into`."""
    archive = entry.type == "archive"
    cap = settings.limits.max_bytes if archive else MAX_SKILL_FILE
    got = download(
        entry.url, download_to, settings, auth=False, progress=progress, label=entry.name,
        cap=cap, stay=True,
    )  # fmt: skip
    found = f"sha256:{got.sha256}"
    if found != entry.digest:
        message = (
            f"skill {entry.name!r}: {entry.url} has the digest {found}, not the "
            f"{entry.digest} its index publishes; nothing of it was used"
        )
        raise refuse("wellknown.digest.mismatch", message)
    into.mkdir()
    if not archive:
        os.replace(got.path, into / "SKILL.md")
        return
    extract_archive(got.path, into, settings.limits)
    got.path.unlink()
    top = into / "SKILL.md"
    if top.is_symlink() or not top.is_file():
        message = f"skill {entry.name!r}: the archive {entry.url} has no SKILL.md at its root"
        raise refuse("wellknown.archive.layout", message)


def _named_as_listed(entry: IndexEntry, tree: Path) -> None:
    """Refuse a skill whose SKILL.md names another skill than its entry: it would be
    installed, and locked, under a name the index does not give it."""
    item = item_at(tree, entry.name, "skill")
    if item.ok and item.name != entry.name:
        message = (
            f"skill {entry.name!r}: the SKILL.md at {entry.url} is named {item.name!r}, "
            "not the name its index gives"
        )
        raise refuse("wellknown.name.mismatch", message)

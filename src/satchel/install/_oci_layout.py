"""How a skill or plugin lies in an OCI artifact, read into a tree and written from one.

Two layouts are read:

(a) **one archive layer**: a single layer whose media type is a tar
    (``application/vnd.oci.image.layer.v1.tar+gzip``, ``...tar``, ``...tar+zstd`` is
    not read; Alibaba Cloud ACR's ``application/vnd.agent.skill.content.v1.tar+gzip``;
    any ``*.tar`` or ``*.tar+gzip``), extracted with satchel's own extractor
    (`satchel.install._extract`), every archive rule applying;
(b) **one layer per file**, each naming its path in the
    ``org.opencontainers.image.title`` annotation, as ``oras push`` writes files
    (oras.land/docs/how_to_guides/pushing_and_pulling; oras-go ``content/file``).
    A title must be a plain relative POSIX path: not empty, not absolute, no drive,
    backslash, NUL or control character, no empty, ``.`` or ``..`` segment, within
    the depth and length limits, and not the same path twice (after NFC and
    casefolding) nor a file below another file (``install.oci.path``).

An index (``application/vnd.oci.image.index.v1+json`` or Docker's manifest list)
is followed one level: to the manifest whose ``artifactType`` is a skill's or a
plugin's, else its only manifest, else its first. The config blob is not read.

`satchel publish` writes layout (a) by default: an empty config
(``application/vnd.oci.empty.v1+json``, the image spec's ``manifest.md`` guidance
for artifacts), one ``tar+gzip`` layer holding the directory below one top folder
named after it, and ``artifactType`` ``application/vnd.agent.skill.v1+json`` with
ACR's ``org.agent.skill.name``/``.description`` annotations for a skill
(help.aliyun.com/en/acr/user-guide/pushing-and-pulling-skill-products), or
``application/vnd.satchel.plugin.v1+json`` for a plugin. The archive is
reproducible (sorted entries, times zero, owners dropped), so the same tree
publishes to the same digest. Layout (b) is written with ``files=True``.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import stat
import tarfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.foundations._contain import entry_parts, folded, link_escapes
from satchel.install._errors import refuse
from satchel.install._extract import extract_archive
from satchel.install._oci import DIGEST, DOCKER_LIST, OCI_INDEX, OCI_MANIFEST, Manifest
from satchel.install._settings import Limits

__all__ = [
    "ARTIFACT_TYPES",
    "EMPTY",
    "Layer",
    "Packed",
    "layers_of",
    "pack",
    "pick_from_index",
    "write_layers",
]

TITLE = "org.opencontainers.image.title"
SKILL_TYPE = "application/vnd.agent.skill.v1+json"
PLUGIN_TYPE = "application/vnd.satchel.plugin.v1+json"
AGENTSKILLS_TYPE = "application/vnd.agentskills.skill.v1"
ARTIFACT_TYPES = (SKILL_TYPE, PLUGIN_TYPE, AGENTSKILLS_TYPE)
EMPTY = "application/vnd.oci.empty.v1+json"
TAR_GZIP = "application/vnd.oci.image.layer.v1.tar+gzip"
SKILL_LAYER = "application/vnd.agent.skill.content.v1.tar+gzip"
FILE_LAYER = "application/vnd.oci.image.layer.v1.tar"  # oras's default for a plain file
_TAR = re.compile(r".*[./+]tar(?:\+gzip)?\Z")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@model
class Layer:
    """One layer descriptor, checked: its media type, digest, size and title."""

    media_type: str
    digest: str
    size: int
    title: str | None


def pick_from_index(index: Manifest, where: str) -> str:
    """The digest of the manifest an index points to (see the module docstring)."""
    rows = index.doc.get("manifests")
    if not isinstance(rows, list) or not rows:
        raise refuse("install.oci.invalid", f"{where}: the index lists no manifest")
    good = [r for r in rows if isinstance(r, dict) and DIGEST.match(str(r.get("digest", "")))]
    if not good:
        raise refuse("install.oci.invalid", f"{where}: the index lists no sha256 manifest")
    ours = [r for r in good if r.get("artifactType") in ARTIFACT_TYPES]
    return str((ours or good)[0]["digest"])


def is_index(manifest: Manifest) -> bool:
    return manifest.media_type in (OCI_INDEX, DOCKER_LIST) or "manifests" in manifest.doc


def layers_of(manifest: Manifest, where: str, limits: Limits) -> list[Layer]:
    """The manifest's layers, each descriptor checked, within the limits."""
    rows = manifest.doc.get("layers")
    if not isinstance(rows, list) or not rows:
        raise refuse("install.oci.invalid", f"{where}: the manifest has no layers")
    if len(rows) > limits.max_files:
        message = f"{where}: {len(rows):,} layers; the limit is {limits.max_files:,}"
        raise refuse("install.archive.too-large", message)
    out = []
    for row in rows:
        if not isinstance(row, dict):
            raise refuse("install.oci.invalid", f"{where}: a layer is not a descriptor")
        media, digest, size = row.get("mediaType"), row.get("digest"), row.get("size")
        if not isinstance(media, str) or not isinstance(digest, str) or not DIGEST.match(digest):
            raise refuse("install.oci.invalid", f"{where}: a layer has no sha256 digest")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise refuse("install.oci.invalid", f"{where}: layer {digest} has no size")
        notes = row.get("annotations")
        title = notes.get(TITLE) if isinstance(notes, dict) else None
        out.append(Layer(media, digest, size, title if isinstance(title, str) else None))
    total = sum(layer.size for layer in out)
    if total > limits.max_bytes:
        message = f"{where}: the layers hold {total:,} bytes; the limit is {limits.max_bytes:,}"
        raise refuse("install.archive.too-large", message)
    return out


Fetch = Callable[[Layer, Path], None]  # download a layer's blob into a new file


def write_layers(
    layers: list[Layer], fetch: Fetch, tree: Path, blobs: Path, where: str, limits: Limits
) -> None:
    """Fill the new directory `tree` from `layers`: layout (a) or (b)."""
    tree.mkdir()
    if len(layers) == 1 and _TAR.match(layers[0].media_type):
        archive = blobs / layers[0].digest.split(":", 1)[1]
        fetch(layers[0], archive)
        extract_archive(archive, tree, limits)
        archive.unlink()
        return
    titles = [_title(layer, where, limits) for layer in layers]
    _distinct(titles, where)
    for layer, parts in zip(layers, titles, strict=True):
        blob = blobs / layer.digest.split(":", 1)[1]
        if not blob.exists():
            fetch(layer, blob)
        _place(blob, tree, parts)
    for layer in layers:
        (blobs / layer.digest.split(":", 1)[1]).unlink(missing_ok=True)


def _title(layer: Layer, where: str, limits: Limits) -> tuple[str, ...]:
    title = layer.title
    if title is None:
        message = f"{where}: layer {layer.digest} is neither one archive nor titled with its path"
        raise refuse("install.oci.invalid", message)
    parts = entry_parts(title, depth=limits.max_depth, length=limits.max_path)
    if not title or _CONTROL.search(title):
        parts = "is empty or holds a control character"
    elif not isinstance(parts, str) and "/".join(parts) != title:
        parts = "has an empty or '.' segment"
    if isinstance(parts, str):
        raise refuse("install.oci.path", f"{where}: layer title {title!r} {parts}")
    return parts


def _distinct(titles: list[tuple[str, ...]], where: str) -> None:
    keys = [folded(t) for t in titles]
    files = set()
    for key, parts in zip(keys, titles, strict=True):
        if key in files:
            raise refuse("install.oci.path", f"{where}: layer title {'/'.join(parts)!r} is twice")
        files.add(key)
    for key, parts in zip(keys, titles, strict=True):
        segs = key.split("/")
        if any("/".join(segs[:n]) in files for n in range(1, len(segs))):
            message = f"{where}: layer title {'/'.join(parts)!r} is below another file"
            raise refuse("install.oci.path", message)


def _place(blob: Path, tree: Path, parts: tuple[str, ...]) -> None:
    here = tree
    for segment in parts[:-1]:
        here = here / segment
        if not os.path.isdir(here):
            os.mkdir(here, 0o755)
    target = here / parts[-1]
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as out, open(blob, "rb") as f:
        while chunk := f.read(1024 * 1024):
            out.write(chunk)


# --- publishing --------------------------------------------------------------------


@model
class Packed:
    """What to push: blobs (config first) and the manifest that names them."""

    blobs: tuple[bytes, ...]
    manifest: bytes
    media_type: str = OCI_MANIFEST


def pack(
    root: Path, name: str, kind: str, description: str, *, files: bool, limits: Limits
) -> Packed:
    """The artifact for the directory `root` (a skill or plugin called `name`); what
    `install` would refuse is refused first (`_installable`)."""
    paths = _walk(root, limits)
    _installable(root, name, paths, limits)
    config = b"{}"
    if files:
        linked = [rel for rel in paths if (root / rel).is_symlink()]
        if linked:
            message = f"{linked[0]} is a symlink; one layer per file holds regular files only"
            raise refuse("install.oci.invalid", message, root / linked[0])
        blobs = [(root / rel).read_bytes() for rel in paths]
        layers = [
            _descriptor(FILE_LAYER, data, {TITLE: f"{name}/{rel}"})
            for rel, data in zip(paths, blobs, strict=True)
        ]
    else:
        blobs = [_tar(root, name, paths)]
        media = SKILL_LAYER if kind == "skill" else TAR_GZIP
        layers = [_descriptor(media, blobs[0], {TITLE: f"{name}.tar.gz"})]
    notes = {"org.agent.skill.name": name} if kind == "skill" else {}
    if kind == "skill" and description:
        notes["org.agent.skill.description"] = description
    manifest: dict[str, Any] = {
        "schemaVersion": 2,
        "mediaType": OCI_MANIFEST,
        "artifactType": SKILL_TYPE if kind == "skill" else PLUGIN_TYPE,
        "config": _descriptor(EMPTY, config, None),
        "layers": layers,
        **({"annotations": notes} if notes else {}),
    }
    body = json.dumps(manifest, separators=(",", ":"), sort_keys=True).encode()
    return Packed((config, *blobs), body)


def _descriptor(media: str, data: bytes, notes: dict[str, str] | None) -> dict[str, Any]:
    import hashlib

    row: dict[str, Any] = {
        "mediaType": media,
        "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
        "size": len(data),
    }
    if notes:
        row["annotations"] = notes
    return row


def _walk(root: Path, limits: Limits) -> list[str]:
    """Every regular file and symlink below `root` (``.git`` left out), sorted."""
    out: list[str] = []
    for directory, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git" and not os.path.islink(Path(directory, d)))
        for name in sorted(names):
            path = Path(directory, name)
            mode = os.lstat(path).st_mode
            if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                continue
            out.append(path.relative_to(root).as_posix())
        for d in os.listdir(directory):
            if os.path.islink(Path(directory, d)):
                out.append(Path(directory, d).relative_to(root).as_posix())
    if len(out) > limits.max_files:
        raise refuse("install.archive.too-large", f"{root} holds more than {limits.max_files:,}")
    return sorted(set(out))


def _installable(root: Path, name: str, paths: list[str], limits: Limits) -> None:
    """Refuse what the extractor refuses when the artifact is installed, by the same
    rules (`satchel.foundations._contain`): a path it would not write (``install.archive.path``),
    two paths one filesystem could make one (``install.archive.duplicate``), a symlink
    whose target leaves the published directory (``install.archive.link``), and a
    hardlink (``install.archive.link``): a file with more than one link may be the
    content of a file outside the directory, which publishing would copy out."""
    seen: set[str] = set()
    for rel in paths:
        path = root / rel
        parts = entry_parts(f"{name}/{rel}", depth=limits.max_depth, length=limits.max_path)
        if isinstance(parts, str):
            raise refuse("install.archive.path", f"{rel!r} {parts}", path)
        key = folded(parts)
        if key in seen:
            raise refuse("install.archive.duplicate", f"{rel!r} is in the tree twice", path)
        seen.add(key)
        st = os.lstat(path)
        why = _link_escapes(root, path, parts) if stat.S_ISLNK(st.st_mode) else None
        if why is None and stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
            why = f"is a hardlink ({st.st_nlink} links): its content may be another file's"
        if why is not None:
            hint = "publish a copy of what it points at, inside the directory"
            raise refuse("install.archive.link", f"{rel!r} {why}", path, hint=hint)


def _link_escapes(root: Path, path: Path, parts: tuple[str, ...]) -> str | None:
    """Why the link at `path` leads out of `root`: as written (the extractor's rule),
    or once followed, through the other links on the way (as placing it would)."""
    target = os.readlink(path)
    why = link_escapes(parts[1:], target)
    if why is None and not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(root)):
        why = f"links outside the tree ({target})"
    return why


def _tar(root: Path, name: str, paths: list[str]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        dirs = sorted(
            {"/".join(p.split("/")[:n]) for p in paths for n in range(1, p.count("/") + 1)}
        )
        for rel in ["", *dirs]:
            info = tarfile.TarInfo(f"{name}/{rel}".rstrip("/"))
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(info)
        for rel in paths:
            path = root / rel
            info = tarfile.TarInfo(f"{name}/{rel}")
            if path.is_symlink():
                info.type, info.linkname, info.mode = tarfile.SYMTYPE, os.readlink(path), 0o777
                tar.addfile(info)
                continue
            data = path.read_bytes()
            info.size, info.mode = len(data), 0o755 if os.stat(path).st_mode & 0o111 else 0o644
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)

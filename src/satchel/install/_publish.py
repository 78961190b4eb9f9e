"""`publish`: push a skill or plugin directory to an OCI registry as one artifact.

The directory must hold exactly one skill or one plugin at its root, valid by
satchel's own parsers and named as `install` requires (``install.skill.none``,
``install.skill.invalid``), so that what is published installs. It is
packed by `satchel.install._oci_layout.pack` (layout (a), one ``tar+gzip`` layer,
by default; one layer per file with ``files=True``), the blobs are uploaded, then
the manifest is put at the tag (default ``latest``). Credentials are Docker's, as
for pulling.

With `sign` (`satchel.install._oci_sign`), the manifest's digest is signed first (a
signature that cannot be made pushes nothing), then the artifact is pushed, then
the Sigstore bundle is attached to it as a referrer
(`satchel.install._oci_signatures.attach`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.install._contents import scan_items
from satchel.install._errors import refuse
from satchel.install._installer import _plugin_name
from satchel.install._oci import Registry, digest_of
from satchel.install._oci_layout import pack
from satchel.install._oci_sign import Signed, Signing, sign_digest
from satchel.install._oci_signatures import attach
from satchel.install._settings import Settings
from satchel.install._sources import Source, parse_source
from satchel.skills._fields import name_problem

__all__ = ["Published", "publish"]


@model
class Published:
    """What was pushed: the reference by tag and by digest, the item, the layers."""

    reference: str
    digest: str
    kind: str
    name: str
    layers: int
    size: int
    signed: Signed | None = None
    referrer: str | None = None

    @property
    def pinned(self) -> str:
        return Source(
            "oci", self.reference.split("://", 1)[1].rsplit(":", 1)[0], self.digest
        ).spec()

    def to_json(self) -> dict[str, Any]:
        return {
            "reference": self.reference,
            "digest": self.digest,
            "pinned": self.pinned,
            "kind": self.kind,
            "name": self.name,
            "layers": self.layers,
            "size": self.size,
            "signature": self._signature(),
        }

    def _signature(self) -> dict[str, Any] | None:
        if self.signed is None:
            return None
        return {
            "signer": self.signed.signer,
            "issuer": self.signed.issuer,
            "digest": self.digest,
            "referrer": self.referrer,
            "log_index": self.signed.log_index,
        }


def publish(
    path: str | os.PathLike[str],
    target: str | Source,
    *,
    files: bool = False,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
    sign: Signing | None = None,
) -> Published:
    """Push the skill or plugin at `path` to `target` (``oci://registry/repo[:tag]``),
    signed when `sign` says how."""
    env = dict(os.environ if environ is None else environ)
    settings = settings or Settings.from_env(env)
    dest = target if isinstance(target, Source) else parse_source(target, settings=settings)
    if dest.kind != "oci":
        raise refuse("install.source.invalid", f"{dest.spec()} is not an oci:// reference")
    if dest.ref is not None and dest.ref.startswith("sha256:"):
        message = f"{dest.spec()}: publish to a tag; the digest is what the push gives back"
        raise refuse("install.source.invalid", message)
    root = Path(path)
    if not root.is_dir():
        raise refuse("install.skill.none", f"{root} is not a directory", root)
    items, _ = scan_items(root)
    top = [i for i in items if i.folder == ""]
    if len(top) != 1:
        message = f"{root} is not one skill or plugin (a SKILL.md or a plugin manifest at its root)"
        raise refuse("install.skill.none", message, root)
    item = top[0]
    if not item.ok:
        errors = [d for d in item.diagnostics if d.severity == "error"][:3]
        why = "; ".join(f"{d.code}: {d.message}" for d in errors) or "it does not load"
        raise refuse("install.skill.invalid", f"{item.kind} {item.name!r}: {why}", root)
    bad = name_problem(item.name) if item.kind == "skill" else _plugin_name(item.name)
    if bad is not None:
        raise refuse("install.skill.invalid", f"{item.kind} name {item.name!r} {bad}", root)
    packed = pack(root, item.name, item.kind, item.description, files=files, limits=settings.limits)
    tag = dest.ref or "latest"
    host, _, repository = dest.location.partition("/")
    signed = sign_digest(sign, digest_of(packed.manifest), dest.location) if sign else None
    referrer = None
    with Registry(host, repository, settings, env, push=True) as registry:
        for blob in packed.blobs:
            registry.push_blob(blob)
        digest = registry.push_manifest(tag, packed.media_type, packed.manifest)
        if signed is not None:
            created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            size = len(packed.manifest)
            referrer = attach(registry, digest, packed.media_type, size, signed.bundle, created)
    reference = Source("oci", dest.location, tag).spec()
    size = sum(len(b) for b in packed.blobs)
    count = len(packed.blobs) - 1
    return Published(reference, digest, item.kind, item.name, count, size, signed, referrer)

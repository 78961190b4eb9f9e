"""OCI sources: an artifact's manifest, then its layers, into a tree (never run).

``oci://registry/repository:tag`` (default tag ``latest``) or ``...@sha256:...``
is pulled with `satchel.install._oci.Registry` and laid out by
`satchel.install._oci_layout`. `Fetched.resolved` is the manifest's digest (the
index's, when the reference names an index), so ``skills.lock`` pins the artifact
by digest and a frozen install fetches exactly that digest again.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from satchel.install._fetched import Fetched
from satchel.install._oci import Registry
from satchel.install._oci_layout import Layer, is_index, layers_of, pick_from_index, write_layers
from satchel.install._settings import Settings
from satchel.install._sources import Source

__all__ = ["fetch_oci"]


def fetch_oci(
    source: Source,
    work: Path,
    settings: Settings,
    *,
    pin: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Fetched:
    """Fetch `source` (kind ``oci``) at the digest `pin`, or at its tag or digest,
    into ``work/tree``."""
    host, _, repository = source.location.partition("/")
    reference = pin or source.ref or "latest"
    where = Source("oci", source.location, reference).spec()
    with Registry(host, repository, settings, environ or {}) as registry:
        top = registry.manifest(reference)
        manifest = registry.manifest(pick_from_index(top, where)) if is_index(top) else top
        layers = layers_of(manifest, where, settings.limits)
        blobs = work / "blobs"
        blobs.mkdir()

        def get(layer: Layer, dest: Path) -> None:
            registry.blob(layer.digest, layer.size, dest)

        write_layers(layers, get, work / "tree", blobs, where, settings.limits)
    return Fetched(work / "tree", top.digest)

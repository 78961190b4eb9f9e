"""OCI sources: an artifact's manifest, then its layers, into a tree (never run).

``oci://registry/repository:tag`` (default tag ``latest``) or ``...@sha256:...``
is pulled with `satchel.install._oci.Registry` and laid out by
`satchel.install._oci_layout`. `Fetched.resolved` is the manifest's digest (the
index's, when the reference names an index), so ``skills.lock`` pins the artifact
by digest and a frozen install fetches exactly that digest again.

When signers are named (`signers`, or public keys in `Settings.signer_keys`), the
signatures attached to that digest are found (`satchel.install._oci_signatures`) and
checked (`satchel.install._oci_verify`) right after the manifest is read and before
any layer is: an artifact that is unsigned, signed over another digest or by someone
not named is refused, and nothing of it is written. The signature is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from satchel.install._fetched import Fetched
from satchel.install._oci import Registry
from satchel.install._oci_layout import Layer, is_index, layers_of, pick_from_index, write_layers
from satchel.install._oci_signatures import attached
from satchel.install._oci_verify import verify_attached
from satchel.install._settings import Settings
from satchel.install._signatures import Signers
from satchel.install._sources import Source

__all__ = ["fetch_oci"]


def fetch_oci(
    source: Source,
    work: Path,
    settings: Settings,
    *,
    pin: str | None = None,
    environ: Mapping[str, str] | None = None,
    signers: Signers | None = None,
) -> Fetched:
    """Fetch `source` (kind ``oci``) at the digest `pin`, or at its tag or digest,
    into ``work/tree``."""
    host, _, repository = source.location.partition("/")
    reference = pin or source.ref or "latest"
    where = Source("oci", source.location, reference).spec()
    with Registry(host, repository, settings, environ or {}) as registry:
        top = registry.manifest(reference)
        signature = None
        if signers is not None or settings.signer_keys:
            found = attached(registry, top.digest)
            signature = verify_attached(
                found, top.digest, where, signers, settings.signer_keys,
                settings.sigstore_trust_root,
            )  # fmt: skip
        manifest = registry.manifest(pick_from_index(top, where)) if is_index(top) else top
        layers = layers_of(manifest, where, settings.limits)
        blobs = work / "blobs"
        blobs.mkdir()

        def get(layer: Layer, dest: Path) -> None:
            registry.blob(layer.digest, layer.size, dest)

        write_layers(layers, get, work / "tree", blobs, where, settings.limits)
    return Fetched(work / "tree", top.digest, signature=signature)

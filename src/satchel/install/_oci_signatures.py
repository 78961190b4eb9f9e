"""Signatures attached to an OCI artifact: found for a manifest digest, and attached.

Found, in this order, as cosign and the registries attach them:

1. the referrers API (distribution-spec v1.1 ``spec.md``, "Listing Referrers"):
   ``GET /v2/<name>/referrers/<digest>?artifactType=...`` lists the manifests whose
   ``subject`` is the artifact; those of ``artifactType``
   ``application/vnd.dev.sigstore.bundle.v0.3+json`` hold one layer of that media
   type, the Sigstore bundle (cosign ``specs/BUNDLE_SPEC.md``);
2. when the registry has no referrers API (a 404), the referrers tag schema: the
   index tagged ``sha256-<hex>`` lists the same manifests;
3. when neither lists a bundle, cosign's tag scheme (``specs/SIGNATURE_SPEC.md``):
   the manifest tagged ``sha256-<hex>.sig``, one layer per signature, each a
   simple-signing payload (``application/vnd.dev.cosign.simplesigning.v1+json``)
   with its signature in the ``dev.cosignproject.cosign/signature`` annotation and,
   for a keyless one, ``dev.sigstore.cosign/certificate``, ``.../chain`` and
   ``.../bundle``.

Every manifest and blob read is bounded and checked against its digest; at most
`MAX_FOUND` referrers listed as bundles (``artifactType``), then at most `MAX_FOUND`
that do not say, until `MAX_FOUND` bundles are found (and `MAX_FOUND` layers of the
``.sig`` tag) are read.
`attach` writes the first form: the bundle as a blob, the referrer manifest by its
digest, and, when the registry did not answer with ``OCI-Subject`` (it has no
referrers API), the ``sha256-<hex>`` index updated with it, as cosign does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from satchel.core._model import model
from satchel.install._cosign import BUNDLE, PREDICATE, SIMPLE_SIGNING
from satchel.install._oci import (
    DIGEST,
    MANIFEST_CAP,
    OCI_INDEX,
    OCI_MANIFEST,
    Manifest,
    Registry,
    digest_of,
)
from satchel.install._oci_layout import EMPTY

__all__ = ["MAX_FOUND", "Attached", "attach", "attached", "referrers_tag", "sig_tag"]

MAX_FOUND = 16
SIGNATURE = "dev.cosignproject.cosign/signature"
CERTIFICATE = "dev.sigstore.cosign/certificate"
CHAIN = "dev.sigstore.cosign/chain"
LOG_BUNDLE = "dev.sigstore.cosign/bundle"
CONTENT = "dev.sigstore.bundle.content"
PREDICATE_NOTE = "dev.sigstore.bundle.predicateType"
CREATED = "org.opencontainers.image.created"


@model
class Attached:
    """One signature found for a manifest digest: `via` says where (``referrers``,
    ``referrers-tag``, ``sig-tag``); `subject` the digest the referrer names; a
    Sigstore `bundle`, or a cosign tag scheme `payload` with its layer's `notes`."""

    via: str
    subject: str
    bundle: bytes | None = None
    payload: bytes | None = None
    notes: Mapping[str, str] = field(default_factory=dict)


def referrers_tag(digest: str) -> str:
    return digest.replace(":", "-", 1)


def sig_tag(digest: str) -> str:
    return referrers_tag(digest) + ".sig"


def attached(registry: Registry, digest: str) -> list[Attached]:
    """The signatures attached to the manifest `digest` (see the module docstring)."""
    index = registry.referrers(digest, BUNDLE)
    via = "referrers"
    if index is None:
        index, via = registry.find(referrers_tag(digest)), "referrers-tag"
    found = _bundles(registry, index, via) if index is not None else []
    if found:
        return found
    legacy = registry.find(sig_tag(digest))
    return _legacy(registry, legacy, digest) if legacy is not None else []


def _bundles(registry: Registry, index: Manifest, via: str) -> list[Attached]:
    rows = index.doc.get("manifests")
    usable = [
        row
        for row in (rows if isinstance(rows, list) else [])
        if isinstance(row, dict) and DIGEST.match(str(row.get("digest", "")))
    ]
    typed = [row for row in usable if row.get("artifactType") == BUNDLE]
    untyped = [row for row in usable if row.get("artifactType") is None]
    out: list[Attached] = []
    # each one read costs a request: at most MAX_FOUND of each, the typed rows first,
    # so that rows that do not say what they are cannot crowd out the bundles listed
    for row in [*typed[:MAX_FOUND], *untyped[:MAX_FOUND]]:
        if len(out) >= MAX_FOUND:
            break
        manifest = registry.manifest(str(row["digest"]))
        if manifest.doc.get("artifactType", _config_type(manifest)) != BUNDLE:
            continue
        subject = manifest.doc.get("subject")
        said = subject.get("digest") if isinstance(subject, dict) else None
        for layer in _layers(manifest, BUNDLE)[:1]:
            body = registry.small_blob(layer["digest"], layer["size"], MANIFEST_CAP)
            out.append(Attached(via, said if isinstance(said, str) else "", bundle=body))
    return out


def _legacy(registry: Registry, manifest: Manifest, digest: str) -> list[Attached]:
    out = []
    for layer in _layers(manifest, SIMPLE_SIGNING)[:MAX_FOUND]:
        payload = registry.small_blob(layer["digest"], layer["size"], MANIFEST_CAP)
        notes = layer.get("annotations")
        kept = {k: v for k, v in notes.items() if isinstance(v, str)} if notes else {}
        out.append(Attached("sig-tag", digest, payload=payload, notes=kept))
    return out


def _config_type(manifest: Manifest) -> object:
    config = manifest.doc.get("config")
    return config.get("artifactType") if isinstance(config, dict) else None


def _layers(manifest: Manifest, media: str) -> list[dict[str, Any]]:
    rows = manifest.doc.get("layers")
    return [
        row
        for row in (rows if isinstance(rows, list) else [])
        if isinstance(row, dict)
        and row.get("mediaType") == media
        and DIGEST.match(str(row.get("digest", "")))
        and isinstance(row.get("size"), int)
        and not isinstance(row.get("size"), bool)
        and row["size"] >= 0
        and (media != SIMPLE_SIGNING or isinstance(row.get("annotations"), dict))
    ]


# --- attaching ---------------------------------------------------------------------


def attach(
    registry: Registry, subject: str, subject_type: str, subject_size: int, bundle: bytes,
    created: str,
) -> str:  # fmt: skip
    """Push `bundle` as a referrer of the manifest `subject`; return the referrer's
    digest. `created` is the RFC 3339 time the annotation records."""
    config = registry.push_blob(b"{}")
    layer = registry.push_blob(bundle)
    notes = {CONTENT: "dsse-envelope", PREDICATE_NOTE: PREDICATE, CREATED: created}
    doc = {
        "schemaVersion": 2,
        "mediaType": OCI_MANIFEST,
        "artifactType": BUNDLE,
        "config": {"mediaType": EMPTY, "digest": config, "size": 2},
        "layers": [{"mediaType": BUNDLE, "digest": layer, "size": len(bundle)}],
        "subject": {"mediaType": subject_type, "digest": subject, "size": subject_size},
        "annotations": notes,
    }
    body = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    pushed, indexed = registry.put_manifest(digest_of(body), OCI_MANIFEST, body)
    if not indexed:
        _index(registry, subject, {
            "mediaType": OCI_MANIFEST, "digest": pushed, "size": len(body),
            "artifactType": BUNDLE, "annotations": notes,
        })  # fmt: skip
    return pushed


def _index(registry: Registry, subject: str, row: dict[str, Any]) -> None:
    """Add `row` to the referrers tag schema's index for `subject`."""
    tag = referrers_tag(subject)
    old = registry.find(tag)
    rows = old.doc.get("manifests") if old is not None else None
    kept = [r for r in (rows if isinstance(rows, list) else []) if isinstance(r, dict)]
    if any(r.get("digest") == row["digest"] for r in kept):
        return
    doc = {"schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": [*kept, row]}
    registry.push_manifest(tag, OCI_INDEX, json.dumps(doc, separators=(",", ":")).encode())

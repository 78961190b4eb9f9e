"""`Signers`: who may have signed what an install fetches, as the user names them."""

from __future__ import annotations

from pathlib import Path

from satchel._model import model

__all__ = ["Signers"]


@model
class Signers:
    """Who may have signed: certificate `identities` (with, when given, their OIDC
    `issuers`), checked against `trust_root` (a ``trusted_root.json``; None: the
    public Sigstore instance's, from the ``sigstore`` library's local cache), and
    public `keys` (PEM, as ``cosign.pub``)."""

    identities: tuple[str, ...] = ()
    issuers: tuple[str, ...] = ()
    keys: tuple[bytes, ...] = ()
    trust_root: Path | None = None

    def names(self) -> str:
        """The signers named, for a message."""
        keys = [f"the key of --key ({len(self.keys)})"] if self.keys else []
        return ", ".join([*self.identities, *keys]) or "nobody"

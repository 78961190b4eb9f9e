"""Install skills and plugins from any source, safely and reproducibly (zidane).

    listing = browse_source("owner/repo")                       # what it holds
    picks = [s for s in listing.skills if s.name in ("tdd", "research")]
    for group in group_picks(picks):                            # one install per source
        install_from_spec(group.source, skills=group.skills, scope="user")

Sources are parsed by `parse_source` into a `Source` (local path, git URL, GitHub
shorthand and URLs, skills.sh links, ``npx skills add`` commands, npm packages, OCI
registries; `publish` pushes a skill or plugin to one).
Fetching runs no code from the source: git with hooks, filters and submodules off,
tarballs through satchel's own extractor, npm without lifecycle scripts. Installs
are staged privately and renamed into place; ``skills.lock`` pins each one (commit
or integrity, and a content hash) for `update`, `install_frozen`, `remove` and
`verify`. Refusals raise `InstallError` with an ``install.*`` code (docs/install.md).
With ``signers=Signers((identity, ...), (issuer, ...))`` an install takes only what
carries a Sigstore bundle by one of them (`verify_bundle`, offline, the ``sign``
extra); the lock records the `Signature`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.install._browse import Listed, Listing, PickGroup, browse_source, group_picks
    from satchel.install._catalogue import Catalogue, CatalogueEntry, EntrySource, read_catalogue
    from satchel.install._errors import InstallError
    from satchel.install._extract import extract_archive
    from satchel.install._installer import Installed, InstallResult
    from satchel.install._lock import Lock, LockEntry, Signature, read_lock
    from satchel.install._manage import (
        Change,
        Checked,
        install_frozen,
        prune,
        remove,
        update,
        verify,
    )
    from satchel.install._marketplaces import (
        Known,
        MarketplaceChange,
        add_marketplace,
        marketplaces,
        remove_marketplace,
        update_marketplaces,
    )
    from satchel.install._plugin_install import install_from_spec, install_plugin
    from satchel.install._publish import Published, publish
    from satchel.install._review import Review, Reviewed
    from satchel.install._scope import FAMILIES, SCOPES, Scope, scope_for
    from satchel.install._settings import Limits, Settings
    from satchel.install._signatures import Signers, signing_manifest, verify_bundle
    from satchel.install._sources import Source, parse_source
else:
    from satchel import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.install._catalogue": (
                "Catalogue",
                "CatalogueEntry",
                "EntrySource",
                "read_catalogue",
            ),
            "satchel.install._browse": (
                "Listed",
                "Listing",
                "PickGroup",
                "browse_source",
                "group_picks",
            ),
            "satchel.install._errors": ("InstallError",),
            "satchel.install._extract": ("extract_archive",),
            "satchel.install._installer": ("Installed", "InstallResult"),
            "satchel.install._lock": ("Lock", "LockEntry", "Signature", "read_lock"),
            "satchel.install._manage": (
                "Change",
                "Checked",
                "install_frozen",
                "prune",
                "remove",
                "update",
                "verify",
            ),
            "satchel.install._review": ("Review", "Reviewed"),
            "satchel.install._marketplaces": (
                "Known",
                "MarketplaceChange",
                "add_marketplace",
                "marketplaces",
                "remove_marketplace",
                "update_marketplaces",
            ),
            "satchel.install._plugin_install": ("install_from_spec", "install_plugin"),
            "satchel.install._publish": ("Published", "publish"),
            "satchel.install._scope": ("FAMILIES", "SCOPES", "Scope", "scope_for"),
            "satchel.install._settings": ("Limits", "Settings"),
            "satchel.install._signatures": ("Signers", "signing_manifest", "verify_bundle"),
            "satchel.install._sources": ("Source", "parse_source"),
        },
    )

__all__ = [
    "add_marketplace",
    "browse_source",
    "Catalogue",
    "CatalogueEntry",
    "Change",
    "Checked",
    "EntrySource",
    "extract_archive",
    "FAMILIES",
    "group_picks",
    "install_from_spec",
    "install_frozen",
    "install_plugin",
    "Installed",
    "InstallError",
    "InstallResult",
    "Known",
    "Limits",
    "Listed",
    "Listing",
    "Lock",
    "LockEntry",
    "MarketplaceChange",
    "marketplaces",
    "parse_source",
    "PickGroup",
    "prune",
    "publish",
    "Published",
    "read_catalogue",
    "read_lock",
    "remove",
    "remove_marketplace",
    "Review",
    "Reviewed",
    "Scope",
    "scope_for",
    "SCOPES",
    "Settings",
    "Signature",
    "Signers",
    "signing_manifest",
    "Source",
    "update",
    "update_marketplaces",
    "verify",
    "verify_bundle",
]

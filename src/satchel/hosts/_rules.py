"""What each word a host definition sets means, as data the loaders read: a plugin
skill rule, a marketplace file, a list of trusted folders, the top-level skill fields
a client moves into metadata. A loader looks the word up here instead of naming a
host.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal, get_args

from satchel.core._model import model
from satchel.hosts._vocabulary import SkillRule, TrustListName
from satchel.skills._fields import DEPRECATED

__all__ = [
    "CatalogueFormat",
    "GEMINI_TRUSTED_FOLDERS",
    "MARKETPLACES",
    "Marketplace",
    "MetadataRule",
    "PLUGIN_SKILL_RULES",
    "PluginSkillRule",
    "TRUST_LISTS",
    "TRUST_LIST_NAMES",
    "TrustSource",
]


@model
class PluginSkillRule:
    """How a plugin's skill folders are checked: with `name_is_folder` a skill's
    ``name`` must equal its folder's name (else ``plugin.skill.invalid``: Vibe);
    without, a Claude Code plugin's skill is named by its folder and a differing
    ``name`` is reported."""

    name_is_folder: bool = False


PLUGIN_SKILL_RULES: Mapping[SkillRule, PluginSkillRule] = MappingProxyType(
    {
        "claude-code": PluginSkillRule(),
        "vibe": PluginSkillRule(name_is_folder=True),
    }
)

CatalogueFormat = Literal["claude", "codex", "cursor"]


@model
class Marketplace:
    """A marketplace (catalogue) file of one plugin format: where it sits below the
    marketplace's folder (`file`; that folder is the one relative sources resolve
    against and, without a ``name``, names the catalogue), and whether its ``name``
    is required (Codex's may go without), whether an entry may give a version, and the
    plugin names an entry may give."""

    file: str
    name_required: bool = True
    # whether an entry may give a `version` (Cursor's schema closes an entry to name,
    # source, description and minClientVersions: cursor/plugins schemas/marketplace.schema.json)
    versioned: bool = True
    # the plugin names an entry may give (None: any); `names_say` says what it allows
    names: str | None = None
    names_say: str = ""

    @property
    def depth(self) -> int:
        """How many folders lie between the marketplace's folder and the file."""
        return len(self.file.split("/")) - 1


MARKETPLACES: Mapping[CatalogueFormat, Marketplace] = MappingProxyType(
    {
        "claude": Marketplace(".claude-plugin/marketplace.json"),
        "codex": Marketplace(".agents/plugins/marketplace.json", name_required=False),
        "cursor": Marketplace(
            ".cursor-plugin/marketplace.json",
            versioned=False,
            names=r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?",
            names_say="lowercase letters, digits, '.' and '-', starting and ending with a "
            "letter or digit",
        ),
    }
)

TRUST_LIST_NAMES: tuple[TrustListName, ...] = get_args(TrustListName)
GEMINI_TRUSTED_FOLDERS = ".gemini/trustedFolders.json"
TRUST_LISTS: Mapping[TrustListName, str | None] = MappingProxyType(
    {
        "satchel": None,  # satchel's own list, with the pins it approved
        "gemini": GEMINI_TRUSTED_FOLDERS,  # under the home: folder -> verdict
    }
)
"""Each list of trusted folders: None for satchel's own, else the host's file of
folder verdicts under the home (``TRUST_FOLDER``, ``TRUST_PARENT``, ``DO_NOT_TRUST``)."""


@model
class MetadataRule:
    """Of the top-level SKILL.md fields satchel moves into ``metadata`` as
    ``<client>.<field>`` (``model``, ``thinking``, ``paths``), the ones the client
    calls deprecated (``skill.field.deprecated``); the others are read as the host's
    own fields as well (Claude Code's ``model`` and ``paths``)."""

    deprecated: tuple[str, ...] = DEPRECATED


@model
class TrustSource:
    """Where a host records the folders it trusts, for `satchel trust --from HOST`: a
    JSON file (`path`, a template with ``{home}``), the `keys` that lead to a map of
    absolute folder -> record, and the record's `flag` that is true for a trusted
    folder (Claude Code: ``~/.claude.json``, ``projects``, ``hasTrustDialogAccepted``)."""

    path: str
    keys: tuple[str, ...] = ()
    flag: str = ""

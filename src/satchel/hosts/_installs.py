"""`Installs`: where a host records the plugins it installed and where each came from,
as data its host definition sets (read by `satchel outdated`).

Three shapes of record are known, each named by what it is, not by its host:

* ``records``: one record file of installed plugins in `folder` (`records`), each id
  ``<name>@<marketplace>`` with the folder of its cached copy, and one file of the
  marketplaces the host knows (`marketplaces`: each with its ``source`` and the
  ``installLocation`` of its clone or folder on disk).
* ``config``: the plugins the host's `HostState` lists in its user config file, their
  copies in its plugin cache, and the marketplaces in the table `marketplaces` of the
  same file (``source_type``, ``source``, ``ref``).
* ``folders``: one folder per installed plugin below `folder`, each holding the
  host's install metadata file (`metadata`: ``source`` and ``type``, ``ref``), which
  the host wrote beside the copied files and which is no part of the source.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from satchel.core._model import model
from satchel.core.layout import Layout

__all__ = ["Installs", "RecordShape"]

RecordShape = Literal["records", "config", "folders"]


@model
class Installs:
    """Where one host keeps what it installed (see the module docstring)."""

    shape: RecordShape
    folder: str = ""  # a template of {home}: the host's plugins or extensions folder
    records: str | None = None  # the record file in `folder`
    marketplaces: str | None = None  # the marketplaces file in `folder`, or config table
    metadata: str | None = None  # each installed folder's install metadata file
    # the folder of the host's home holding its clone of each git marketplace, by name
    clones: str | None = None
    # the metadata ``type`` whose folder is the source itself, always current
    linked: str | None = None
    # the names at a plugin's root the host leaves out when it copies one, or adds
    skipped: tuple[str, ...] = ()

    def folder_path(self, layout: Layout) -> Path:
        """`folder` for `layout`'s home."""
        return Path(self.folder.format(home=str(layout.home)))

    def to_json(self) -> dict[str, object]:
        return {
            "shape": self.shape,
            "folder": self.folder,
            "records": self.records,
            "marketplaces": self.marketplaces,
            "metadata": self.metadata,
            "clones": self.clones,
            "linked": self.linked,
            "skipped": list(self.skipped),
        }

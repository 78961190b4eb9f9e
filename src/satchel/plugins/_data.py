"""``PLUGIN_DATA``: a persistent, writable directory per plugin, kept across updates.

Each plugin gets ``<data root>/<name>`` (the data root is the user data directory:
``~/.local/share/satchel/plugin-data`` by default, `Layout.data_root`). Loading only
computes the path; `ensure_data_dir` creates it (mode 0700) right before a server or
hook of the plugin starts, so reading plugins writes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from satchel.core.layout import Layout
from satchel.plugins._model import Plugin

__all__ = ["data_dir", "ensure_data_dir"]


def data_dir(layout: Layout, plugin: Plugin) -> Path | None:
    """The plugin's data directory (None when the layout has no data root)."""
    if layout.data_root is None:
        return None
    return layout.data_root / plugin.name


def ensure_data_dir(path: Path) -> Path:
    """Create `path` (and its parents) if needed, private to the user; return it.
    Refuses a symlink where the directory should be (`NotADirectoryError`)."""
    if os.path.islink(path):
        raise NotADirectoryError(f"the plugin data directory is a symlink: {path}")
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.is_dir():
        raise NotADirectoryError(f"the plugin data path is not a directory: {path}")
    return path

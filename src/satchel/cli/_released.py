"""What `satchel validate` says of a plugin's version, from its repository.

Two checks, added to the plugin's diagnostics: its files changed after its current
version was released (`satchel.install._unbumped`, read from git), and a marketplace
of its repository lists it with another version (`satchel.install._listed_version`).
Imported only when a plugin is validated; the git commands it starts end with satchel
on SIGTERM, SIGHUP or Ctrl-C.
"""

from __future__ import annotations

import os
from dataclasses import replace

from satchel.cli._plugin import PluginCheck
from satchel.foundations.process._live import ending_on_signals
from satchel.install._listed_version import listed_versions
from satchel.install._unbumped import unbumped
from satchel.plugins._read import manifest_file

__all__ = ["versioned"]


def versioned(c: PluginCheck) -> PluginCheck:
    """`c` with what the plugin's repository says of its version (nothing when it did
    not load or has no manifest)."""
    manifest = None if c.plugin is None else manifest_file(c.plugin)
    if c.plugin is None or manifest is None:
        return c
    with ending_on_signals():
        said = unbumped(c.plugin, manifest, os.environ)
    said += listed_versions(c.plugin, manifest)
    return replace(c, diagnostics=(*c.diagnostics, *said))

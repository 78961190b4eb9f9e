"""A plugin folder that is a link to a folder elsewhere, as the host's install record
says (`satchel.foundations._host_settings.PluginLink`; Gemini CLI's ``gemini extensions link``).

    root, problem = linked_folder(Path("~/.gemini/extensions/deploy"), rule)

The record is the only file satchel reads in such a folder. A record whose type is not
the link type (Gemini CLI's ``local`` or ``git`` installs, which copy the extension
into the folder) leaves the folder read as it is. A link is the one place a plugin
root is taken from outside the plugins folder: the record names it, it must be an
absolute path to a directory (else ``plugin.link.missing`` and nothing of the plugin
loads, as the host skips it), and the plugin's own files are then read within that
folder only, as any plugin root. A record that cannot be read is not a link. Nothing
is written or run.
"""

from __future__ import annotations

import os
from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import is_dir, is_file, probe_json
from satchel.foundations._host_settings import PluginLink

__all__ = ["linked_folder"]


def linked_folder(folder: Path, rule: PluginLink | None) -> tuple[Path | None, Diagnostic | None]:
    """The folder to read as the plugin `folder`: itself, or the folder its record
    links to; None and why when the link leads nowhere."""
    if rule is None or not is_file(folder / rule.file):
        return folder, None
    record = folder / rule.file
    data, _ = probe_json(record)
    if not isinstance(data, dict) or data.get(rule.type_key) != rule.link:
        return folder, None
    source = data.get(rule.source_key)
    if not isinstance(source, str) or not os.path.isabs(source):
        why = f"its {rule.source_key!r} is not an absolute path"
    elif not is_dir(Path(source)) or not os.access(source, os.R_OK | os.X_OK):
        why = f"{source} is not a readable directory"
    else:
        return Path(source), None
    message = f"the plugin {folder.name!r} is a link ({rule.file}), but {why}; nothing of it loads"
    return None, diagnostic("plugin.link.missing", message, record)

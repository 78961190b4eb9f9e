"""The plugin directory's submission checks, as Claude Code 2.1.337 runs them
(``claude plugin validate --json [--profile directory]``, its ``directory`` section).

    findings = directory_findings(root, plugin)

Each finding keeps Claude Code's code (``README_MISSING``), severity, whether it blocks
a submission (an error does) and its fix, and becomes a satchel diagnostic
(``plugin.directory.readme_missing``) whose message starts with that code and whose
hint is the fix. The rules, read from the 2.1.337 binary (its ``lintPluginForDirectory``):

- ``README_MISSING``: none of ``README.md``, ``readme.md``, ``Readme.md``,
  ``README.markdown``, ``README``, ``README.txt``, ``docs/README.md`` is a regular file
  in the plugin, nor (for a plugin below a repository root, the nearest parent with a
  ``.git``) one of the first six at that root;
- ``README_TRIVIAL``: the README has fewer than 40 words (fenced code left out, a
  link counted as its text, a bare URL not counted);
- ``LICENSE_MISSING``: ``plugin.json`` has no ``license`` and no ``LICENSE``,
  ``LICENSE.md``, ``LICENSE.txt``, ``LICENCE``, ``LICENCE.md``, ``COPYING``,
  ``COPYING.md``, ``LICENSE-MIT`` or ``LICENSE-APACHE`` (any case) is in the plugin
  folder or at the repository root;
- ``ICON_MISSING``: no ``icon`` in ``plugin.json`` and none of its icon paths
  (``.claude-plugin/icon.svg`` or ``.png``, ``icon.svg``, ``icon.png``,
  ``assets/icon.*``, ``assets/logo.*``, ``images/icon.*``) is a file;
- ``ICON_INVALID``: the icon file found there, or the file ``icon`` names, is not the
  image its extension says (PNG, JPEG, WebP signatures; an SVG without script, event
  handlers, style or outside references), or ``icon`` names no file in the plugin;
- ``PRIVACY_URL_MISSING``: the plugin connects to a remote service (an MCP server
  over HTTP or SSE with a URL, or an ``http`` hook) and ``plugin.json`` has no
  https ``privacyPolicyUrl``;
- ``ARCHIVE_OS_METADATA_FILE``: a ``.DS_Store``, ``Thumbs.db`` or ``desktop.ini``, or a
  file under ``__MACOSX``, is in the plugin (at most 20 named).

Not checked here (Claude Code checks them): whether the README renders in the listing
preview (``README_NOT_RENDERED``), URL schemes of listing links (``LISTING_URL_SCHEME``), a privacy
link in the README standing in for ``privacyPolicyUrl``, and the name rules of a
plugin without a manifest. Reading runs nothing.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.plugins._model import Plugin

__all__ = ["Finding", "count_words", "directory_findings", "usable_icon"]

MANIFEST = ".claude-plugin/plugin.json"
READMES = (
    "README.md",
    "readme.md",
    "Readme.md",
    "README.markdown",
    "README",
    "README.txt",
    "docs/README.md",
)
ROOT_READMES = tuple(sorted(r for r in READMES if "/" not in r))
LICENSES = (
    "LICENSE",
    "LICENSE.md",
    "LICENSE.txt",
    "LICENCE",
    "LICENCE.md",
    "COPYING",
    "COPYING.md",
    "LICENSE-MIT",
    "LICENSE-APACHE",
)
ICONS = (
    ".claude-plugin/icon.svg",
    ".claude-plugin/icon.png",
    "icon.svg",
    "icon.png",
    "assets/icon.svg",
    "assets/icon.png",
    "assets/logo.svg",
    "assets/logo.png",
    "images/icon.png",
    "images/icon.svg",
)
SYSTEM_FILES = frozenset((".DS_Store", "Thumbs.db", "desktop.ini"))
MIN_WORDS = 40
MAX_README = 256 * 1024
MAX_ENTRIES = 20_000
MAX_DEPTH = 32
MAX_NAMED = 20
REPOSITORY_DEPTH = 32
_URL = re.compile(r"https?://[^ \t\n\f\r)<>\"']+")
_LINK = re.compile(r"\[([^\]]{0,160})\]\((https?://[^ \t\n\f\r)]+)\)")

# Claude Code's code -> (satchel's code, title, fix)
_RULES = {
    "README_MISSING": ("plugin.directory.readme_missing", "README missing",
        "Add a README.md to the plugin folder describing what the plugin does, how to use "
        "it, and any setup it needs, in at least 40 words. A README at the repository root "
        "also counts for a plugin in a sub-folder."),
    "README_TRIVIAL": ("plugin.directory.readme_trivial", "README too short or couldn’t be read",
        "Add a few sentences on what the plugin does, how to use it and any setup it needs: "
        "at least 40 words in all."),
    "LICENSE_MISSING": ("plugin.directory.license_missing", "License missing",
        "Add a LICENSE file to the plugin folder, or set `license` (an SPDX id) in "
        "plugin.json. A LICENSE at the repository root also counts for a plugin in a "
        "sub-folder."),
    "ICON_MISSING": ("plugin.directory.icon_missing", "No icon",
        "Add a square PNG to the plugin folder at .claude-plugin/icon.png, or set `icon` in "
        "plugin.json to the path of a square PNG or JPEG in the plugin: 512 to 2048 px on "
        "each side, under 2 MB. SVG and WebP are not accepted. That file may become the "
        "listing icon only once: the first time the plugin is saved or submitted in the "
        "developer portal. Adding or changing it later does not change the icon."),
    "PRIVACY_URL_MISSING": ("plugin.directory.privacy_url_missing", "No privacy policy URL",
        "Set `privacyPolicyUrl` in plugin.json."),
    "ICON_INVALID": ("plugin.directory.icon_invalid", "Icon can’t be used", None),
    "PATH_TRAVERSAL": ("plugin.directory.path_traversal", "Path climbs out of the plugin",
        "Reference the file by its plain plugin-relative path (./servers.json)."),
    "ARCHIVE_OS_METADATA_FILE": ("plugin.directory.os_metadata_file",
        "macOS or Windows system file in the plugin", None),
}  # fmt: skip


@model
class Finding:
    """One plugin directory finding: Claude Code's `code`, satchel's `satchel_code`,
    its `severity`, whether it is `blocking` (refuses a submission), the `file` and
    manifest `field` concerned, the `message` and the `fix` (None when there is none)."""

    code: str
    satchel_code: str
    title: str
    severity: str
    blocking: bool
    file: str
    field: str
    message: str
    fix: str | None

    def diagnostic(self, root: Path) -> Diagnostic:
        """The satchel diagnostic: its message starts with Claude Code's code."""
        path = root / self.file if self.file else root
        return diagnostic(self.satchel_code, f"{self.code}: {self.message}", path, hint=self.fix)

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "satchel_code": self.satchel_code,
            "title": self.title,
            "severity": self.severity,
            "blocking": self.blocking,
            "file": self.file,
            "field": self.field,
            "message": self.message,
            "fix": self.fix,
        }


def directory_findings(root: Path, plugin: Plugin | None) -> tuple[Finding, ...]:
    """The plugin directory's findings for the plugin folder `root` (read as `plugin`,
    None when it did not load), blocking ones first, in Claude Code's order."""
    manifest = dict(plugin.manifest) if plugin is not None else {}
    found = [*_readme(root), *_license(root, manifest), *_traversals(manifest)]
    found += _icon(root, manifest)
    if plugin is not None and _remote(plugin) and not _https(manifest.get("privacyPolicyUrl")):
        found.append(
            _finding(
                "PRIVACY_URL_MISSING",
                MANIFEST,
                "privacyPolicyUrl",
                "This plugin connects to a remote MCP server or HTTP hook but declares no privacy "
                "policy URL (plugin.json `privacyPolicyUrl`, or a 'Privacy' link in README).",
            )
        )
    found += _system_files(root)
    return tuple(sorted(found, key=lambda f: 0 if f.blocking else 1))


_ERRORS = frozenset(("README_MISSING", "README_TRIVIAL", "LICENSE_MISSING", "PATH_TRAVERSAL"))


def _finding(code: str, file: str, field: str, message: str, *, fixed: bool = True) -> Finding:
    satchel_code, title, fix = _RULES[code]
    fix = fix if fixed else None
    severity = "error" if code in _ERRORS else "warning"
    return Finding(code, satchel_code, title, severity, severity == "error", file, field,
                   message, fix)  # fmt: skip


def _readme(root: Path) -> Iterator[Finding]:
    own = _first_file(root, READMES)
    repository = None if own is not None else _repository_root(root)
    shown, text = (own, _text(root / own)) if own is not None else (None, None)
    if own is None and repository is not None:
        found = _first_file(repository, ROOT_READMES)
        if found is not None:
            shown, text = found, _text(repository / found)
    if shown is None:
        yield _finding(
            "README_MISSING",
            "README.md",
            "",
            "This plugin has no README.md. People who install it and the directory's "
            "automated review read the README to learn what it does; the first line of a "
            "README in the plugin folder also stands in as the listing summary when "
            "plugin.json has no description.",
        )
        return
    what = (
        "README"
        if own is not None
        else ("The repository-root README (this plugin folder has none of its own)")
    )
    if text is None:
        yield _finding(
            "README_TRIVIAL",
            shown,
            "",
            f"{what} was found but could not be "
            "opened or read, so the listing has no usable description.",
        )
        return
    words = count_words(text)
    if words < MIN_WORDS:
        yield _finding(
            "README_TRIVIAL",
            shown,
            "",
            f"{what} has {words} words; at least "
            f"{MIN_WORDS} are required so the listing has a usable description.",
        )


def count_words(text: str) -> int:
    """Words as the directory counts them: fenced code left out, a link its text, a
    bare URL nothing."""
    count, fenced = 0, False
    for line in text.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        plain = _URL.sub("", _LINK.sub(lambda m: m.group(1), line))
        count += len(plain.split())
    return count


def _license(root: Path, manifest: dict[str, object]) -> Iterator[Finding]:
    declared = manifest.get("license")
    if isinstance(declared, str) and declared.strip():
        return
    if _license_file(root):
        return
    repository = _repository_root(root)
    if repository is not None and _license_file(repository):
        return
    yield _finding(
        "LICENSE_MISSING",
        "LICENSE",
        "",
        "This plugin has no LICENSE file and "
        "plugin.json has no `license`. The directory requires one of them.",
    )


def _icon(root: Path, manifest: dict[str, object]) -> Iterator[Finding]:
    given = manifest.get("icon")
    icon = given.strip() if isinstance(given, str) else ""
    found = _first_file(root, ICONS)
    if found is None and not icon:
        yield _finding(
            "ICON_MISSING",
            MANIFEST,
            "icon",
            "No icon found in the plugin. The "
            "validator looked for `icon` in plugin.json and for a file at "
            ".claude-plugin/icon.png or .svg, assets/icon.png or .svg, or a similar path.",
        )
        return
    relative = icon.removeprefix("./")
    if found is not None and found != relative and not usable_icon(found, _head(root / found)):
        yield _finding("ICON_INVALID", found, "", UNUSABLE_ICON)
    remote = "://" in icon or icon.startswith("//") or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", icon)
    if not icon or remote:
        return
    outside = ".." in relative.split("/") or relative.startswith("/")
    if outside or _first_file(root, (relative,)) is None:
        yield _finding(
            "ICON_INVALID",
            MANIFEST,
            "icon",
            f"manifest `icon` points at {json.dumps(icon)}, which is not a file in the plugin.",
        )
    elif not usable_icon(relative, _head(root / relative)):
        yield _finding("ICON_INVALID", relative, "", UNUSABLE_ICON)


def _traversals(manifest: dict[str, object]) -> Iterator[Finding]:
    """A ``..`` in the paths Claude Code's directory check reads: `icon`, `mcpServers`
    (a path or a list of them) and `hooks` (each path numbered, a lone one as ``[0]``)."""
    fields: list[tuple[str, object]] = [("icon", manifest.get("icon"))]
    servers = manifest.get("mcpServers")
    if isinstance(servers, list):
        fields += [(f"mcpServers[{n}]", item) for n, item in enumerate(servers)]
    else:
        fields.append(("mcpServers", servers))
    hooks = manifest.get("hooks")
    listed = hooks if isinstance(hooks, list) else [hooks]
    fields += [(f"hooks[{n}]", item) for n, item in enumerate(listed)]
    for field, value in fields:
        if isinstance(value, str) and ".." in value:
            why = f'Path contains ".." which could be a path traversal attempt: {value}'
            hook = field.startswith("hooks")  # Claude Code gives no fix for a hook's path
            yield _finding("PATH_TRAVERSAL", MANIFEST, field, why, fixed=not hook)


UNUSABLE_ICON = (
    "Icon file is not a usable SVG/PNG (unrecognised format, or an SVG with script, event "
    "handlers, foreignObject, animation, style or non-fragment references)."
)
_SVG_TAGS = re.compile(r"<\s*(?:script|foreignobject|animate|animatemotion|animatetransform|set|"
                       r"discard|style|iframe|embed|object)\b", re.I)  # fmt: skip
_SVG_EVENTS = re.compile(r"\son[a-z]+\s*=", re.I)
_SVG_HREF = re.compile(r"href\s*=\s*(?:[\"']\s*)?[^\"'#\s>]", re.I)


def usable_icon(name: str, data: bytes | None) -> bool:
    """An icon file the directory can use: its bytes are the image its extension says
    (a PNG, JPEG or WebP signature; an SVG with no script, handler, style or outside
    reference)."""
    if data is None or len(data) < 12:
        return False
    suffix = os.path.splitext(name)[1].lower()
    if suffix == ".png":
        return data[:8] == b"\x89PNG\r\n\x1a\n"
    if suffix in (".jpg", ".jpeg"):
        return data[:3] == b"\xff\xd8\xff"
    if suffix == ".webp":
        return data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    if suffix != ".svg":
        return False
    text = data.decode("utf-8", errors="replace")
    low = text.lower()
    bare = re.sub(r"<!--.*?(-->|$)", "", low, flags=re.S)
    return (
        "<svg" in low[:1024]
        and "<!doctype" not in bare
        and "<!entity" not in bare
        and not _SVG_TAGS.search(text)
        and not _SVG_EVENTS.search(text)
        and not _SVG_HREF.search(text)
        and "javascript:" not in low
        and "@import" not in low
    )


def _head(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read(2 * 1024 * 1024 + 1)
    except OSError:
        return None


def _remote(plugin: Plugin) -> bool:
    servers = any(s.transport != "stdio" and (s.url or "").strip() for s in plugin.mcp_servers)
    return servers or any(h.type == "http" for h in plugin.hooks)


def _https(value: object) -> bool:
    return isinstance(value, str) and bool(re.match(r"^https://[^\s/?#@]+", value.strip()))


def _system_files(root: Path) -> Iterator[Finding]:
    found: list[str] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        relative = os.path.relpath(folder, root)
        depth = 0 if relative == "." else relative.count(os.sep) + 1
        if depth == 0 and ".git" in dirs:
            dirs.remove(".git")
        dirs[:] = [d for d in dirs if depth < MAX_DEPTH and not os.path.islink(Path(folder, d))]
        inside = f"/{relative}/".replace(os.sep, "/")
        for name in files:
            seen += 1
            if name in SYSTEM_FILES or "/__MACOSX/" in inside:
                found.append(name if relative == "." else f"{relative}/{name}")
        if seen >= MAX_ENTRIES:
            break
    for file in sorted(found)[:MAX_NAMED]:
        yield _finding(
            "ARCHIVE_OS_METADATA_FILE",
            file,
            "",
            "This is a macOS or Windows "
            "system file (.DS_Store, Thumbs.db, desktop.ini, or anything under __MACOSX), not "
            "part of your plugin. The directory cannot scan or list a plugin that contains "
            "one. Remove it from the repository (git rm --cached the file, commit and push, "
            "and add the name to .gitignore), then validate again.",
        )


def _first_file(base: Path, names: tuple[str, ...]) -> str | None:
    for name in names:
        path = base / name
        if path.is_file() and not any(p.is_symlink() for p in _steps(base, name)):
            return name
    return None


def _steps(base: Path, name: str) -> Iterator[Path]:
    path = base
    for part in name.split("/"):
        path = path / part
        yield path


def _license_file(folder: Path) -> bool:
    wanted = {name.lower() for name in LICENSES}
    try:
        with os.scandir(folder) as listing:
            return any(e.is_file(follow_symlinks=False) and e.name.lower() in wanted
                       for e in listing)  # fmt: skip
    except OSError:
        return False


def _repository_root(root: Path) -> Path | None:
    """The nearest parent of `root` with a ``.git`` (None when `root` holds one itself
    or none is found): the directory reads its README and license there."""
    if os.path.lexists(root / ".git"):
        return None
    folder = root.parent
    for _ in range(REPOSITORY_DEPTH):
        if os.path.lexists(folder / ".git"):
            return folder
        if folder.parent == folder:
            return None
        folder = folder.parent
    return None


def _text(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_README + 1)
    except OSError:
        return None
    if len(data) > MAX_README:
        return None
    return data.decode("utf-8", errors="replace")

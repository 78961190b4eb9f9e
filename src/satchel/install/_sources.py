"""One parser from every way of naming a source to a typed, frozen `Source`.

Zidane's forms, and a few more:

- a local path: ``./skills``, ``../x``, ``/abs/dir``, ``~/dir`` (a directory, or a
  ``.tar.gz``, ``.tgz``, ``.tar`` or ``.zip`` archive);
- a git URL: ``https://host/path.git``, ``ssh://host/path``, ``git@host:path``,
  ``git://host/path``, ``file:///path``, each with an optional ``#ref[:subdir]``;
- GitHub: ``owner/repo``, ``owner/repo/path/to/folder``, ``owner/repo#ref``,
  ``owner/repo:subdir``, ``owner/repo#ref:subdir``, ``github:owner/repo``,
  ``https://github.com/owner/repo`` and ``.../tree/<ref>/<path>``;
- skills.sh: ``skills.sh/<owner>/<repo>[/<skill>]``, with or without ``https://``;
- a pasted ``npx skills add <source> [--skill NAME ...]`` command;
- npm: ``npm:<package>[@<version or dist-tag>]``, scoped packages included;
- an archive on a web server: ``archive:https://host/path.tar.gz[#sha256=<hex>][:subdir]``
  (a catalogue's ``archive`` source), pinned by its sha256 when one is given.
- an OCI registry: ``oci://<registry>/<repository>[:<tag>]`` or
  ``oci://<registry>/<repository>@sha256:<digest>`` (see `satchel.install._oci`).
- a site's skills index (the Agent Skills discovery draft): ``https://example.com``
  (the origin alone), or its index URL ``https://example.com/.well-known/agent-skills/index.json``
  (or the older ``/.well-known/skills/index.json``), each with an optional ``#skill-name``;
  ``well-known:`` before either says so outright (see `satchel.install._wellknown`).
- an MCP server serving the Skills extension: ``mcp+stdio:COMMAND ARGS...`` (the
  command line, split as a POSIX shell would, never run by a shell) or
  ``mcp+https://host/path`` (streamable HTTP; ``mcp+http://`` only for a loopback host),
  see `satchel.install._mcp`.

The parser is strict (threat model I07): owners, repositories, refs, subdirectories
and package names are checked against narrow patterns, so nothing that reaches git
or a URL can start with ``-``, hold whitespace, a shell character, ``..`` or a
transport such as ``ext::``. Plain ``http://`` is accepted only for loopback hosts.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import SplitResult, urlsplit

from satchel.core._model import model
from satchel.foundations._net import LOOPBACK_NAMES
from satchel.install._errors import InstallError, refuse
from satchel.install._settings import Settings

__all__ = [
    "ACCEPTED",
    "WELL_KNOWN",
    "WELL_KNOWN_OLD",
    "Kind",
    "Source",
    "is_skill_name",
    "parse_source",
]

Kind = Literal["local", "git", "github", "npm", "archive", "oci", "mcp", "wellknown"]

ACCEPTED = (
    "accepted forms: owner/repo, owner/repo/path, owner/repo#ref, owner/repo:subdir, "
    "owner/repo#ref:subdir, https://github.com/owner/repo/tree/<ref>/<path>, "
    "skills.sh/<owner>/<repo>[/<skill>], npx skills add <source> [--skill NAME], "
    "npm:<package>[@<version>], archive:https://host/file.tar.gz[#sha256=HEX], "
    "oci://<registry>/<repository>[:<tag> or @sha256:<digest>], "
    "mcp+stdio:COMMAND ARGS..., mcp+https://host/path, "
    "https://site[#skill-name] or well-known:https://site[#skill-name] (a site's skills index), "
    "a git URL (https://, ssh://, git@host:path, git://, file://) with #ref[:subdir], "
    "or a local path starting with ./, ../, / or ~/"
)

_OWNER = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\Z")
_REPO = re.compile(r"[A-Za-z0-9_.-]{1,100}\Z")
_REF = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./+-]{0,254}\Z")
_SEGMENT = re.compile(r"[A-Za-z0-9_.@+-]{1,255}\Z")
_NPM_NAME = re.compile(r"(?:@[a-z0-9][a-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~-]{0,213}\Z")
_NPM_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,127}\Z")
# the OCI distribution spec's repository name, tag and digest (sha256 only), and a host[:port]
_OCI_REPO = re.compile(
    r"[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*\Z"
)
_OCI_TAG = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,127}\Z")
_OCI_DIGEST = re.compile(r"sha256:[a-f0-9]{64}\Z")
_OCI_HOST = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[::1\])(?::[0-9]{1,5})?\Z"
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SCP = re.compile(r"(?P<user>[A-Za-z0-9_.-]+)@(?P<host>[A-Za-z0-9.-]+):(?P<path>[^:]+)\Z")
_GIT_SCHEMES = ("https", "http", "ssh", "git", "file")
_NPX = ("npx", "bunx")
_SHA256 = re.compile(r"sha256=[0-9a-f]{64}\Z")
# the index paths of the discovery draft (0.2.0, and the 0.1.0 one it renamed)
WELL_KNOWN = "/.well-known/agent-skills/index.json"
WELL_KNOWN_OLD = "/.well-known/skills/index.json"
# a site's origin, its index's folder, or the index itself (either version's path)
_SITE_PATHS = {
    "": WELL_KNOWN,
    "/": WELL_KNOWN,
    "/.well-known/agent-skills": WELL_KNOWN,
    "/.well-known/agent-skills/": WELL_KNOWN,
    WELL_KNOWN: WELL_KNOWN,
    "/.well-known/skills": WELL_KNOWN_OLD,
    "/.well-known/skills/": WELL_KNOWN_OLD,
    WELL_KNOWN_OLD: WELL_KNOWN_OLD,
}
_SKILL_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")


@model
class Source:
    """Where skills come from.

    `location` is an absolute path (``local``), a URL (``git``), ``owner/repo``
    (``github``), a package name (``npm``), ``registry/repository`` (``oci``) or, for
    ``mcp``, ``stdio:<command line>`` or the server's URL, or a site's index URL
    (``wellknown``). `ref`
    is the git ref, the npm version or dist-tag, or the OCI tag or ``sha256:`` digest
    asked for (None: the default branch, ``latest``, or the tag ``latest``). `subdir` is a
    POSIX path inside the source. `skills` are the picks the form itself names (a
    skills.sh skill, ``--skill`` in a pasted command)."""

    kind: Kind
    location: str
    ref: str | None = None
    subdir: str = ""
    skills: tuple[str, ...] = ()

    def spec(self) -> str:
        """The source as one string `parse_source` reads back (picks left out)."""
        if self.kind == "npm":
            return f"npm:{self.location}" + (f"@{self.ref}" if self.ref else "")
        if self.kind == "oci":
            at = "" if not self.ref else ("@" if self.ref.startswith("sha256:") else ":")
            return f"oci://{self.location}{at}{self.ref or ''}"
        if self.kind == "mcp":
            return f"mcp+{self.location}"
        if self.kind == "wellknown":
            return self.location
        if self.kind == "local":
            return self.location + (f"#:{self.subdir}" if self.subdir else "")
        if self.kind == "archive":
            tail = (self.ref or "") + (f":{self.subdir}" if self.subdir else "")
            return f"archive:{self.location}" + (f"#{tail}" if tail else "")
        tail = (self.ref or "") + (f":{self.subdir}" if self.subdir else "")
        return self.location + (f"#{tail}" if tail else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "location": self.location,
            "ref": self.ref,
            "subdir": self.subdir,
            "skills": list(self.skills),
            "spec": self.spec(),
        }


def parse_source(
    text: str,
    *,
    cwd: str | os.PathLike[str] | None = None,
    home: str | os.PathLike[str] | None = None,
    settings: Settings | None = None,
) -> Source:
    """Read `text` as a source; raise `InstallError` (``install.source.invalid``)
    with the accepted forms when it is none of them. Relative paths are read
    against `cwd` (default: the current directory), ``~`` against `home`."""
    given = text.strip()
    if not given:
        raise _invalid(text, "it is empty")
    if _CONTROL.search(given):
        raise _invalid(text, "it holds a control character")
    if given.startswith("mcp+stdio:"):
        return _mcp_stdio(text, given[len("mcp+stdio:") :])
    first = given.split(None, 1)[0]
    if first in _NPX or first == "pnpm":
        return _npx(given, cwd=cwd, home=home, settings=settings or Settings())
    if any(c.isspace() for c in given):
        raise _invalid(text, "it holds whitespace")
    return _one(given, cwd=cwd, home=home, settings=settings or Settings())


def _one(
    text: str,
    *,
    cwd: str | os.PathLike[str] | None,
    home: str | os.PathLike[str] | None,
    settings: Settings,
) -> Source:
    if text.startswith("-"):
        raise _invalid(text, "it starts with '-'")
    if text.startswith("npm:"):
        return _npm(text, text[4:])
    if text.startswith("archive:"):
        return _archive(text, text[8:])
    if text.startswith("github:"):
        return _github_short(text, text[7:])
    if text.startswith("oci://"):
        return _oci(text, text[6:])
    if text.startswith("mcp+"):
        return _mcp_url(text, text[4:])
    if text.startswith("well-known:"):
        return _well_known(text, text[len("well-known:") :])
    if _is_path(text):
        return _local(text, cwd, home)
    if "://" in text:
        return _url(text, settings)
    scp = _SCP.match(text.split("#", 1)[0])
    if scp is not None:
        return _scp(text, scp)
    host = urlsplit(settings.skills_sh_url).netloc
    if host and text.startswith(f"{host}/"):
        return _skills_sh(text, text[len(host) + 1 :])
    return _github_short(text, text)


def _is_path(text: str) -> bool:
    return text in (".", "..", "~") or text.startswith(("/", "./", "../", "~/"))


def _local(
    text: str, cwd: str | os.PathLike[str] | None, home: str | os.PathLike[str] | None
) -> Source:
    path_text, _, tail = text.partition("#")
    subdir = ""
    if tail:
        if not tail.startswith(":"):
            raise _invalid(text, "a local path takes only #:subdir after it")
        subdir = _subdir(text, tail[1:])
    if path_text == "~" or path_text.startswith("~/"):
        base = Path(home) if home is not None else Path.home()
        path = base / path_text[2:]
    else:
        path = Path(cwd or os.getcwd()) / path_text
    return Source("local", os.path.normpath(os.path.abspath(path)), subdir=subdir)


def _npm(text: str, rest: str) -> Source:
    name, version = rest, None
    at = rest.rfind("@")
    if at > 0:
        name, version = rest[:at], rest[at + 1 :]
        if not _NPM_VERSION.match(version):
            raise _invalid(text, f"{version!r} is not an npm version or dist-tag")
    if not _NPM_NAME.match(name) or ".." in name:
        raise _invalid(text, f"{name!r} is not an npm package name")
    return Source("npm", name, ref=version)


def _web(text: str, url: str, shape: str) -> SplitResult:
    """`url` split, when it is an https:// URL (http:// for a loopback host) that
    carries no credentials; else `Refused`, `shape` saying what the source looks like."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise _invalid(text, shape)
    if parts.scheme == "http" and parts.hostname not in LOOPBACK_NAMES:
        raise _invalid(text, "plain http:// is accepted only for a loopback host; use https://")
    if parts.username or parts.password:
        raise _invalid(text, "a URL may not carry credentials")
    return parts


def _archive(text: str, rest: str) -> Source:
    url, hashed, tail = rest.partition("#")
    pin, _, sub = tail.partition(":")
    _web(text, url, "an archive source is an https:// URL")
    if hashed and pin and not _SHA256.match(pin):
        raise _invalid(text, "an archive pin is sha256=<64 lowercase hex digits>")
    return Source("archive", url, ref=pin or None, subdir=_subdir(text, sub) if sub else "")


def _oci(text: str, rest: str) -> Source:
    """``registry/repository`` with ``:tag`` or ``@sha256:digest`` (or neither)."""
    host, slash, path = rest.partition("/")
    if not slash:
        raise _invalid(text, "it names no repository (oci://<registry>/<repository>)")
    if not _OCI_HOST.match(host):
        raise _invalid(text, f"{host!r} is not a registry host[:port]")
    ref: str | None = None
    if "@" in path:
        path, _, ref = path.partition("@")
        if not _OCI_DIGEST.match(ref):
            raise _invalid(text, f"{ref!r} is not a sha256:<64 hex> digest")
    elif ":" in path:
        path, _, ref = path.rpartition(":")
        if not _OCI_TAG.match(ref):
            raise _invalid(text, f"{ref!r} is not an OCI tag")
    if not _OCI_REPO.match(path) or len(path) > 255:
        raise _invalid(text, f"{path!r} is not an OCI repository name (lowercase, a/b/c)")
    return Source("oci", f"{host.lower()}/{path}", ref=ref)


def _mcp_stdio(text: str, rest: str) -> Source:
    """``mcp+stdio:COMMAND ARGS...``: the command line, split as a POSIX shell would."""
    try:
        words = shlex.split(rest)
    except ValueError:
        raise _invalid(text, "the command's quotes do not close") from None
    if not words:
        raise _invalid(text, "it names no command (mcp+stdio:COMMAND ARGS...)")
    if words[0].startswith("-"):
        raise _invalid(text, "the command starts with '-'")
    return Source("mcp", "stdio:" + shlex.join(words))


def _mcp_url(text: str, url: str) -> Source:
    """``mcp+https://host/path`` (``mcp+http://`` for a loopback host only)."""
    parts = _web(text, url, "an MCP source is mcp+stdio:COMMAND or mcp+https://host/path")
    if parts.fragment:
        raise _invalid(text, "an MCP source URL has no '#' part")
    return Source("mcp", url)


def _well_known(text: str, url: str) -> Source:
    """A site (its origin: the index is at `WELL_KNOWN`) or its index URL, with an
    optional ``#skill-name`` (the draft's name rule)."""
    base, hashed, pick = url.partition("#")
    parts = _web(text, base, "a site's skills index is https://host[#skill-name]")
    if parts.query:
        raise _invalid(text, "a source URL has no query string")
    if parts.path not in _SITE_PATHS:
        raise _invalid(text, f"a site's skills index is at {WELL_KNOWN} of its origin")
    if hashed and not is_skill_name(pick):
        raise _invalid(text, f"{pick!r} is not a skill name (lowercase letters, digits, '-')")
    location = f"{parts.scheme.lower()}://{parts.netloc.lower()}{_SITE_PATHS[parts.path]}"
    return Source("wellknown", location, skills=(pick,) if pick else ())


def is_skill_name(name: str) -> bool:
    """The discovery draft's name rule: 1-64 of ``a-z``, ``0-9`` and ``-``, no hyphen
    first, last or twice in a row."""
    return len(name) <= 64 and _SKILL_NAME.match(name) is not None


def _github_short(text: str, rest: str) -> Source:
    head, ref, subdir = _fragment(text, rest)
    if ref is None and subdir == "" and ":" in head:
        head, _, tail = head.partition(":")
        subdir = _subdir(text, tail)
    parts = head.split("/")
    if len(parts) < 2:
        raise _invalid(text, "it is not owner/repo")
    owner, repo = parts[0], _strip_git(parts[1])
    _check_repo(text, owner, repo)
    path = "/".join(parts[2:])
    if path and subdir:
        raise _invalid(text, "give the folder either as owner/repo/path or as :subdir, not both")
    return Source("github", f"{owner}/{repo}", ref=ref, subdir=_subdir(text, path or subdir))


def _fragment(text: str, rest: str) -> tuple[str, str | None, str]:
    """``head#ref:subdir`` -> (head, ref or None, subdir)."""
    head, hashed, tail = rest.partition("#")
    if not hashed:
        return head, None, ""
    ref_text, colon, sub = tail.partition(":")
    ref = _ref(text, ref_text) if ref_text else None
    subdir = _subdir(text, sub) if colon else ""
    if ref is None and not subdir:
        raise _invalid(text, "nothing follows '#'")
    return head, ref, subdir


def _url(text: str, settings: Settings) -> Source:
    base, _, _ = text.partition("#")
    parts = urlsplit(base)
    scheme = parts.scheme.lower()
    if scheme not in _GIT_SCHEMES:
        raise _invalid(text, f"the scheme {parts.scheme!r} is not one satchel fetches from")
    if scheme == "http" and (parts.hostname or "") not in LOOPBACK_NAMES:
        raise _invalid(text, "plain http:// is accepted only for a loopback host; use https://")
    if parts.password is not None or (parts.username and scheme in ("http", "https")):
        raise _invalid(text, "a URL may not carry credentials; set GH_TOKEN instead")
    if parts.query:
        raise _invalid(text, "a source URL has no query string")
    origin = f"{scheme}://{parts.netloc}"
    on_github = _below(origin, parts.path, settings.github_url)
    if on_github is not None:
        return _github_url(text, on_github)
    on_skills_sh = _below(origin, parts.path, settings.skills_sh_url)
    if on_skills_sh is not None:
        return _skills_sh(text, on_skills_sh.lstrip("/"))
    if scheme in ("https", "http") and parts.path in _SITE_PATHS:
        return _well_known(text, text)
    return _git(text, base, text[len(base) + 1 :] if "#" in text else "")


def _below(origin: str, path: str, base: str) -> str | None:
    """The rest of `path` when the URL is below the base URL `base`, else None."""
    b = urlsplit(base)
    prefix = b.path.rstrip("/")
    if origin.lower() != f"{b.scheme}://{b.netloc}".lower():
        return None
    if prefix and not (path == prefix or path.startswith(prefix + "/")):
        return None
    return path[len(prefix) :]


def _github_url(text: str, path: str) -> Source:
    ref, subdir = None, ""
    if "#" in text:
        _, ref, subdir = _fragment(text, "x#" + text.partition("#")[2])
    parts = [p for p in path.split("/") if p]
    if len(parts) < 2:
        raise _invalid(text, "a GitHub URL names owner/repo")
    owner, repo = parts[0], _strip_git(parts[1])
    _check_repo(text, owner, repo)
    rest = parts[2:]
    if rest and rest[0] in ("tree", "blob") and len(rest) >= 2:
        if ref is not None:
            raise _invalid(text, "the ref is given twice")
        ref = _ref(text, rest[1])
        path = "/".join(rest[2:])
    elif rest:
        raise _invalid(text, "a GitHub URL names a repository or a /tree/<ref>/<path> folder")
    else:
        path = ""
    if path and subdir:
        raise _invalid(text, "the folder is given twice")
    return Source("github", f"{owner}/{repo}", ref=ref, subdir=_subdir(text, path or subdir))


def _skills_sh(text: str, path: str) -> Source:
    parts = [p for p in path.split("/") if p]
    if len(parts) not in (2, 3):
        raise _invalid(text, "a skills.sh link is skills.sh/<owner>/<repo>[/<skill>]")
    owner, repo = parts[0], parts[1]
    _check_repo(text, owner, repo)
    picks = (_pick(text, parts[2]),) if len(parts) == 3 else ()
    return Source("github", f"{owner}/{repo}", skills=picks)


def _git(text: str, url: str, tail: str) -> Source:
    ref, subdir = None, ""
    if tail:
        _, ref, subdir = _fragment(text, "x#" + tail)
    if url.startswith("file://") and not url.startswith("file:///"):
        raise _invalid(text, "a file:// URL names an absolute path (file:///...)")
    path = urlsplit(url).path
    if any(seg == ".." for seg in path.split("/")) or not path.strip("/"):
        raise _invalid(text, "the URL's path is empty or holds '..'")
    return Source("git", url, ref=ref, subdir=subdir)


def _scp(text: str, match: re.Match[str]) -> Source:
    path = match["path"]
    if path.startswith("-") or any(seg == ".." for seg in path.split("/")):
        raise _invalid(text, "the path after ':' starts with '-' or holds '..'")
    url = f"ssh://{match['user']}@{match['host']}/{path.lstrip('/')}"
    tail = text.partition("#")[2]
    ref, subdir = None, ""
    if tail:
        _, ref, subdir = _fragment(text, "x#" + tail)
    return Source("git", url, ref=ref, subdir=subdir)


def _npx(
    text: str,
    *,
    cwd: str | os.PathLike[str] | None,
    home: str | os.PathLike[str] | None,
    settings: Settings,
) -> Source:
    try:
        words = shlex.split(text)
    except ValueError:
        raise _invalid(text, "the command's quotes do not close") from None
    words = words[2:] if words[:2] == ["pnpm", "dlx"] else words[1:]
    while words and words[0] in ("-y", "--yes"):
        words = words[1:]
    if len(words) < 2 or words[0].split("@", 1)[0] != "skills" or words[1] != "add":
        raise _invalid(text, "the command is not `npx skills add <source>`")
    source: str | None = None
    picks: list[str] = []
    args = iter(words[2:])
    for word in args:
        if word in ("--skill", "-s"):
            picks.append(_pick(text, next(args, "")))
        elif word.startswith("--skill="):
            picks.append(_pick(text, word.partition("=")[2]))
        elif word in ("-y", "--yes", "-g", "--global", "--all"):
            continue
        elif word in ("-a", "--agent"):
            next(args, None)
        elif word.startswith("-") or source is not None:
            raise _invalid(text, f"the command's argument {word!r} is not understood")
        else:
            source = word
    if source is None:
        raise _invalid(text, "the command names no source")
    inner = _one(source, cwd=cwd, home=home, settings=settings)
    return replace(inner, skills=(*inner.skills, *picks))


def _check_repo(text: str, owner: str, repo: str) -> None:
    if not _OWNER.match(owner):
        raise _invalid(text, f"{owner!r} is not a GitHub owner name")
    if not _REPO.match(repo) or repo in (".", "..") or repo.startswith("-"):
        raise _invalid(text, f"{repo!r} is not a repository name")


def _strip_git(repo: str) -> str:
    return repo[:-4] if repo.endswith(".git") and len(repo) > 4 else repo


def _ref(text: str, ref: str) -> str:
    bad = (
        not _REF.match(ref)
        or ".." in ref
        or "//" in ref
        or ref.endswith(("/", ".", ".lock"))
        or "/." in ref
    )
    if bad:
        raise _invalid(text, f"{ref!r} is not a git ref satchel accepts")
    return ref


def _subdir(text: str, path: str) -> str:
    segments = path.strip("/").split("/") if path.strip("/") else []
    for seg in segments:
        if not _SEGMENT.match(seg) or seg in (".", ".."):
            raise _invalid(text, f"the folder {path!r} is not a plain relative path")
    return "/".join(segments)


def _pick(text: str, pick: str) -> str:
    if not pick:
        raise _invalid(text, "a skill to pick is empty")
    return _subdir(text, pick)


def _invalid(text: str, why: str) -> InstallError:
    shown = text if len(text) <= 200 else text[:200] + "..."
    return refuse(
        "install.source.invalid", f"cannot read {shown!r} as a source: {why}", hint=ACCEPTED
    )

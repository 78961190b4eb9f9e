"""The `Policy` value: what an organisation lets any agent on the machine load and run.

A `Policy` is what `satchel.foundations.policy.read_policy` makes of the policy files (the system's,
the user's, the project's; docs/policy.md). Every key is a typed field; every pattern is
compiled once, when the file is read, and carries the key and the file it came from, so
that a refusal names both. The checks are pure functions of the policy and what is
asked about: ``check_*`` gives the refusal (a ``policy.denied`` diagnostic) or None,
``allows_*`` the same as a boolean.

Patterns are ``fnmatch`` globs, matched case-sensitively (`fnmatch.fnmatchcase`): ``*``
matches any run of characters, ``/`` included, ``?`` one character, ``[...]`` a set.
An MCP pattern names the server's ``name`` (a bare string), its ``command`` (the
command and its arguments joined by single spaces: ``command:npx -y @acme/*``) or its
``url`` (``url:https://mcp.acme.com/*``), or several of them at once as a table
(``{ name = "docs", url = "https://docs.acme.com/mcp" }``: every field given must
match). A source or marketplace pattern is a glob over ``host/owner/path``
(``github.com/acme/*``), the form `source_key` gives a source (``owner/repo`` is
GitHub's; a local folder is ``file:<absolute path>``; the sources that are not git
repositories keep their scheme: ``oci://registry/repository``, ``npm:package``,
``archive:URL``, ``mcp+stdio:COMMAND``, ``mcp+https://URL``).

``require_signed`` rules say who may have signed what is installed from the sources
they name (`signers`), and ``require_digest`` which sources must publish a digest the
install is pinned by (`requires_digest`).

A policy that could not be read is `closed` (fail closed): it refuses everything that
runs and every install, and every refusal says why.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic

__all__ = [
    "COMPONENTS",
    "HOOK_TYPES",
    "AllowedSigners",
    "Digests",
    "Flag",
    "Lists",
    "Pattern",
    "Policy",
    "SignedRule",
    "Types",
    "source_key",
]

# the component kinds `disabled_components` may name, and the hook handler types
COMPONENTS = ("agents", "commands", "hooks", "instructions", "lsp", "mcp", "plugins", "skills")
HOOK_TYPES = ("agent", "command", "http", "mcp_tool", "prompt", "python")
MCP_FIELDS = ("name", "command", "url")
_CLOSED_KEY = "policy"  # what a closed policy's refusals name


@model
class Pattern:
    """One compiled pattern: `text` as written, `fields` (field, glob) that must all
    match, under `key` (``mcp.allow``) of the file at `path`."""

    text: str
    fields: tuple[tuple[str, str], ...]
    key: str
    path: Path
    _compiled: tuple[tuple[str, re.Pattern[str]], ...] = field(
        default=(), repr=False, compare=False
    )

    @classmethod
    def compile(cls, text: str, fields: Iterable[tuple[str, str]], key: str, path: Path) -> Pattern:
        pairs = tuple(fields)
        compiled = tuple((f, re.compile(fnmatch.translate(g))) for f, g in pairs)
        return cls(text, pairs, key, path, compiled)

    def matches(self, values: Mapping[str, str | None]) -> bool:
        """Whether every field of the pattern matches the value of that field (a field
        with no value matches nothing)."""
        for name, regex in self._compiled:
            value = values.get(name)
            if value is None or regex.match(value) is None:
                return False
        return True


@model
class Lists:
    """An allow and a deny list. `allow` holds one layer per file that set one: an item
    is allowed when it matches a pattern of every layer (the lists intersect; no layer:
    everything is allowed; an empty layer: nothing is). `deny` is the union of every
    file's, and wins over `allow`."""

    allow: tuple[tuple[Pattern, ...], ...] = ()
    deny: tuple[Pattern, ...] = ()

    def refusal(self, values: Mapping[str, str | None]) -> tuple[str, Path | None] | None:
        """The key and file that refuse `values`, or None when they are allowed."""
        for pattern in self.deny:
            if pattern.matches(values):
                return pattern.key, pattern.path
        for layer in self.allow:
            if not any(p.matches(values) for p in layer):
                return _allow_key(layer), _layer_path(layer)
        return None


@model
class Flag:
    """A boolean key: `on` once any file set it true, `path` the first that did."""

    on: bool = False
    path: Path | None = None

    def __bool__(self) -> bool:
        return self.on


@model
class Types:
    """One file's ``allowed_hook_types``: the handler types it allows."""

    types: frozenset[str]
    path: Path


@model
class SignedRule:
    """One ``[[require_signed]]`` table of the file at `path` (its `index`, from 1):
    what is installed from a source `source` matches must be signed by an identity one
    of `identities` matches, whose issuer one of `issuers` matches (no `issuers`: any
    issuer)."""

    source: Pattern
    identities: tuple[Pattern, ...]
    issuers: tuple[Pattern, ...]
    path: Path
    index: int

    def applies(self, key: str) -> bool:
        """Whether the rule names the source whose `source_key` is `key`."""
        return self.source.matches({"source": key})

    def allows(self, identity: str, issuer: str) -> bool:
        """Whether a signature by `identity`, certified by `issuer`, satisfies the rule."""
        return self.names(identity) and (
            not self.issuers or any(p.matches({"issuer": issuer}) for p in self.issuers)
        )

    def names(self, identity: str) -> bool:
        """Whether the rule allows the identity `identity` (whatever its issuer)."""
        return any(p.matches({"identity": identity}) for p in self.identities)

    @property
    def text(self) -> str:
        """The rule as `Policy.rows` shows it."""
        text = f"{self.source.text}: identities {_texts(self.identities)}"
        return text + (f"; issuers {_texts(self.issuers)}" if self.issuers else "")


@model
class AllowedSigners:
    """Who may sign what is installed from `spec`: every ``require_signed`` rule that
    names it (`rules`, from every file); a signature must satisfy each of them."""

    spec: str
    rules: tuple[SignedRule, ...]

    @property
    def identities(self) -> tuple[str, ...]:
        """The identity patterns of the rules, each once, in order (one rule: its own)."""
        return tuple(dict.fromkeys(p.text for r in self.rules for p in r.identities))

    @property
    def issuers(self) -> tuple[str, ...]:
        """The issuer patterns of the rules, each once, in order (empty: any issuer)."""
        return tuple(dict.fromkeys(p.text for r in self.rules for p in r.issuers))

    def allows(self, identity: str, issuer: str) -> bool:
        """Whether a signature by `identity`, certified by `issuer`, satisfies every rule."""
        return all(r.allows(identity, issuer) for r in self.rules)

    def failing(self, identity: str | None, issuer: str | None) -> SignedRule | None:
        """The first rule a signature by `identity` and `issuer` fails (None: unsigned,
        which fails every rule), or None when every rule allows it."""
        for rule in self.rules:
            if identity is None or not rule.allows(identity, issuer or ""):
                return rule
        return None

    def refusal(self, identity: str | None, issuer: str | None, what: str) -> Diagnostic | None:
        """Why `what` (signed by `identity` and `issuer`; None: unsigned) is refused by
        the first rule it fails, or None when every rule allows it."""
        rule = self.failing(identity, issuer)
        if rule is None:
            return None
        if identity is None:
            return _denied(f"{what} unsigned", "require_signed", rule.path)
        signer = f"{what} signed by {identity!r} (issuer {issuer or ''!r})"
        return _denied(signer, "require_signed", rule.path)


@model
class Digests:
    """``require_digest``: `every` source (true in a file), or the `sources` its
    patterns match (the union of every file's lists)."""

    every: Flag = Flag()
    sources: tuple[Pattern, ...] = ()

    def rule(self, key: str) -> Path | None:
        """The file that requires a published digest of the source `key`, or None."""
        if self.every:
            return self.every.path
        found = next((p for p in self.sources if p.matches({"source": key})), None)
        return None if found is None else found.path

    def __bool__(self) -> bool:
        return bool(self.every) or bool(self.sources)


_NO_NAMES: Mapping[str, Path] = MappingProxyType({})


@model
class Policy:
    """The policy in force: every key of docs/policy.md, merged from the files read
    (`files`, the system's first) so that a lower file only ever tightens.

    `disabled_formats` and `disabled_components` map each name to the file that
    disabled it; `allowed_hook_types` and `allowed_http_hook_urls` hold one layer per
    file (an item must be allowed by each). `closed` is why the policy fails closed (a
    file could not be read), None when it does not. `Policy()` allows everything."""

    files: tuple[Path, ...] = ()
    allow_managed_hooks_only: Flag = Flag()
    disable_all_hooks: Flag = Flag()
    disable_skill_shell_execution: Flag = Flag()
    require_pins: Flag = Flag()
    require_trust: Flag = Flag()
    allowed_hook_types: tuple[Types, ...] = ()
    allowed_http_hook_urls: tuple[tuple[Pattern, ...], ...] = ()
    disabled_formats: Mapping[str, Path] = field(default_factory=lambda: _NO_NAMES)
    disabled_components: Mapping[str, Path] = field(default_factory=lambda: _NO_NAMES)
    mcp: Lists = Lists()
    sources: Lists = Lists()
    marketplaces: Lists = Lists()
    skills: Lists = Lists()
    require_signed: tuple[SignedRule, ...] = ()
    require_digest: Digests = Digests()
    closed: Diagnostic | None = None

    # -- the checks: a refusal (policy.denied), or None -------------------------------

    def check_mcp(
        self, name: str, command: str | None = None, url: str | None = None
    ) -> Diagnostic | None:
        """Whether the MCP server `name` (running `command`, its arguments joined by
        spaces, or at `url`) may run: ``[mcp] allow`` / ``deny``."""
        what = f"MCP server {name!r}"
        if self.closed is not None or "mcp" in self.disabled_components:
            return self._component_refusal("mcp", what)
        found = self.mcp.refusal({"name": name, "command": command, "url": url})
        return None if found is None else _denied(what, *found)

    def check_hook(
        self, type: str, url: str | None = None, *, managed: bool = False, what: str = ""
    ) -> Diagnostic | None:
        """Whether a hook of handler `type` (posting to `url`, for ``http``) may run;
        `managed`: it is a managed hook (registered in code: docs/policy.md)."""
        what = what or f"a {type} hook"
        if self.closed is not None or "hooks" in self.disabled_components:
            return self._component_refusal("hooks", what)
        if self.disable_all_hooks:
            return _denied(what, "disable_all_hooks", self.disable_all_hooks.path)
        if self.allow_managed_hooks_only and not managed:
            return _denied(what, "allow_managed_hooks_only", self.allow_managed_hooks_only.path)
        for layer in self.allowed_hook_types:
            if type not in layer.types:
                return _denied(what, "allowed_hook_types", layer.path)
        if type == "http":
            for patterns in self.allowed_http_hook_urls:
                if url is None or not any(p.matches({"url": url}) for p in patterns):
                    return _denied(what, "allowed_http_hook_urls", _layer_path(patterns))
        return None

    def check_source(self, spec: str) -> Diagnostic | None:
        """Whether `spec` (a source as ``satchel install`` takes it) may be installed
        from: ``[sources] allow`` / ``deny``."""
        return self._install("source", spec, self.sources)

    def check_marketplace(self, spec: str) -> Diagnostic | None:
        """Whether the catalogue at `spec` may be added or read: ``[marketplaces]
        allow`` / ``deny``."""
        return self._install("marketplace", spec, self.marketplaces)

    def check_pinned(self, spec: str, *, pinned: bool) -> Diagnostic | None:
        """Whether an install of `spec` may go ahead: with ``require_pins`` only one
        `pinned` to a digest or commit may."""
        if self.closed is not None:
            return self._closed_refusal(f"installing {spec!r}")
        if self.require_pins and not pinned:
            return _denied(f"installing {spec!r} unpinned", "require_pins", self.require_pins.path)
        return None

    def signers(self, spec: str) -> AllowedSigners | None:
        """Who may sign what is installed from `spec` (``require_signed``): the rules
        that name it, or None when no rule does and a signature is not required."""
        key = source_key(spec)
        rules = tuple(r for r in self.require_signed if r.applies(key))
        return AllowedSigners(spec, rules) if rules else None

    def check_signed(
        self, spec: str, identity: str | None, issuer: str | None = None, *, what: str = ""
    ) -> Diagnostic | None:
        """Whether what is installed from `spec`, signed by `identity` certified by
        `issuer` (None: not signed), satisfies ``require_signed``."""
        what = what or f"installing {spec!r}"
        if self.closed is not None:
            return self._closed_refusal(what)
        signers = self.signers(spec)
        return None if signers is None else signers.refusal(identity, issuer, what)

    def check_named_signer(self, spec: str, identity: str) -> Diagnostic | None:
        """Whether the user may name `identity` as the signer of what is installed from
        `spec` (``--signer``): every ``require_signed`` rule naming `spec` must allow
        it. A pattern (``*``, ``?``, ``[``) is not judged here: the signature is."""
        what = f"the signer {identity!r} named for installing {spec!r}"
        if self.closed is not None:
            return self._closed_refusal(what)
        signers = self.signers(spec)
        if signers is None or _GLOB_CHARS.search(identity):
            return None
        rule = next((r for r in signers.rules if not r.names(identity)), None)
        return None if rule is None else _denied(what, "require_signed", rule.path)

    def requires_digest(self, spec: str) -> bool:
        """Whether an install from `spec` must be pinned by a published digest
        (``require_digest``; docs/policy.md says which sources publish one)."""
        return self.digest_rule(spec) is not None

    def digest_rule(self, spec: str) -> Path | None:
        """The file whose ``require_digest`` names `spec`, or None when none does."""
        return self.require_digest.rule(source_key(spec))

    def check_digest(self, spec: str, *, published: bool, what: str = "") -> Diagnostic | None:
        """Whether an install from `spec` may go ahead: with ``require_digest`` naming
        it, only one `published` (pinned by a digest its source publishes) may."""
        what = what or f"installing {spec!r}"
        if self.closed is not None:
            return self._closed_refusal(what)
        path = self.digest_rule(spec)
        if path is None or published:
            return None
        return _denied(f"{what} without a published digest", "require_digest", path)

    def check_skill(self, name: str) -> Diagnostic | None:
        """Whether the skill `name` may load: ``[skills] allow`` / ``deny`` and
        ``disabled_components``."""
        what = f"skill {name!r}"
        if "skills" in self.disabled_components:
            return self._component_refusal("skills", what)
        found = self.skills.refusal({"name": name})
        return None if found is None else _denied(what, *found)

    def check_format(self, fmt: str, what: str = "") -> Diagnostic | None:
        """Whether a plugin of manifest format `fmt` may load: ``disabled_formats``."""
        path = self.disabled_formats.get(fmt)
        what = what or f"the {fmt} plugin format"
        return None if path is None else _denied(what, "disabled_formats", path)

    def check_component(self, kind: str, what: str = "") -> Diagnostic | None:
        """Whether components of `kind` (one of `COMPONENTS`) may load; a closed policy
        refuses every kind that runs (hooks, lsp, mcp; `load()` reads plugins
        declaratively then)."""
        if kind in self.disabled_components or (self.closed is not None and kind in _RUNS):
            return self._component_refusal(kind, what or f"every {kind} component")
        return None

    def check_shell(self, what: str = "shell interpolation") -> Diagnostic | None:
        """Whether a skill's `` !`cmd` `` lines may run: ``disable_skill_shell_execution``."""
        if self.closed is not None:
            return self._closed_refusal(what)
        flag = self.disable_skill_shell_execution
        return None if not flag else _denied(what, "disable_skill_shell_execution", flag.path)

    def check_trust_override(self) -> Diagnostic | None:
        """Whether a host may declare the project trusted without the user's list:
        ``require_trust`` says it may not."""
        if not self.require_trust:
            return None
        return _denied(
            "trusting the project without the list of trusted folders",
            "require_trust",
            self.require_trust.path,
        )

    # -- the same as booleans ---------------------------------------------------------

    def allows_mcp(self, name: str, command: str | None = None, url: str | None = None) -> bool:
        return self.check_mcp(name, command, url) is None

    def allows_hook(self, type: str, url: str | None = None, managed: bool = False) -> bool:
        return self.check_hook(type, url, managed=managed) is None

    def allows_source(self, spec: str) -> bool:
        return self.check_source(spec) is None

    def allows_marketplace(self, spec: str) -> bool:
        return self.check_marketplace(spec) is None

    def allows_skill(self, name: str) -> bool:
        return self.check_skill(name) is None

    def allows_format(self, fmt: str) -> bool:
        return self.check_format(fmt) is None

    def allows_component(self, kind: str) -> bool:
        return self.check_component(kind) is None

    def shell_allowed(self) -> bool:
        return self.check_shell() is None

    def rows(self) -> tuple[tuple[str, str, Path | None], ...]:
        """Each key the policy sets, as (key, value as written, the file that set it),
        in the order of docs/policy.md; a closed policy's first row says why."""
        rows: list[tuple[str, str, Path | None]] = []
        if self.closed is not None:
            rows.append(("policy", "fails closed: " + self.closed.message, self.closed.path))
        for key in _FLAG_KEYS:
            flag: Flag = getattr(self, key)
            if flag:
                rows.append((key, "true", flag.path))
        for types in self.allowed_hook_types:
            rows.append(("allowed_hook_types", ", ".join(sorted(types.types)), types.path))
        for patterns in self.allowed_http_hook_urls:
            rows.append(("allowed_http_hook_urls", _texts(patterns), _layer_path(patterns)))
        for key in ("disabled_formats", "disabled_components"):
            names: Mapping[str, Path] = getattr(self, key)
            for path in dict.fromkeys(names.values()):
                given = sorted(n for n, p in names.items() if p == path)
                rows.append((key, ", ".join(given), path))
        for table in ("mcp", "sources", "marketplaces", "skills"):
            lists: Lists = getattr(self, table)
            for allowed in lists.allow:
                rows.append((f"{table}.allow", _texts(allowed), _layer_path(allowed)))
            for path in dict.fromkeys(p.path for p in lists.deny):
                denied = tuple(p for p in lists.deny if p.path == path)
                rows.append((f"{table}.deny", _texts(denied), path))
        for rule in self.require_signed:
            rows.append(("require_signed", rule.text, rule.path))
        if self.require_digest.every:
            rows.append(("require_digest", "true", self.require_digest.every.path))
        digests = self.require_digest.sources
        for path in dict.fromkeys(p.path for p in digests):
            named = tuple(p for p in digests if p.path == path)
            rows.append(("require_digest", _texts(named), path))
        return tuple(rows)

    def to_json(self) -> dict[str, Any]:
        """The files read, whether the policy fails closed, and each key it sets
        (`rows`), as `satchel doctor` and `satchel audit` write them."""
        return {
            "files": [str(p) for p in self.files],
            "closed": self.closed is not None,
            "keys": [
                {"key": k, "value": v, "path": None if p is None else str(p)}
                for k, v, p in self.rows()
            ],
        }

    @property
    def restricts(self) -> bool:
        """Whether the policy restricts anything at all."""
        return self != Policy(files=self.files)

    # -- helpers ----------------------------------------------------------------------

    def _install(self, kind: str, spec: str, lists: Lists) -> Diagnostic | None:
        what = f"{kind} {spec!r}"
        if self.closed is not None:
            return self._closed_refusal(what)
        found = lists.refusal({"source": source_key(spec)})
        return None if found is None else _denied(what, *found)

    def _component_refusal(self, kind: str, what: str) -> Diagnostic:
        path = self.disabled_components.get(kind)
        if path is not None:
            return _denied(what, "disabled_components", path)
        return self._closed_refusal(what)

    def _closed_refusal(self, what: str) -> Diagnostic:
        closed = self.closed
        assert closed is not None, "only a closed policy refuses without a key"
        return _denied(what, _CLOSED_KEY, closed.path, hint=closed.message)


_RUNS = frozenset({"hooks", "lsp", "mcp"})
_GLOB_CHARS = re.compile(r"[*?\[]")
_FLAG_KEYS = (
    "allow_managed_hooks_only",
    "disable_all_hooks",
    "disable_skill_shell_execution",
    "require_pins",
    "require_trust",
)


def _texts(patterns: tuple[Pattern, ...]) -> str:
    return ", ".join(p.text for p in patterns) if patterns else "(nothing)"


def _denied(what: str, key: str, path: Path | None, *, hint: str | None = None) -> Diagnostic:
    where = "" if path is None else f" in {path}"
    if key == _CLOSED_KEY:
        file = "a policy file" if path is None else f"the policy file {path}"
        message = f"{what} is refused: {file} could not be read (fail closed)"
        return diagnostic("policy.denied", message, path, hint=hint)
    return diagnostic("policy.denied", f"{what} is refused by policy key `{key}`{where}", path)


def _allow_key(layer: tuple[Pattern, ...]) -> str:
    return layer[0].key if layer else "allow"


def _layer_path(layer: tuple[Pattern, ...]) -> Path | None:
    return layer[0].path if layer else None


def source_key(spec: str) -> str:
    """`spec` as a source pattern reads it: ``host/owner/path`` without a scheme, a
    user, a ``.git`` suffix or a ``#ref``/``@ref``; ``owner/repo`` is GitHub's
    (``github.com/owner/repo``); an absolute or ``./`` path is ``file:<path>``. A
    source that is not a git repository keeps its scheme and loses its version:
    ``oci://registry/repository``, ``npm:package``, ``archive:URL``, the server of an
    ``mcp+`` source as given; ``well-known:`` is dropped (its index URL is a URL)."""
    text = spec.strip()
    if text.startswith("mcp+"):
        return text
    text = text.removeprefix("well-known:").split("#", 1)[0]
    if text.startswith("oci://"):
        return "oci://" + _unversioned(text[len("oci://") :])
    if text.startswith("npm:"):
        return "npm:" + _npm_name(text[len("npm:") :])
    if text.startswith("archive:"):
        return text
    if text.startswith(("/", "./", "../", "~", "file:")):
        return "file:" + text.removeprefix("file:").removeprefix("//")
    for prefix in ("git+", "https://", "http://", "ssh://", "git://", "github:"):
        if text.startswith(prefix):
            text = text[len(prefix) :]
            if prefix == "github:":
                text = "github.com/" + text
    if "@" in text.split("/", 1)[0]:  # user@host[:path]
        text = text.split("@", 1)[1]
    head, sep, rest = text.partition("/")
    if ":" in head and not sep:  # host:owner/repo, scp-like
        head, _, first = head.partition(":")
        text = f"{head}/{first}"
    elif ":" in head:
        host, _, first = head.partition(":")
        text = f"{host}/{first}/{rest}" if first and not first.isdigit() else f"{host}/{rest}"
    if "@" in text:
        text = text.split("@", 1)[0]  # owner/repo@ref
    text = text.removesuffix("/").removesuffix(".git")
    if text.count("/") == 1 and "." not in text.split("/", 1)[0]:
        text = "github.com/" + text
    return text


def _unversioned(reference: str) -> str:
    """An OCI ``registry/repository`` without its ``:tag`` or ``@digest``."""
    name = reference.split("@", 1)[0]
    head, slash, last = name.rpartition("/")
    return f"{head}{slash}{last.split(':', 1)[0]}" if slash else name


def _npm_name(package: str) -> str:
    """An npm package name without its ``@version`` (a scope's ``@`` kept)."""
    scoped = package.startswith("@")
    name = package[1:].split("@", 1)[0] if scoped else package.split("@", 1)[0]
    return ("@" if scoped else "") + name

"""Which credential each host gets: tokens from the environment and the user's
``[install.auth."HOST"]`` settings, read into one frozen value. Nothing runs here.

Claude Code documents these variables for private marketplaces
(https://code.claude.com/docs/en/plugin-marketplaces, "Private repositories"):
``GITHUB_TOKEN`` or ``GH_TOKEN`` for GitHub, ``GITLAB_TOKEN`` or ``GL_TOKEN`` for
GitLab, ``BITBUCKET_TOKEN`` for Bitbucket. satchel reads the same ones, each for its
own hosts only (`BUILT_IN`; GitHub's also for the configured GitHub base URLs, as
before, with ``GH_TOKEN`` first). The user's ``config.toml`` adds any other host, or
replaces a built-in one::

    [install.auth."plugins.example.com"]
    token_env = "EXAMPLE_TOKEN"          # sent as Authorization: Bearer <value>

    [install.auth."git.example.org:8443"]
    header_helper = "example-auth --host git.example.org"

A key is a host name, or ``host:port`` for that port only. Only the user's file is
read: a project's ``config.toml`` could otherwise send the user's tokens to a host of
its choosing. An entry that is not valid is ``install.auth.invalid`` and left out; a
fetch from its host is then refused with that code rather than sent without it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.core.layout import Layout
from satchel.foundations._config import CONFIG_FILE, read_config
from satchel.trust._trust import read_trust

__all__ = ["BUILT_IN", "GITHUB_ENV", "AuthRule", "Credentials", "read_credentials"]

GITHUB_ENV = ("GH_TOKEN", "GITHUB_TOKEN")
# host -> (the variables holding its token, first set wins; the user name git sends it with)
BUILT_IN: Mapping[str, tuple[tuple[str, ...], str]] = MappingProxyType(
    {
        "github.com": (GITHUB_ENV, "x-access-token"),
        "api.github.com": (GITHUB_ENV, "x-access-token"),
        "gitlab.com": (("GITLAB_TOKEN", "GL_TOKEN"), "oauth2"),
        "bitbucket.org": (("BITBUCKET_TOKEN",), "x-token-auth"),
        "api.bitbucket.org": (("BITBUCKET_TOKEN",), "x-token-auth"),
    }
)
_HOST = re.compile(r"[a-z0-9](?:[a-z0-9.-]{0,252})(?::[0-9]{1,5})?\Z")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}\Z")
_KEYS = ("token_env", "header_helper")
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model
class AuthRule:
    """One ``[install.auth."HOST"]`` entry: the variable holding a bearer token, or
    the header helper command (its exact text, run only once approved)."""

    host: str
    token_env: str | None = None
    header_helper: str | None = None


@model
class Credentials:
    """The user's rules by host key, the entries left out (host key -> why), the
    approved helper pins (`satchel.trust._trust`), the environment tokens are read from,
    and the folder a helper runs in. `answers` keeps each helper's headers for the
    process, so one install runs a helper once per host."""

    rules: Mapping[str, AuthRule] = field(default_factory=lambda: _EMPTY)
    invalid: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    approved: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    environ: Mapping[str, str] = field(default_factory=lambda: _EMPTY, repr=False)
    cwd: Path | None = None
    answers: dict[str, dict[str, str]] = field(
        default_factory=dict, repr=False, compare=False, hash=False
    )

    def key_for(self, host: str, port: int | None) -> str | None:
        """The rule key naming `host` (``host:port`` before ``host``), if any."""
        for key in ((f"{host}:{port}",) if port is not None else ()) + (host,):
            if key in self.rules or key in self.invalid:
                return key
        return None


def read_credentials(
    layout: Layout, environ: Mapping[str, str]
) -> tuple[Credentials, tuple[Diagnostic, ...]]:
    """The user's ``[install.auth]`` rules (``{config}/<client>/config.toml``) and
    helper approvals, with what was wrong in that file."""
    path = layout.config_home / layout.client / CONFIG_FILE
    problems: list[Diagnostic] = []
    section = read_config(path, problems).get("install", {})
    tables = section.get("auth", {}) if isinstance(section, dict) else None
    rules: dict[str, AuthRule] = {}
    invalid: dict[str, str] = {}
    if not isinstance(tables, dict):
        problems.append(_invalid("[install.auth] must be a table", path))
        tables = {}
    for host, table in tables.items():
        rule, why = _rule(host, table)
        if rule is not None:
            rules[host] = rule
        else:
            invalid[host] = why
            problems.append(_invalid(f'[install.auth."{host}"]: {why}; left out', path))
    approved = read_trust(layout).helpers
    found = Credentials(
        MappingProxyType(rules),
        MappingProxyType(invalid),
        approved,
        MappingProxyType(dict(environ)),
        layout.home,
    )
    return found, tuple(problems)


def _rule(host: str, table: Any) -> tuple[AuthRule | None, str]:
    if not _HOST.match(host):
        return None, "a key is a lowercase host name, or host:port"
    if not isinstance(table, dict):
        return None, f"must be a table, not {type_name(table)}"
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        return None, f"unknown key {unknown[0]!r} (use token_env or header_helper)"
    if len(table) != 1:
        return None, "give exactly one of token_env and header_helper"
    token_env, helper = table.get("token_env"), table.get("header_helper")
    if token_env is not None:
        if not isinstance(token_env, str) or not _ENV_NAME.match(token_env):
            return None, "token_env must name an environment variable"
        return AuthRule(host, token_env=token_env), ""
    if not isinstance(helper, str) or not helper.strip() or "\0" in helper:
        return None, "header_helper must be a command line"
    return AuthRule(host, header_helper=helper), ""


def _invalid(message: str, path: Path) -> Diagnostic:
    return diagnostic("install.auth.invalid", f"{path.name}: {message}", path)

"""Credentials for an OCI registry, read the way Docker's own clients read them.

The Docker CLI's configuration file is ``$DOCKER_CONFIG/config.json``, else
``~/.docker/config.json`` (docs.docker.com/reference/cli/docker/#configuration-files,
and docker/cli ``cli/config/configfile/file.go``). For a registry host satchel looks,
in this order, at:

- ``credHelpers[<host>]``: the helper ``docker-credential-<name>``;
- ``auths[<host>]`` with ``auth`` (base64 of ``user:password``) or ``identitytoken``
  (an OAuth2 refresh token), or with neither when ``credsStore`` names a helper;
- ``credsStore``: the helper that holds every other registry's credentials.

A helper is run as ``docker-credential-<name> get`` with the registry on stdin and
answers ``{"ServerURL": ..., "Username": ..., "Secret": ...}``; a ``Username`` of
``<token>`` means the secret is an identity token (docker/docker-credential-helpers,
``credentials/credentials.go``). It runs through `satchel.foundations.process` with the scrubbed
base environment. Keys of ``auths`` may carry a scheme or a path
(``https://index.docker.io/v1/``): only their host is compared. A secret is never
put in a message, a diagnostic or a repr.
"""

from __future__ import annotations

import base64
import binascii
import re
import tempfile
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import Any

from satchel.core._json import loads
from satchel.core._model import model
from satchel.foundations.process import base_env, run_process
from satchel.install._errors import refuse

__all__ = ["Credential", "config_path", "credential_for"]

_HELPER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\Z")
_CAP = 4 * 1024 * 1024
_HUB = ("docker.io", "index.docker.io", "registry-1.docker.io")
_HUB_KEY = "https://index.docker.io/v1/"
_TOKEN_USER = "<token>"


@model
class Credential:
    """A user name and secret for one registry; with `identity_token` the secret is a
    refresh token to trade at the token endpoint, not a password."""

    username: str
    secret: str = field(repr=False)
    identity_token: bool = False


def config_path(environ: Mapping[str, str]) -> Path | None:
    """Where Docker's config.json is for `environ` (None without DOCKER_CONFIG or HOME)."""
    if environ.get("DOCKER_CONFIG"):
        return Path(environ["DOCKER_CONFIG"]) / "config.json"
    if environ.get("HOME"):
        return Path(environ["HOME"]) / ".docker" / "config.json"
    return None


def credential_for(host: str, environ: Mapping[str, str], timeout: float) -> Credential | None:
    """The credential Docker's configuration gives for the registry `host`, or None."""
    path = config_path(environ)
    config = _read(path) if path is not None else {}
    helpers = config.get("credHelpers")
    if isinstance(helpers, dict):
        for key, name in helpers.items():
            if _host_of(str(key)) == _canonical(host) and isinstance(name, str):
                return _helper(name, _server(host), environ, timeout)
    auths = config.get("auths")
    if isinstance(auths, dict):
        for key, entry in auths.items():
            if _host_of(str(key)) == _canonical(host) and isinstance(entry, dict):
                found = _inline(host, entry)
                if found is not None:
                    return found
    store = config.get("credsStore")
    if isinstance(store, str) and store:
        return _helper(store, _server(host), environ, timeout)
    return None


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            data = f.read(_CAP + 1)
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise refuse("install.oci.auth", f"cannot read {path}: {e.strerror}", path) from None
    try:
        doc = loads(data[:_CAP])
    except ValueError:
        raise refuse("install.oci.auth", "the Docker config file is not JSON", path) from None
    if not isinstance(doc, dict):
        raise refuse("install.oci.auth", "the Docker config file is not a JSON object", path)
    return doc


def _canonical(host: str) -> str:
    host = host.lower()
    return "docker.io" if host in _HUB else host


def _host_of(key: str) -> str:
    """``https://h:5000/v1/`` -> ``h:5000``; a bare ``h:5000`` stays as it is."""
    rest = key.split("://", 1)[1] if "://" in key else key
    return _canonical(rest.split("/", 1)[0])


def _server(host: str) -> str:
    """What a helper is asked about: Docker Hub's legacy URL, else the host."""
    return _HUB_KEY if _canonical(host) == "docker.io" else host


def _inline(host: str, entry: dict[str, Any]) -> Credential | None:
    token = entry.get("identitytoken")
    auth = entry.get("auth")
    user = ""
    if isinstance(auth, str) and auth:
        try:
            user, sep, password = base64.b64decode(auth, validate=True).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            sep, password = "", ""
        if not sep:
            message = f"the Docker config's auth for {host} is not base64 of user:password"
            raise refuse("install.oci.auth", message)
        if not (isinstance(token, str) and token):
            return Credential(user, password)
    if isinstance(token, str) and token:
        return Credential(user or _TOKEN_USER, token, identity_token=True)
    return None


def _helper(name: str, server: str, environ: Mapping[str, str], timeout: float) -> Credential:
    if not _HELPER.match(name):
        raise refuse("install.oci.auth", f"{name!r} is not a credential helper name")
    program = f"docker-credential-{name}"
    with tempfile.TemporaryDirectory() as cwd:
        result = run_process(
            [program, "get"], cwd=cwd, env=base_env(environ), stdin=server + "\n",
            timeout=timeout, max_output=_CAP,
        )  # fmt: skip
    if not result.ok:
        why = "did not start" if result.exit_code is None else f"exited {result.exit_code}"
        first = result.stdout.strip().splitlines()[:1] if result.exit_code is not None else []
        said = f": {first[0][:200]}" if first and "secret" not in first[0].lower() else ""
        raise refuse("install.oci.auth", f"{program} get {server} {why}{said}")
    try:
        doc = loads(result.stdout.encode())
        user, secret = doc["Username"], doc["Secret"]
        if not isinstance(user, str) or not isinstance(secret, str):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        message = f"{program} get {server} did not answer with a Username and a Secret"
        raise refuse("install.oci.auth", message) from None
    if user == _TOKEN_USER:
        return Credential(user, secret, identity_token=True)
    return Credential(user, secret)

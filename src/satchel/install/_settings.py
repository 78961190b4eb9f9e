"""Where the installer reaches out to, and how much it accepts: one value, with
documented defaults, that options and the environment can change.

Each base URL has an environment variable so that a host, a mirror or a test can
point it elsewhere (docs/install.md lists them). A token for GitHub comes from
``GH_TOKEN``, else ``GITHUB_TOKEN``; it is only ever sent to GitHub's hosts and the
configured GitHub base URLs. `auth` holds every other credential
(`satchel.install._credentials`); `satchel.install._auth.headers_for` decides what
each request carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path

from satchel._contain import MAX_ENTRY_DEPTH, MAX_ENTRY_PATH
from satchel._model import model
from satchel.install._credentials import Credentials
from satchel.install._errors import refuse

__all__ = ["ENV", "ENV_SECONDS", "TRUST_ROOT_ENV", "Limits", "Settings"]

# setting -> environment variable
ENV = {
    "github_url": "SATCHEL_GITHUB_URL",
    "github_api_url": "SATCHEL_GITHUB_API_URL",
    "skills_sh_url": "SATCHEL_SKILLS_SH_URL",
    "npm_registry_url": "SATCHEL_NPM_REGISTRY",
}
# the settings given in seconds -> environment variable
ENV_SECONDS = {
    "timeout": "SATCHEL_FETCH_TIMEOUT",
    "deadline": "SATCHEL_FETCH_DEADLINE",
    "lock_wait": "SATCHEL_LOCK_WAIT",
}
TRUST_ROOT_ENV = "SATCHEL_SIGSTORE_TRUST_ROOT"


@model
class Limits:
    """Bounds on what one archive or checkout may hold, checked while extracting.

    `max_bytes` caps the total uncompressed size, `max_files` the number of entries,
    `max_ratio` the uncompressed size over the archive's size (once past
    `ratio_floor` bytes, so tiny archives of empty files pass), `max_depth` the
    number of path segments and `max_path` the length of one entry's path."""

    max_bytes: int = 256 * 1024 * 1024
    max_files: int = 20_000
    max_ratio: int = 200
    ratio_floor: int = 8 * 1024 * 1024
    max_depth: int = MAX_ENTRY_DEPTH
    max_path: int = MAX_ENTRY_PATH


@model
class Settings:
    """The installer's endpoints, credentials and bounds.

    `listing_ttl` is how long a browse listing is reused (zidane: ten minutes);
    `timeout` bounds each wait for the network (a connection, one read of an answer,
    git or an MCP server going quiet); `deadline` bounds each request or git command
    as a whole, so a server that trickles its answer a byte at a time is stopped
    (``install.fetch.timeout``); `lock_wait` is how long an install waits for another
    one changing the same ``skills.lock`` (``install.lock.busy``).
    `sigstore_trust_root` is the ``trusted_root.json`` Sigstore signatures are checked
    against (None: the production root the ``sigstore`` package ships; never fetched)."""

    github_url: str = "https://github.com"
    github_api_url: str = "https://api.github.com"
    skills_sh_url: str = "https://skills.sh"
    npm_registry_url: str = "https://registry.npmjs.org"
    token: str | None = field(default=None, repr=False)
    auth: Credentials = field(default_factory=Credentials, repr=False)
    limits: Limits = field(default_factory=Limits)
    listing_ttl: float = 600.0
    timeout: float = 120.0
    deadline: float = 600.0
    lock_wait: float = 60.0
    sigstore_trust_root: Path | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str], **overrides: object) -> Settings:
        """The defaults, then the ``SATCHEL_*`` variables and the GitHub token found in
        `environ` (and its GitLab and Bitbucket tokens, in `auth`), then `overrides`
        (None values are ignored; ``auth=`` gives `read_credentials`' value, which
        adds the user's ``[install.auth]`` settings)."""
        values: dict[str, object] = {
            name: environ[var].rstrip("/") for name, var in ENV.items() if environ.get(var)
        }
        for name, var in ENV_SECONDS.items():
            if environ.get(var, "").strip():
                values[name] = _seconds(var, environ[var])
        if environ.get(TRUST_ROOT_ENV):
            values["sigstore_trust_root"] = Path(environ[TRUST_ROOT_ENV])
        token = environ.get("GH_TOKEN") or environ.get("GITHUB_TOKEN")
        if token:
            values["token"] = token
        values["auth"] = Credentials(environ=dict(environ))
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]  # keys are this class's fields


def _seconds(var: str, text: str) -> float:
    """A positive number of seconds from the variable `var`; refused otherwise."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        message = f"{var}={text!r} is not a positive number of seconds"
        raise refuse("install.settings.invalid", message)
    return value

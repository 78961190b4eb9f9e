"""The credential headers of one fetch: `headers_for(url, settings)`, the one
function every HTTP fetch of the installer calls (JSON documents, archives, the
GitHub API, catalogues), and `git_auth_env` for git over https.

The rules:

- **Only to the matching host, only over https.** A URL gets a credential when its
  host (or ``host:port``) has one (`satchel.install._credentials`), and only over
  ``https``, or plain ``http`` to a loopback address. Nothing goes to any other host:
  `guard` strips every credential header from a request a redirect sends to another
  origin (httpx drops only ``Authorization``, and keeps it on a same-host upgrade to
  https); git runs with ``http.followRedirects=false`` when it carries one.
- **A header helper runs only once approved.** The approval is a pin of the
  command's exact text in the user's trust list (`satchel.trust._trust.approve_helper`,
  written by ``satchel trust --header-helper HOST``); a helper never approved, or
  whose text changed since, is ``install.auth.unapproved`` and never runs.
- **No shell.** The approved text is split as a POSIX shell would split words
  (`shlex.split`) and run as an argv through `satchel.foundations.process.run_process`, with
  the scrubbed environment plus ``SATCHEL_AUTH_HOST`` (the host key), in the user's
  home, for at most `HELPER_TIMEOUT` seconds. A pipeline needs ``sh -c '...'``
  written out, so the approved text says it.
- **Its output is checked, never shown.** At most `MAX_HELPER_OUTPUT` bytes of
  ``Name: value`` lines (`MAX_HEADERS` of them), each name an HTTP token and not one
  that frames the request (``Host``, ``Content-Length``...), each value printable
  ASCII: no CR, LF or NUL inside a line. Anything else is
  ``install.auth.helper-output``; messages name the line, never its text.
"""

from __future__ import annotations

import base64
import re
import shlex
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, NoReturn
from urllib.parse import SplitResult, urlsplit

from satchel.foundations._net import is_loopback
from satchel.foundations.process import ProcessResult, base_env, run_process
from satchel.install._credentials import BUILT_IN, GITHUB_ENV, AuthRule, Credentials
from satchel.install._errors import refuse
from satchel.install._settings import Settings
from satchel.trust._trust import helper_digest

if TYPE_CHECKING:
    import httpx

__all__ = [
    "HELPER_TIMEOUT",
    "MAX_HEADERS",
    "MAX_HELPER_OUTPUT",
    "git_auth_env",
    "guard",
    "headers_for",
    "parse_header_lines",
]

HELPER_TIMEOUT = 30.0
MAX_HELPER_OUTPUT = 8 * 1024
MAX_HEADERS = 16
_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}\Z")
_VALUE = re.compile(r"[\x20-\x7e\t]{1,4096}\Z")
_FRAMING = frozenset(
    ("host", "content-length", "transfer-encoding", "connection", "upgrade", "te",
     "trailer", "keep-alive", "expect")
)  # fmt: skip


def headers_for(url: str, settings: Settings) -> dict[str, str]:
    """The credential headers to send with a request for `url`: {} unless it is
    https (or http to loopback) and its host has a credential."""
    parts = urlsplit(url)
    if not _secure(parts):
        return {}
    return dict(_credential(parts, settings)[0])


def git_auth_env(url: str, settings: Settings) -> dict[str, str]:
    """The environment variables giving git the credential for `url` (as command-scope
    config, ``GIT_CONFIG_COUNT``, so it is not in any argv): {} when there is none.
    A built-in token goes as HTTP Basic with the host's documented user name."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not _secure(parts):
        return {}
    headers, git_user = _credential(parts, settings)
    if git_user is not None and "Authorization" in headers:
        token = headers["Authorization"].removeprefix("Bearer ")
        basic = base64.b64encode(f"{git_user}:{token}".encode()).decode("ascii")
        headers = {"Authorization": f"Basic {basic}"}
    if not headers:
        return {}
    origin = f"{parts.scheme}://{parts.netloc}/"
    entries = [("http.followRedirects", "false")] + [
        (f"http.{origin}.extraHeader", f"{name}: {value}") for name, value in headers.items()
    ]
    env = {"GIT_CONFIG_COUNT": str(len(entries))}
    for index, (key, value) in enumerate(entries):
        env[f"GIT_CONFIG_KEY_{index}"] = key
        env[f"GIT_CONFIG_VALUE_{index}"] = value
    return env


def guard(url: str, sent: Mapping[str, str]) -> Callable[[httpx.Request], None]:
    """An httpx request hook that strips the headers `sent` from any request (a
    redirect) to another origin than `url`'s."""
    origin = _origin(urlsplit(url))
    names = tuple(sent)

    def hook(request: httpx.Request) -> None:
        if _origin(urlsplit(str(request.url))) != origin:
            for name in names:
                request.headers.pop(name, None)

    return hook


def parse_header_lines(text: str, host: str) -> dict[str, str]:
    """The headers a helper printed, checked (see the module); never echoes them."""
    if len(text.encode("utf-8", "surrogateescape")) > MAX_HELPER_OUTPUT:
        _bad_output(host, f"printed more than {MAX_HELPER_OUTPUT} bytes")
    found: dict[str, str] = {}
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, 1):
        line = line.removesuffix("\r")
        name, colon, value = line.partition(":")
        value = value.strip(" \t")
        if not colon or not _NAME.match(name):
            _bad_output(host, f"line {number} is not a 'Name: value' header line")
        if name.lower() in _FRAMING or name.lower().startswith("proxy-"):
            _bad_output(host, f"line {number} sets {name}, which satchel does not let it set")
        if not _VALUE.match(value):
            _bad_output(host, f"line {number} has an empty, overlong or non-printable value")
        if name.lower() in (n.lower() for n in found):
            _bad_output(host, f"line {number} repeats the header {name}")
        found[name] = value
    if not found:
        _bad_output(host, "printed no header line")
    if len(found) > MAX_HEADERS:
        _bad_output(host, f"printed more than {MAX_HEADERS} headers")
    return found


# -- which credential ------------------------------------------------------------------


def _secure(parts: SplitResult) -> bool:
    host = parts.hostname or ""
    return parts.scheme == "https" or (parts.scheme == "http" and is_loopback(host))


def _origin(parts: SplitResult) -> tuple[str, str, int | None]:
    default = {"https": 443, "http": 80}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), parts.port or default


def _credential(parts: SplitResult, settings: Settings) -> tuple[Mapping[str, str], str | None]:
    """The headers for the URL `parts`, and the git user name of a built-in token."""
    creds = settings.auth
    host = (parts.hostname or "").lower()
    key = creds.key_for(host, parts.port)
    if key is not None:
        if key in creds.invalid:
            message = f'[install.auth."{key}"] in config.toml is not valid: {creds.invalid[key]}'
            raise refuse("install.auth.invalid", message)
        rule = creds.rules[key]
        if rule.header_helper is not None:
            return _helper(key, rule, creds, settings), None
        return _bearer(creds.environ.get(rule.token_env or "")), None
    if host in _github_hosts(settings):
        return _bearer(settings.token or _first(creds.environ, GITHUB_ENV)), "x-access-token"
    if host in BUILT_IN:
        names, git_user = BUILT_IN[host]
        return _bearer(_first(creds.environ, names)), git_user
    return {}, None


def _github_hosts(settings: Settings) -> set[str]:
    hosts = {"github.com", "api.github.com"}
    for base in (settings.github_url, settings.github_api_url):
        hosts.add((urlsplit(base).hostname or "").lower())
    return hosts


def _first(environ: Mapping[str, str], names: tuple[str, ...]) -> str | None:
    return next((environ[n] for n in names if environ.get(n)), None)


def _bearer(token: str | None) -> Mapping[str, str]:
    if not token:
        return {}
    if not _VALUE.match(f"Bearer {token}"):
        raise refuse("install.auth.invalid", "a token holds characters a header cannot carry")
    return {"Authorization": f"Bearer {token}"}


# -- the header helper -----------------------------------------------------------------


def _helper(key: str, rule: AuthRule, creds: Credentials, settings: Settings) -> dict[str, str]:
    if key in creds.answers:
        return creds.answers[key]
    command = rule.header_helper or ""
    pinned = creds.approved.get(key)
    if pinned != helper_digest(key, command):
        what = "was never approved" if pinned is None else "changed since it was approved"
        raise refuse(
            "install.auth.unapproved",
            f"the header helper for {key} in config.toml {what}; it was not run",
            hint=f"read it, then approve it with `satchel trust --header-helper {key}`",
        )
    try:
        argv = shlex.split(command)
    except ValueError:
        message = f"the header helper for {key} is not a command line"
        raise refuse("install.auth.invalid", message) from None
    env = {**base_env(creds.environ), "SATCHEL_AUTH_HOST": key}
    result = run_process(
        argv,
        cwd=creds.cwd or "/",
        env=env,
        timeout=min(HELPER_TIMEOUT, settings.timeout),
        max_output=MAX_HELPER_OUTPUT,
    )
    if not result.ok:
        raise refuse("install.auth.helper-failed", _failure(key, result))
    if result.truncated:
        _bad_output(key, f"printed more than {MAX_HELPER_OUTPUT} bytes")
    headers = parse_header_lines(result.stdout, key)
    creds.answers[key] = headers
    return headers


def _failure(key: str, result: ProcessResult) -> str:
    code = result.exit_code
    if result.timed_out:
        why = "timed out"
    elif code is None:
        why = f"did not start: {result.diagnostics[0].message}" if result.diagnostics else ""
    else:
        why = f"exited with {code}"
    return f"the header helper for {key} {why or 'failed'}; nothing was fetched"


def _bad_output(host: str, why: str) -> NoReturn:
    message = f"the header helper for {host} {why}; its output was not used"
    raise refuse("install.auth.helper-output", message)

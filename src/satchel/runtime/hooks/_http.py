"""``type: "http"`` hooks: the event's JSON POSTed to the hook's ``url``
(code.claude.com/docs/en/hooks, "HTTP hooks").

- The URL must match a pattern the user allows (Claude Code's ``allowedHttpHookUrls``
  setting, read from the Claude Code settings satchel reads hooks from, plus the
  ``allowed_http_hook_urls`` load option); ``*`` matches any run of characters. A URL
  no pattern matches is refused (``hook.http.refused``) and nothing is sent. Unlike
  Claude Code, which posts anywhere when the setting is absent, satchel sends nothing
  until a pattern allows it.
- ``headers`` values may name environment variables as ``$NAME`` or ``${NAME}``; only
  names the hook lists in ``allowedEnvVars`` are filled, any other becomes the empty
  string (as Claude Code does); when the settings set ``httpHookAllowedEnvVars``, a
  hook's list is cut to the names it holds too.
- A 2xx answer with an empty body is success with no output; a 2xx body is read as a
  command hook's stdout JSON (a body that is not a JSON object counts as unreadable).
  Any other status and a connection failure are non-blocking errors
  (``hook.http.failed``); running past the timeout is ``hook.timeout``. Redirects are
  not followed, and proxies from the environment are not used.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from satchel.core.diagnostics import diagnostic
from satchel.foundations.process import ProcessResult
from satchel.hooks._model import Hook, HookResult
from satchel.runtime.hooks._output import failure_result, read_result

__all__ = ["allowed_url", "headers_for", "run_http"]

_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def allowed_url(url: str, patterns: Sequence[str]) -> bool:
    """Whether some pattern of `patterns` (``*`` a wildcard) matches all of `url`."""
    for pattern in patterns:
        regex = ".*".join(re.escape(part) for part in pattern.split("*"))
        if re.fullmatch(regex, url):
            return True
    return False


def headers_for(
    hook: Hook, environ: Mapping[str, str], policy: Sequence[str] | None = None
) -> dict[str, str]:
    """The hook's headers with the variables it allows filled from `environ` (any other
    variable, and an allowed one that is not set, is the empty string). `policy`: the
    settings' ``httpHookAllowedEnvVars``, which the hook's own list is cut to."""
    params = hook.spec.params
    allowed = set(params.get("allowedEnvVars", ()))
    if policy is not None:
        allowed &= set(policy)
    headers: Mapping[str, str] = params.get("headers", {})

    def fill(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return environ.get(name, "") if name in allowed else ""

    return {key: _VARIABLE.sub(fill, value) for key, value in headers.items()}


def run_http(
    hook: Hook,
    event: str,
    payload: Mapping[str, Any],
    *,
    timeout: float,
    allowed: Sequence[str],
    environ: Mapping[str, str],
    env_policy: Sequence[str] | None = None,
) -> HookResult:
    """POST `payload` to the hook's URL (when `allowed` lets it) and read the answer."""
    import httpx  # only a host that runs http hooks pays for importing it

    url = str(hook.spec.params["url"])
    if not allowed_url(url, allowed):
        return _refused(hook, event, url)
    body = json.dumps(payload, ensure_ascii=False, default=str)
    headers = {"Content-Type": "application/json", **headers_for(hook, environ, env_policy)}
    started = time.monotonic()
    try:
        with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client:
            answer = client.post(url, content=body.encode("utf-8"), headers=headers)
    except httpx.TimeoutException:
        why = f"timed out after {timeout:g} s posting to {url}"
        return failure_result(hook, event, "hook.timeout", why, timed_out=True)
    except httpx.HTTPError as e:
        return failure_result(hook, event, "hook.http.failed", f"could not post to {url}: {e}")
    duration = time.monotonic() - started
    if not 200 <= answer.status_code < 300:
        why = f"answered HTTP {answer.status_code} from {url}"
        return failure_result(hook, event, "hook.http.failed", why)
    text = answer.text
    if text.strip() and not text.strip().startswith("{"):
        return failure_result(hook, event, "hook.output.invalid", "its answer is not a JSON object")
    run = ProcessResult(("POST", url), 0, text, "", duration=duration)
    return read_result(hook, event, run)


def _refused(hook: Hook, event: str, url: str) -> HookResult:
    message = f"hook {hook.name!r} posts to {url}, which no allowed URL pattern lists; not sent"
    hint = (
        "list it in Claude Code's allowedHttpHookUrls setting or load(allowed_http_hook_urls=[...])"
    )
    problem = diagnostic("hook.http.refused", message, hook.spec.path, hint=hint)
    result = failure_result(hook, event, "hook.http.refused", f"posts to {url}; not sent")
    return replace(result, diagnostics=(problem,))

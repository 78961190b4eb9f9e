"""In-process hooks: the callbacks of `satchel.hooks.HookMatcher` run on the runner's
worker thread, with the same decision model as command hooks.

A plain function is called on a thread of its own and waited for up to the matcher's
timeout; a coroutine function runs to its end on an event loop of its own under
``asyncio.wait_for`` (so it must not need objects bound to the host's loop). What it
returns is read as a command hook's stdout JSON; None is no opinion. A callback that
raises is ``hook.python.failed`` and one that runs past its timeout ``hook.timeout``:
both non-blocking errors, as a command hook's exit 1 is. A sync callback past its
timeout is left to finish on its thread (Python cannot stop it); its answer is dropped.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import threading
import time
from collections.abc import Mapping
from typing import Any

from satchel.foundations.process import ProcessResult
from satchel.hooks._callbacks import HookContext
from satchel.hooks._model import Hook, HookResult
from satchel.runtime.hooks._output import failure_result, read_result

__all__ = ["HookTimeout", "call_within", "run_python"]

_SPELLINGS = {"continue_": "continue", "async_": "async"}


class HookTimeout(Exception):
    """A call ran past its timeout (`call_within`)."""


def run_python(hook: Hook, event: str, payload: Mapping[str, Any], timeout: float) -> HookResult:
    """Call the hook's callback with the event and read what it returned."""
    fn = hook.spec.params["callback"]
    data = dict(payload)
    tool_use_id = data.get("tool_use_id")
    context = HookContext(event=event, name=hook.name)
    args = (data, tool_use_id if isinstance(tool_use_id, str) else None, context)
    started = time.monotonic()
    try:
        answer = _call(fn, args, timeout)
    except HookTimeout:
        why = f"timed out after {timeout:g} s; its answer is dropped"
        return failure_result(hook, event, "hook.timeout", why, timed_out=True)
    except Exception as e:  # noqa: BLE001 - a callback's failure is the hook's
        why = f"raised {type(e).__name__}: {e}"
        return failure_result(hook, event, "hook.python.failed", why)
    if answer is not None and not isinstance(answer, Mapping):
        why = f"its callback returned {type(answer).__name__}, not a dict"
        return failure_result(hook, event, "hook.output.invalid", why)
    stdout = "" if not answer else json.dumps(_spelled(answer), default=str)
    run = ProcessResult(("python", hook.name), 0, stdout, "", duration=time.monotonic() - started)
    return read_result(hook, event, run)


def _spelled(answer: Mapping[str, Any]) -> dict[str, Any]:
    """The SDK's ``continue_``/``async_`` written as the protocol's keys."""
    return {_SPELLINGS.get(k, k): v for k, v in answer.items()}


def _call(fn: Any, args: tuple[Any, ...], timeout: float) -> Any:
    if inspect.iscoroutinefunction(fn):
        return asyncio.run(_awaited(fn, args, timeout))
    value = call_within(fn, args, timeout)
    if inspect.isawaitable(value):  # a plain function that returned a coroutine
        return asyncio.run(_awaited(lambda *_: value, args, timeout))
    return value


def call_within(fn: Any, args: tuple[Any, ...], timeout: float) -> Any:
    """`fn(*args)` on a thread of its own, waited for up to `timeout` seconds: its
    value, or what it raised; `HookTimeout` when it is still running (it is left to
    finish, and what it gives is dropped)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - handed back to the waiting thread
            box["error"] = e

    worker = threading.Thread(target=target, name="satchel-hook-call", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise HookTimeout
    if "error" in box:
        raise box["error"]
    return box.get("value")


async def _awaited(fn: Any, args: tuple[Any, ...], timeout: float) -> Any:
    try:
        return await asyncio.wait_for(fn(*args), timeout)
    except TimeoutError:
        raise HookTimeout from None

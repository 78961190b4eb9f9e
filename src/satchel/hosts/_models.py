"""The models a host knows: its default model, each known model's context window, and
how many characters the host counts a token as when it sizes its skill listing.

A host sizes its listing from the model it runs (Claude Code: a share of the model's
context window, at 3 or 4 characters a token). `Models.resolve` gives the `Window` for
a model id, or the host's fallback for an id it does not know, with a
``host.model-unknown`` warning. The host's settings that change the listing (Claude
Code's ``skillListingBudgetFraction`` and ``skillListingMaxDescChars``) are
`satchel.index._listing.ListingSettings`.

Claude Code's numbers are those of its baked model catalogue (2.1.332 and 2.1.337:
``context:{window:1e6,native_1m:!0}`` for ``claude-opus-5-5``) and of ``Hw()``, which
counts 4 characters a token for the models before the Opus 4.7 generation and 3 for the
others and for an id it does not know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field, replace
from types import MappingProxyType

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic

__all__ = [
    "CLAUDE_CODE_MODELS",
    "CODEX_MODELS",
    "GEMINI_MODELS",
    "FALLBACK_TOKENS",
    "Models",
    "Resolved",
    "Window",
]

FALLBACK_TOKENS = 200_000
"""The window assumed when neither the model nor the host says one."""
LONG = "[1m]"
_NO_ALIASES: Mapping[str, str] = MappingProxyType({})


@model
class Window:
    """One model's context window in `tokens`, and the characters a host counts a
    token as (`chars_per_token`) when it turns that window into a listing budget."""

    id: str
    tokens: int
    chars_per_token: int = 4


@model
class Resolved:
    """The `window` a model id resolves to, and whether the host `known` it (an
    unknown id gets the host's fallback window)."""

    model: str | None
    window: Window
    known: bool = True

    def diagnostics(self, host: str) -> tuple[Diagnostic, ...]:
        """``host.model-unknown`` for an id the host does not know, else nothing."""
        if self.known or self.model is None:
            return ()
        message = (
            f"model {self.model!r} is not one {host} knows: its listing budget assumes a "
            f"{self.window.tokens:,}-token context window at "
            f"{self.window.chars_per_token} characters a token"
        )
        return (diagnostic("host.model-unknown", message, severity="warning"),)


@model
class Models:
    """A host's models: its `default` id (None: the host names none), the `known`
    ones, and the window (`fallback`) and characters a token (`fallback_chars`) it
    assumes for an id it does not know. `aliases` name known ids (Claude Code's
    ``opus``, in any case); `snapshot` is a pattern a dated id ends with, dropped
    before the lookup (``claude-opus-4-6-20250101``); `long_context` the window an id
    asking for it with ``[1m]`` (in any case, an alias's too: ``opus[1M]``) gets at
    least (None: the suffix is not read)."""

    default: str | None = None
    known: tuple[Window, ...] = ()
    fallback: int = FALLBACK_TOKENS
    fallback_chars: int = 4
    aliases: Mapping[str, str] = field(default_factory=lambda: _NO_ALIASES)
    snapshot: str | None = None
    long_context: int | None = None

    def resolve(self, model: str | None = None) -> Resolved:
        """The window of `model` (None: the host's default model)."""
        wanted = model if model is not None else self.default
        name = wanted or ""
        longer = self.long_context is not None and name.lower().endswith(LONG)
        if longer:  # before the alias, in any case, as Claude Code reads it
            name = name[: -len(LONG)]
        name = self.aliases.get(name.strip().lower(), name)
        if self.snapshot is not None:
            name = re.sub(self.snapshot, "", name)
        for window in self.known:
            if window.id == name:
                if longer and self.long_context is not None:
                    window = replace(window, tokens=max(window.tokens, self.long_context))
                return Resolved(wanted, window)
        fallback = Window(wanted or "", self.fallback, self.fallback_chars)
        return Resolved(wanted, fallback, known=model is None or model == self.default)

    def ids(self) -> tuple[str, ...]:
        """The known model ids, in catalogue order."""
        return tuple(w.id for w in self.known)


def _claude(tokens: int, *ids: str, chars: int = 3) -> tuple[Window, ...]:
    return tuple(Window(i, tokens, chars) for i in ids)


CLAUDE_CODE_MODELS = Models(
    default="claude-opus-5-5",
    known=(
        *_claude(
            1_000_000,
            "claude-opus-5-5",
            "claude-opus-5",
            "claude-opus-4-8",
            "claude-opus-4-7",
            "claude-sonnet-5-5",
            "claude-sonnet-5",
            "claude-haiku-5-5",
            "claude-fable-5-2",
            "claude-fable-5-1",
            "claude-fable-5",
            "claude-mythos-5-2",
            "claude-mythos-5-1",
            "claude-mythos-5",
        ),
        *_claude(200_000, "claude-opus-4-6", "claude-sonnet-4-6", "claude-sonnet-4-5", chars=4),
        *_claude(200_000, "claude-opus-4-5", "claude-opus-4-1", "claude-opus-4-0", chars=4),
        *_claude(200_000, "claude-haiku-4-5", "claude-3-7-sonnet", "claude-3-5-haiku", chars=4),
        *_claude(200_000, "claude-3-5-sonnet", "claude-3-opus", "claude-3-sonnet", chars=4),
        *_claude(200_000, "claude-3-haiku", chars=4),
    ),
    fallback=1_000_000,
    fallback_chars=3,
    aliases=MappingProxyType(
        {"opus": "claude-opus-5-5", "sonnet": "claude-sonnet-5-5", "haiku": "claude-haiku-5-5"}
    ),
    snapshot=r"-\d{8}$",
    long_context=1_000_000,
)
"""Claude Code 2.1.332 and 2.1.337: default model ``claude-opus-5-5``, 1,000,000
tokens at 3 characters a token (30,000 characters of listing at 1%). Observed with
2.1.337 offline: ``opus``, ``sonnet`` and ``haiku`` name the 5.5 models; a dated id
(``claude-opus-4-6-20250101``) is its model's; ``[1m]`` gives 1,000,000 tokens
(``claude-opus-4-6[1m]``: 40,000 characters); ``claude-3-5-sonnet`` gets 200,000
tokens at 4 characters a token."""


def _windows(tokens: int, *ids: str) -> tuple[Window, ...]:
    return tuple(Window(i, tokens) for i in ids)


CODEX_MODELS = Models(
    default="gpt-6.2-sol",
    known=(
        *_windows(500_000, "gpt-6.2-sol", "gpt-6.1-sol", "gpt-6.1-terra"),
        *_windows(272_000, "gpt-6.2-astra", "gpt-6-astra", "gpt-6-sol", "gpt-6-luna"),
        *_windows(272_000, "gpt-5.6-sol", "gpt-5.6-terra", "gpt-5.6-luna", "gpt-5.5"),
        *_windows(272_000, "gpt-daybreak-blue-latest", "codex-auto-review"),
        *_windows(372_000, "gpt-daybreak-red-latest"),
    ),
    fallback=272_000,
)
"""Codex 0.171.0 (``codex debug models``): default model ``gpt-6.2-sol``, each model's
``context_window`` (the whole window, not its effective 95%: Codex takes its listing's
2% of it, in tokens of 4 bytes); a model its catalogue does not name gets 272,000
tokens (``model_context_window`` in ``config.toml`` overrides any)."""

GEMINI_MODELS = Models(
    default="auto",
    known=_windows(
        1_048_576,
        "auto",
        "pro",
        "flash",
        "flash-lite",
        "gemini-3-pro-preview",
        "gemini-3.1-pro-preview",
        "gemini-3-flash-preview",
        "gemini-3.5-flash",
        "gemini-3.8-flash",
        "gemini-3.1-flash-lite",
        "gemini-3.5-flash-lite",
        "gemini-2.5-pro",
    ),
    fallback=1_048_576,
)
"""Gemini CLI 0.61.0: default model ``auto`` (a routing request picks each turn's model),
1,048,576 tokens for its own models (``tokenLimit``). Its skill listing has no budget,
so the window changes nothing there."""

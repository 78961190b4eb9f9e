"""satchel's exceptions. Bad files never raise: they become diagnostics. These are
for misuse of the API by a host, and for requests (from the host or the model) that
satchel refuses or cannot carry out.

    SatchelError
    ├── SkillDefinitionError   define_skill() was given a skill the spec refuses
    ├── BodyError              a file's body could not be read when it was needed
    │   ├── SkillBodyError     Skill.body()
    │   └── CommandBodyError   Command.body()
    ├── TrustStoreError        the list of trusted folders cannot be read (trust, untrust)
    ├── McpUnavailable         the ``mcp`` SDK, needed to reach MCP servers, is not installed
    ├── PromptBlocked          a ``UserPromptSubmit`` hook blocked the user's turn (`.reason`)
    └── Refused                a request refused with a diagnostic (`.code`, `.diagnostic`)
        ├── ResourceError      a path named by the model is refused or unreadable
        ├── UnknownHost        no host profile of that name (``host.unknown``)
        ├── SessionError       a Session call cannot be carried out
        │   ├── UnknownSkill, SkillsOff, MaxActiveReached, SkillInactive
        │   ├── UnknownOutputStyle  Session(output_style=...) names no loaded style
        │   ├── ForkUnavailable, ForkFailed  a ``context: fork`` skill cannot run
        │   ├── ToolNotAllowed an active skill's allowed-tools does not cover a call
        │   └── Collision      the host already has a tool or context of that name
        └── InstallError       an install, update, removal or fetch (``install.*`` codes)
            └── HttpRefused    a server answered a download with an error status (`.status`)
"""

from __future__ import annotations

from collections.abc import Sequence

from satchel.core.diagnostics import Diagnostic, diagnostic

__all__ = [
    "BodyError",
    "Collision",
    "CommandBodyError",
    "ForkFailed",
    "ForkUnavailable",
    "HttpRefused",
    "InstallError",
    "MaxActiveReached",
    "McpUnavailable",
    "PromptBlocked",
    "Refused",
    "ResourceError",
    "SatchelError",
    "SessionError",
    "SkillBodyError",
    "SkillDefinitionError",
    "SkillInactive",
    "SkillsOff",
    "ToolNotAllowed",
    "TrustStoreError",
    "UnknownHost",
    "UnknownOutputStyle",
    "UnknownSkill",
]


class SatchelError(Exception):
    """The root of satchel's exceptions."""


class SkillDefinitionError(SatchelError, ValueError):
    """A skill defined in code breaks the spec; `diagnostics` says how."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__("; ".join(f"{d.code}: {d.message}" for d in self.diagnostics))


class BodyError(SatchelError):
    """A body read on demand could not be read; `diagnostic` says why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class SkillBodyError(BodyError):
    """The body of a skill could not be read."""


class CommandBodyError(BodyError):
    """The body of a command file could not be read."""


class TrustStoreError(SatchelError):
    """The list of trusted folders cannot be read, so it is not written over."""


class McpUnavailable(SatchelError):
    """The ``mcp`` SDK is not installed; the message says how to install it."""


class PromptBlocked(SatchelError):
    """A ``UserPromptSubmit`` hook blocked the user's turn: it never reached the model."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Refused(SatchelError):
    """A request satchel refuses; the diagnostic carries its stable code and message."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic

    @property
    def code(self) -> str:
        return self.diagnostic.code


class ResourceError(Refused):
    """A path inside a skill (named by the model or the host) is refused or unreadable."""


class UnknownHost(Refused, KeyError):
    """No built-in host profile, nor one in the user's ``config.toml``, has that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return self.diagnostic.message


class SessionError(Refused):
    """A Session call cannot be carried out."""


class UnknownSkill(SessionError, KeyError):
    """No skill of that name is available (`session.skill.unknown`)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return self.diagnostic.message


class UnknownOutputStyle(SessionError, KeyError):
    """No output style of that id is loaded (`session.output_style.unknown`)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return self.diagnostic.message


class SkillsOff(SessionError):
    """Skills are turned off for the session (`session.skills.off`)."""


class MaxActiveReached(SessionError):
    """One more active skill would pass `max_active` (`session.max-active`)."""


class SkillInactive(SessionError):
    """The tool needs the skill to be active first (`session.skill.inactive`)."""


class ForkUnavailable(SessionError):
    """A ``context: fork`` skill was activated and no fork callback is registered
    (`session.fork.unavailable`)."""


class ForkFailed(SessionError):
    """The host's fork callback raised (`session.fork.failed`)."""


class ToolNotAllowed(SessionError):
    """An active skill's allowed-tools does not cover the call (`session.tool.not-allowed`)."""


class Collision(SessionError):
    """The host already has a tool or context segment of that name."""


class InstallError(Refused):
    """An install, update, removal or fetch that satchel refuses or cannot carry out.

    `code` is a stable ``install.*`` diagnostic code; nothing was written to the
    scope when it is raised (the staging directory is removed)."""


class HttpRefused(InstallError):
    """The server answered with an error status (`status`)."""

    def __init__(self, url: str, status: int, reason: str) -> None:
        super().__init__(diagnostic("install.fetch.failed", f"GET {url}: {status} {reason}"))
        self.status = status

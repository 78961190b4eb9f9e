"""satchel's public exceptions form one tree, drawn in `satchel.core.errors`."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import satchel
from satchel.core import errors


def _modules() -> list[str]:
    names = ["satchel"]
    for info in pkgutil.walk_packages(satchel.__path__, "satchel."):
        if info.name != "satchel.__main__":
            names.append(info.name)
    return names


def test_every_satchel_error_is_defined_in_the_errors_module():
    found = {}
    for name in _modules():
        for value in vars(importlib.import_module(name)).values():
            if inspect.isclass(value) and issubclass(value, errors.SatchelError):
                found[value.__qualname__] = value.__module__
    assert sorted(found) == sorted(errors.__all__)
    assert set(found.values()) == {"satchel.core.errors"}


def test_the_docstring_draws_every_exception_of_the_module():
    drawn = errors.__doc__ or ""
    assert [name for name in errors.__all__ if name not in drawn] == []


def test_each_drawn_exception_has_the_parent_the_tree_shows():
    parents = {name: getattr(errors, name).__bases__[0].__name__ for name in errors.__all__}
    assert parents == {
        "BodyError": "SatchelError",
        "Collision": "SessionError",
        "CommandBodyError": "BodyError",
        "ForkFailed": "SessionError",
        "ForkUnavailable": "SessionError",
        "HttpRefused": "InstallError",
        "InstallError": "Refused",
        "MaxActiveReached": "SessionError",
        "McpUnavailable": "SatchelError",
        "PromptBlocked": "SatchelError",
        "Refused": "SatchelError",
        "ResourceError": "Refused",
        "SatchelError": "Exception",
        "SessionError": "Refused",
        "SkillBodyError": "BodyError",
        "SkillDefinitionError": "SatchelError",
        "SkillInactive": "SessionError",
        "SkillsOff": "SessionError",
        "ToolNotAllowed": "SessionError",
        "TrustStoreError": "SatchelError",
        "UnknownHost": "Refused",
        "UnknownOutputStyle": "SessionError",
        "UnknownSkill": "SessionError",
    }


def test_the_exceptions_raised_to_a_host_are_exported_by_satchel():
    exported = {"HttpRefused", "InstallError", "McpUnavailable", "TrustStoreError"}
    assert exported <= set(satchel.__all__)
    assert [getattr(satchel, name) for name in sorted(exported)] == [
        getattr(errors, name) for name in sorted(exported)
    ]


def test_an_http_refusal_carries_its_code_message_and_status():
    refused = errors.HttpRefused("https://example.invalid/x", 404, "Not Found")
    assert (refused.code, str(refused), refused.status) == (
        "install.fetch.failed",
        "GET https://example.invalid/x: 404 Not Found",
        404,
    )

"""The registry of diagnostic codes is read-only and says every severity a code is
emitted at; `diagnostic()` refuses any other."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from satchel.core.diagnostics import CODES, SEVERITIES, Entry, diagnostic, recast


def test_the_registry_cannot_be_changed():
    with pytest.raises(TypeError):
        CODES["made.up"] = Entry("error", "x")  # type: ignore[index]
    assert "made.up" not in CODES


def test_satchel_exports_the_same_registry():
    assert satchel.CODES is CODES


def test_an_entry_reads_as_its_default_severity_then_its_meaning():
    entry = CODES["plugin.path.outside_root"]
    assert (entry[0], entry[1]) == ("error", "a declared path escapes the plugin root")
    assert entry.emitted == ("error", "warning")


def test_every_entry_names_each_severity_once_and_only_known_ones():
    bad = [
        code
        for code, entry in CODES.items()
        if len(set(entry.emitted)) != len(entry.emitted)
        or not set(entry.emitted) <= set(SEVERITIES)
    ]
    assert bad == []


def test_without_a_severity_a_code_gets_its_default():
    found = diagnostic("plugin.path.outside_root", "m", Path("p"))
    assert (found.code, found.severity, found.message) == ("plugin.path.outside_root", "error", "m")


def test_a_registered_second_severity_is_given():
    found = diagnostic("plugin.path.outside_root", "m", severity="warning")
    assert found.severity == "warning"


def test_a_severity_the_code_is_not_registered_at_is_refused():
    with pytest.raises(ValueError) as refused:
        diagnostic("skill.shadowed", "m", severity="error")
    assert str(refused.value) == "skill.shadowed is registered at warning, not error"


def test_an_unknown_code_is_refused():
    with pytest.raises(KeyError):
        diagnostic("made.up", "m")


def test_a_diagnostic_recast_keeps_what_it_does_not_change():
    found = diagnostic("agent.invalid", "bad", None, hint="h")
    recast_found = recast(found, "warning", message="milder")
    assert (recast_found.code, recast_found.severity) == ("agent.invalid", "warning")
    assert (recast_found.message, recast_found.hint) == ("milder", "h")


def test_a_recast_to_an_unregistered_severity_is_refused():
    with pytest.raises(ValueError) as refused:
        recast(diagnostic("skill.shadowed", "m"), "error")
    assert str(refused.value) == "skill.shadowed is registered at warning, not error"

"""The one trust value `load()` decides (`Trust`) and the `Origin` shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.origin import Origin, Trust


@pytest.mark.parametrize(
    ("folder", "load_project", "state", "flags"),
    [
        (True, True, "trusted", (True, True, False)),
        (False, True, "untrusted", (True, False, True)),
        (True, False, "hidden", (False, False, False)),
        (False, False, "hidden", (False, False, True)),
    ],
)
def test_trust_decides_the_state_and_the_flags_every_part_reads(folder, load_project, state, flags):
    trust = Trust.decide(folder=folder, load_project=load_project)
    assert (trust.state, trust.folder) == (state, folder)
    assert (trust.load_project, trust.run_project, trust.demote_project) == flags


def test_a_trusted_project_needs_a_trusted_folder():
    with pytest.raises(ValueError, match="a project whose folder is not trusted cannot be"):
        Trust("trusted", folder=False)


def test_an_untrusted_project_has_a_folder_that_is_not_trusted():
    with pytest.raises(ValueError, match="a project whose folder is trusted is trusted or hidden"):
        Trust("untrusted", folder=True)


def test_trust_and_origin_are_frozen_values():
    trust = Trust.decide(folder=True, load_project=True)
    origin = Origin("plugin", "kit", plugin="kit", namespace="kit", path=Path("/p/kit"))
    assert trust == Trust("trusted", folder=True)
    assert (origin.scope, origin.family, origin.plugin, origin.namespace) == (
        "plugin",
        "kit",
        "kit",
        "kit",
    )
    assert (origin.path, origin.trust) == (Path("/p/kit"), "trusted")
    with pytest.raises(AttributeError):
        origin.scope = "user"  # type: ignore[misc]

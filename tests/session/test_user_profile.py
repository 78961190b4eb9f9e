"""A session that names a host profile of the user's config.toml reports what was
wrong in that file, once: `load` reports it when it read with that profile."""

from __future__ import annotations

import satchel
from satchel.session import Session

COLOUR = ("host.config.invalid", "[hosts.acme]: unknown key 'colour'; left out")


def _acme(home):
    config = home / ".config" / "satchel"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('[hosts.acme]\nbase = "kimi"\ncolour = 1\n')


def _host_problems(found):
    return [(d.code, d.message) for d in found if d.code.startswith("host.config")]


def test_a_session_naming_a_bad_user_profile_reports_it(project, home):
    _acme(home)
    env = satchel.load(layout=satchel.Layout.default(project, home=home))
    assert _host_problems(env.diagnostics) == []
    assert _host_problems(Session(env, host="acme").diagnostics) == [COLOUR]


def test_a_session_under_the_loads_own_profile_leaves_it_to_the_load(project, home):
    _acme(home)
    env = satchel.load(layout=satchel.Layout.default(project, home=home), host="acme")
    assert _host_problems(env.diagnostics) == [COLOUR]
    assert _host_problems(Session(env, host="acme").diagnostics) == []

"""The shared context options: no verb declares them itself, the dispatcher builds one
`Here` value from them, and the host profile --host names is looked up once, with what
was wrong in the user's config.toml reported."""

from __future__ import annotations

import importlib
import json

import click
import pytest

from satchel.cli import VERBS
from satchel.cli._params import SHARED, Shared

IDS = [" ".join(v.words) for v in VERBS]
ACME = '[hosts.acme]\nbase = "kimi"\ncolour = 1\n'
COLOUR = "[hosts.acme]: unknown key 'colour'; left out"


@pytest.mark.parametrize("verb", VERBS, ids=IDS)
def test_no_verb_declares_a_shared_context_option_itself(verb):
    module = importlib.import_module(verb.module)
    own = [p.name for p in module.PARAMS if isinstance(p, click.Parameter)]
    assert not set(own) & set(SHARED), f"{verb.module} declares {set(own) & set(SHARED)}"
    marks = [p for p in module.PARAMS if isinstance(p, Shared)]
    assert all(set(m.names) <= set(SHARED) for m in marks)


@pytest.mark.parametrize("verb", VERBS, ids=IDS)
def test_a_verb_that_takes_shared_options_takes_them_as_one_value(verb):
    module = importlib.import_module(verb.module)
    taken = [n for p in module.PARAMS if isinstance(p, Shared) for n in p.names]
    annotations = module.run.__annotations__
    assert ("here" in annotations) == bool(taken)
    assert not set(annotations) & set(SHARED)


def _acme(home):
    config = home / ".config" / "satchel"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(ACME)


@pytest.mark.parametrize("verb", ["list", "doctor", "instructions"])
def test_a_bad_user_profile_is_reported_by_a_verb_run_under_it(satchel, project, home, verb):
    _acme(home)
    result = satchel(verb, project, "--home", home, "--host", "acme", "--json")
    assert result.code == 0, result.err
    found = [(d["code"], d["message"]) for d in json.loads(result.out)["diagnostics"]]
    assert ("host.config.invalid", COLOUR) in found


def test_a_bad_user_profile_is_reported_as_load_reports_it(satchel, project, home):
    from satchel import load
    from satchel.core.layout import Layout

    _acme(home)
    result = satchel("list", project, "--home", home, "--host", "acme", "--json")
    shown = [d for d in json.loads(result.out)["diagnostics"] if d["code"].startswith("host.")]
    env = load(layout=Layout.default(project, home=home), host="acme")
    assert shown == [d.to_json() for d in env.diagnostics if d.code.startswith("host.")]
    assert [d["message"] for d in shown] == [COLOUR]


def test_the_profile_is_looked_up_once_per_invocation(satchel, project, home, monkeypatch):
    from satchel.hosts import _config

    _acme(home)
    calls = []
    real = _config.user_profiles

    def counted(config_home):
        calls.append(config_home)
        return real(config_home)

    monkeypatch.setattr(_config, "user_profiles", counted)
    result = satchel("list", project, "--home", home, "--host", "acme", "--json")
    assert result.code == 0, result.err
    assert calls == [home / ".config"]


def test_an_unknown_profile_is_still_a_usage_error_naming_the_option(satchel, project, home):
    _acme(home)
    result = satchel("instructions", project, "--home", home, "--host", "acm")
    assert result.code == 2
    assert "Invalid value for '--host': no host profile is named 'acm'" in result.err

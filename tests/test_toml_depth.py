"""Every TOML satchel reads is bounded in depth (`satchel.core._toml.loads`, 64 levels): a
policy.toml, config.toml or hooks.toml nested thousands deep, by brackets, inline
tables or dotted keys, is a diagnostic naming the limit, never a `RecursionError`."""

from __future__ import annotations

import json

import pytest

import satchel
from satchel.cli import main
from satchel.core import _toml
from tests.support import put

N = 2_000
DEEP = {
    "arrays": "a = " + "[" * N + "]" * N + "\n",
    "inline tables": "a = " + "{ b = " * N + "1" + " }" * N + "\n",
    "dotted keys": "a" + ".b" * N + " = 1\n",
    "a table header": "[" + ".".join(["t"] * N) + "]\nx = 1\n",
}
TOO_DEEP = f"it nests deeper than {_toml.MAX_DEPTH} levels"


# A megabyte of quotes that never close (the largest TOML file satchel reads): a scan
# that tried each quote to the end of the line would take more than half an hour here.
UNCLOSED = {
    "escaped quotes": '"' + '\\"' * (512 * 1024),
    "single quotes": "'" * (1024 * 1024),
    "triple quotes": '"""' * (340 * 1024),
    "double quotes then a bracket": '"' * (1024 * 1024) + "\na = [[1]]\n",
}


@pytest.mark.parametrize("form", sorted(UNCLOSED))
def test_strings_left_open_are_scanned_once(form):
    text = UNCLOSED[form]
    assert _toml.nesting(text) == (2 if "bracket" in form else 0)
    with pytest.raises(ValueError):
        _toml.loads(text)


def test_a_string_left_open_ends_with_its_line():
    assert _toml.nesting("a = \"open [[\nb = [[[1]]]\nc = '[[[[\n") == 3
    assert _toml.nesting('a = "ends with a backslash \\\nb = [[1]]\n') == 2


@pytest.mark.parametrize("form", sorted(DEEP))
def test_the_parser_refuses_each_deep_form(form):
    with pytest.raises(_toml.TooDeep, match=f"^{TOO_DEEP}$"):
        _toml.loads(DEEP[form])


def test_the_parser_reads_up_to_the_limit_and_skips_strings_and_comments():
    limit = _toml.MAX_DEPTH
    assert _toml.loads("a = " + "[" * (limit - 1) + "]" * (limit - 1))["a"] is not None
    text = "a = \"[[[{{\"\nb = '[[['\nc = '''\n{{{{'''\n# [[[[[[\n[t]\nd = \"\"\"]]\"\"\"\n"
    assert _toml.nesting(text) == 1
    assert _toml.loads(text) == {"a": "[[[{{", "b": "[[[", "c": "{{{{", "t": {"d": "]]"}}


@pytest.mark.parametrize("form", sorted(DEEP))
def test_a_deep_project_policy_fails_closed_even_untrusted(project, home, capsys, form):
    path = put(project / ".satchel" / "policy.toml", DEEP[form])
    where = ["--project", str(project), "--home", str(home)]
    message = (
        f"policy file {path}: not valid TOML: {TOO_DEEP}; nothing executable runs until it is fixed"
    )
    assert main(["policy", "check", *where, "--json"]) == 4
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["code"], d["message"]) for d in found] == [("policy.invalid", message)]
    assert main(["list", *where, "--json"]) == 0  # every verb: a diagnostic, not a crash
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert ("policy.invalid", message) in [(d["code"], d["message"]) for d in found]


def test_deep_config_and_hooks_files_are_diagnostics(layout):
    put(layout.config_home / "satchel" / "config.toml", DEEP["dotted keys"])
    put(layout.project / ".satchel" / "hooks.toml", DEEP["inline tables"])
    env = satchel.load(layout=layout)
    found = {(d.code, d.message) for d in env.diagnostics}
    assert found >= {
        ("config.invalid", f"config.toml: not valid TOML: {TOO_DEEP}"),
        ("hook.file.invalid", f"not valid TOML ({TOO_DEEP}); no hook of this file loads"),
    }

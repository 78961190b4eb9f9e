"""How `satchel serve` names skill files as URIs and reads prompt arguments from hints."""

from __future__ import annotations

import pytest

from satchel.core.errors import Refused
from satchel.kinds.commands import Command, split_arguments
from satchel.server._map import argument_text, parse_skill_uri, prompt_shape, skill_uri


def test_a_uri_round_trips_and_encodes_what_a_uri_would_misread():
    uri = skill_uri("tools:lint", "references/a b/é#1.md")
    assert uri == "skill://tools%3Alint/references/a%20b/%C3%A9%231.md"
    assert parse_skill_uri(uri) == ("tools:lint", "references/a b/é#1.md")


def test_a_uri_is_decoded_before_its_path_is_judged():
    # the path rules (satchel.kinds.resources) then see the .. this spells and refuse it
    assert parse_skill_uri("skill://x/%2e%2e/%2E%2E/etc/passwd") == ("x", "../../etc/passwd")
    assert parse_skill_uri("skill://x/../../etc/passwd") == ("x", "../../etc/passwd")


@pytest.mark.parametrize(
    ("uri", "why"),
    [
        ("file:///etc/passwd", "a skill file URI starts with skill://"),
        ("skill://x", "a skill file URI has the form skill://<skill>/<path>"),
        ("skill:///etc/passwd", "a skill file URI has the form skill://<skill>/<path>"),
        ("skill://x/%ff", "its percent-escapes are not UTF-8"),
    ],
)
def test_a_uri_that_is_not_a_skill_file_is_refused(uri, why):
    with pytest.raises(Refused) as caught:
        parse_skill_uri(uri)
    assert caught.value.code == "mcp.serve.uri.invalid"
    assert caught.value.diagnostic.message == f"{uri!r} is not a skill file: {why}"


def _command(hint: str | None) -> Command:
    return Command("deploy", argument_hint=hint, text="Deploy $1 to $2.")


def test_a_hint_of_bracketed_names_gives_one_argument_per_word():
    shape = prompt_shape(_command("[env]  <region> [flags...]"))
    assert shape.names == ("env", "region", "flags")
    assert shape.required == (False, True, False)
    assert shape.variadic and not shape.free


@pytest.mark.parametrize(
    "hint",
    [None, "", "add [tagId] | remove [tagId]", "<file> [--fix]", "[a...] [b]", "[a] [a]"],
)
def test_any_other_hint_gives_one_free_text_argument(hint):
    shape = prompt_shape(_command(hint))
    assert (shape.names, shape.free) == (("arguments",), True)
    assert argument_text("deploy", shape, {"arguments": "  a 'b c'  "}) == "a 'b c'"


def test_values_are_joined_so_each_stays_one_word():
    shape = prompt_shape(_command("[env] [region] [note]"))
    text = argument_text(
        "deploy", shape, {"env": "prod", "region": "eu west", "note": 'it\'s "$x"'}
    )
    assert split_arguments(text) == ["prod", "eu west", 'it\'s "$x"']
    # a gap is an empty word; trailing gaps are dropped
    assert argument_text("deploy", shape, {"region": "eu"}) == "'' eu"
    assert argument_text("deploy", shape, {"env": "prod"}) == "prod"


def test_a_last_rest_argument_is_passed_as_typed():
    shape = prompt_shape(_command("[env] [files...]"))
    assert (
        argument_text("deploy", shape, {"env": "a b", "files": "x.py  y.py"}) == "'a b' x.py  y.py"
    )


def test_an_unknown_or_missing_argument_is_refused():
    shape = prompt_shape(_command("<env> [region]"))
    with pytest.raises(Refused) as caught:
        argument_text("deploy", shape, {"env": "prod", "zone": "a"})
    assert caught.value.code == "mcp.serve.prompt.arguments"
    assert caught.value.diagnostic.message == (
        "/deploy takes no argument 'zone' (it takes: env, region)"
    )
    with pytest.raises(Refused) as caught:
        argument_text("deploy", shape, {"region": "eu"})
    assert caught.value.diagnostic.message == "/deploy needs the argument(s) 'env'"

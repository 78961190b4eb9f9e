"""The dispatch table: each verb module owns its parameters and a typed `run`, and a
verb's module is imported only when that verb runs."""

from __future__ import annotations

import inspect
import subprocess
import sys
import typing

import click
import pytest

from satchel.cli import VERBS

IDS = [" ".join(v.words) for v in VERBS]


def _keywords(run) -> list[str]:
    """The keywords `run` takes: keyword-only parameters, and the keys of the typed
    dict its ``**options: Unpack[...]`` names."""
    names = []
    hints = typing.get_type_hints(run, include_extras=True)
    for p in inspect.signature(run).parameters.values():
        if p.kind == inspect.Parameter.VAR_KEYWORD:
            assert typing.get_origin(hints[p.name]) is typing.Unpack
            (typed,) = typing.get_args(hints[p.name])
            names += list(typing.get_type_hints(typed))
        else:
            assert p.kind == inspect.Parameter.KEYWORD_ONLY
            names.append(p.name)
    return names


@pytest.mark.parametrize("verb", VERBS, ids=IDS)
def test_run_takes_exactly_the_parameters_of_its_module(verb):
    module = verb.load()
    assert sorted(_keywords(module.run)) == sorted(p.name for p in module.PARAMS)
    assert inspect.signature(module.run).return_annotation == "int"


@pytest.mark.parametrize("verb", VERBS, ids=IDS)
def test_the_help_line_is_the_first_paragraph_of_the_docstring(verb):
    doc = inspect.getdoc(verb.load().run)
    assert doc is not None
    assert verb.help == " ".join(doc.partition("\n\n")[0].split())


def test_a_verb_named_like_a_group_takes_options_only():
    (hooks,) = [v for v in VERBS if v.words == ("hooks",)]
    assert all(isinstance(p, click.Option) for p in hooks.load().PARAMS)


def test_every_verb_has_its_own_module():
    assert len({v.module for v in VERBS}) == len(VERBS)
    assert all(v.module.startswith("satchel.cli.") for v in VERBS)


def _imported_by(*args: str) -> set[str]:
    code = (
        "import sys\nfrom satchel.cli import main\n"
        f"code = main({list(args)!r})\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(run.stderr.split())


def test_help_imports_no_verb_and_nothing_of_the_library():
    loaded = _imported_by("--help")
    assert sorted(m for m in loaded if m.startswith("satchel")) == [
        "satchel", "satchel.cli", "satchel.cli._exit", "satchel.core", "satchel.core._lazy",
        "satchel.core._model", "satchel.foundations", "satchel.foundations._version",
    ]  # fmt: skip
    assert [m for m in ("rich", "yaml", "subprocess", "json") if m in loaded] == []


def test_a_verb_imports_its_own_module_only():
    loaded = _imported_by("list", "--help")
    verbs = {v.module for v in VERBS}
    assert sorted(loaded & verbs) == ["satchel.cli.listing"]

"""The public entry points are typed at the caller: mypy catches a misspelt option."""

from __future__ import annotations

import shutil
import typing
from importlib import resources
from pathlib import Path

import pytest

import satchel
from satchel.assembly._environment import LoadOverrides, Options
from satchel.session._options import SessionOptions, SessionOverrides

# The cache of the checkout's own `mypy` run (scripts/test runs it before pytest).
SOURCE_CACHE = Path(__file__).resolve().parents[1] / ".mypy_cache"

GOOD = """\
from pathlib import Path

import satchel
from satchel.server._serve import SkillServer

env = satchel.load(
    "proj",
    trusted=True,
    exclude=["a", "b"],
    scan=[Path("extra"), "more"],
    plugin_format_order=["claude", "codex"],
    command_naming="path",
    include_default_roots=False,
)
again = satchel.load(layout=env.layout, **env.options.keywords())
fresh, changes = env.reload()
session = satchel.Session(env, tools="skills", max_active=2, shell=["bash", "-c"])
other = satchel.Session(env, tools=False, argument_numbering=0, read_areas="references")
server = SkillServer(env, tools=["load_skill"], script_timeout=5.0)
options = satchel.Options.build(strict=True, plugin_dirs=["p"])
"""

BAD = """\
import satchel
from satchel.server._serve import SkillServer

env = satchel.load(trsuted=True)
session = satchel.Session(env, max_actve=2)
server = SkillServer(env, script_timeout="5")
other = satchel.load(command_naming="bogus")
"""


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """mypy --strict's error lines over the two snippets, checked in one run."""
    from mypy import api

    where = tmp_path_factory.mktemp("typed")
    (where / "good.py").write_text(GOOD)
    (where / "bad.py").write_text(BAD)
    if SOURCE_CACHE.is_dir():  # the checkout's own `mypy` run, reused (copied, not written)
        shutil.copytree(SOURCE_CACHE, where / "cache")
    args = ["--strict", "--cache-dir", str(where / "cache"), "--no-error-summary"]
    out, err, _ = api.run([*args, str(where / "good.py"), str(where / "bad.py")])
    assert err == ""
    return [line.replace(f"{where}/", "") for line in out.splitlines() if ": error:" in line]


def test_a_misspelt_or_mistyped_option_is_a_mypy_error(checked):
    assert [line for line in checked if line.startswith("bad.py")] == [
        'bad.py:4: error: Unexpected keyword argument "trsuted" for "load"; '
        'did you mean "trusted"?  [call-arg]',
        'bad.py:5: error: Unexpected keyword argument "max_actve" for "Session"; '
        'did you mean "max_active"?  [call-arg]',
        'bad.py:6: error: Argument "script_timeout" to "SkillServer" has incompatible '
        'type "str"; expected "float"  [arg-type]',
        'bad.py:7: error: Argument "command_naming" to "load" has incompatible type '
        "\"Literal['bogus']\"; expected \"Literal['stem', 'path']\"  [arg-type]",
    ]


def test_correct_calls_type_check(checked):
    assert [line for line in checked if line.startswith("good.py")] == []


def test_a_misspelt_option_is_still_a_type_error_at_runtime(tmp_path):
    with pytest.raises(TypeError, match=r"^unknown load\(\) option\(s\): trsuted$"):
        satchel.load(tmp_path, trsuted=True)  # type: ignore[call-arg]


def test_load_keywords_are_the_options_fields():
    keywords = set(typing.get_type_hints(LoadOverrides))
    assert keywords == {*Options.__dataclass_fields__, "include_default_roots"}


def test_session_keywords_are_the_session_options_fields():
    assert set(typing.get_type_hints(SessionOverrides)) == set(SessionOptions.__dataclass_fields__)


def test_options_as_keywords_rebuild_the_same_options():
    given = Options.build(exclude=["a"], scan=["x"], trusted=False, plugin_format_order=["codex"])
    assert Options.build(**given.keywords()) == given


def test_the_package_ships_its_py_typed_marker():
    marker = resources.files("satchel") / "py.typed"
    assert marker.is_file()
    assert Path(str(marker)).read_bytes() == b""

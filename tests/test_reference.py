"""docs/reference.md is what scripts/reference.py writes from the code today."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = runpy.run_path(str(ROOT / "scripts" / "reference.py"))


def test_the_reference_page_is_up_to_date():
    written = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    assert written == SCRIPT["render"](), (
        "docs/reference.md is out of date: run .venv/bin/python scripts/reference.py"
    )


def test_the_page_has_a_section_for_satchel_and_each_public_module_with_all():
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    assert "\n## `satchel`\n" in text
    assert "\n## `satchel.core.errors`\n" in text
    assert "\n## `satchel.__main__`" not in text
    assert "- `load(cwd: str | os.PathLike[str] | None = None, *, layout: " in text


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package with public and private modules, some without `__all__`."""
    root = tmp_path / "refpkg"
    files = {
        "__init__.py": '"""The top."""\n__all__ = ["f"]\ndef f(a: int, *, b: str = "x") -> int:\n'
        '    """Add. More text."""\n    return a\n',
        "pub.py": '__all__ = ["C", "N"]\nN = 3\nclass C:\n    """A thing."""\n'
        "    def __init__(self, x: int) -> None:\n        self.x = x\n",
        "noall.py": "def g() -> None: ...\n",
        "_private.py": '__all__ = ["h"]\ndef h() -> None: ...\n',
        "sub/__init__.py": '__all__ = ["k"]\ndef k(*args: int) -> None:\n    """K."""\n',
        "_hidden/__init__.py": "",
        "_hidden/inner.py": '__all__ = ["m"]\ndef m() -> None: ...\n',
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "refpkg"
    for name in [m for m in sys.modules if m == "refpkg" or m.startswith("refpkg.")]:
        del sys.modules[name]


def test_modules_are_found_by_walking_the_package(package):
    names = [m.__name__ for m in SCRIPT["public_modules"](package)]
    assert names == ["refpkg", "refpkg.noall", "refpkg.pub", "refpkg.sub"]


def test_each_public_module_with_all_lists_its_names(package):
    page = SCRIPT["render"](package).removeprefix(SCRIPT["HEADER"])
    assert page == (
        "\n## `refpkg`\n\nThe top.\n\n"
        "- `f(a: int, *, b: str = 'x') -> int`: Add.\n"
        "\n## `refpkg.pub`\n\n"
        "- `C(x: int) (class)`: A thing.\n"
        "- `N (int)`\n"
        "\n## `refpkg.sub`\n\n"
        "- `k(*args: int) -> None`: K.\n"
    )

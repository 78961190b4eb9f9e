"""The public surface: a sorted __all__ that lists exactly the public names."""

from __future__ import annotations

import pkgutil

import satchel


def test_all_is_sorted_and_complete():
    public = sorted(
        (name for name in dir(satchel) if not name.startswith("_") or name == "__version__"),
        key=str.casefold,
    )
    modules = {m.name for m in pkgutil.iter_modules(satchel.__path__)}  # submodules, not names
    assert satchel.__all__ == sorted(satchel.__all__, key=str.casefold)
    assert satchel.__all__ == [name for name in public if name not in modules]


def test_import_does_no_io(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys; calls = []\n"
        "sys.addaudithook(lambda e, a: calls.append(e) if e in "
        "('os.scandir', 'subprocess.Popen', 'os.system', 'socket.connect') else None)\n"
        "import satchel\n"
        "print(calls)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_skill_json_has_no_nan_or_infinity():
    import json

    skill = satchel.Skill(
        name="a", description="d", extras={"v": float("nan"), "w": [float("inf")]}
    )
    text = json.dumps(skill.to_json(), allow_nan=False)
    assert json.loads(text)["extras"] == {"v": "nan", "w": ["inf"]}

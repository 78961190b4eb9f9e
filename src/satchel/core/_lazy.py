"""A package's public names, imported when first used (PEP 562).

A package lists its names by module; ``import satchel.hooks`` then imports nothing
else, and ``satchel.hooks.load_hooks`` imports `satchel.hooks._load` on first use.
The same names are imported under ``if TYPE_CHECKING:`` in the package, so that type
checkers and editors see them (tests/test_lazy_imports.py checks the two agree).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def attach(
    package: str, table: Mapping[str, tuple[str, ...]]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of `package`, whose public names are
    ``{module: (name, ...)}``; a name is imported once, then held by the package."""
    where = {name: module for module, names in table.items() for name in names}

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__

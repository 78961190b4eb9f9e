"""Values as JSON can hold them: for the `to_json()` of models that keep raw extras."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["jsonable"]


def jsonable(value: Any) -> Any:
    """`value` with mappings, lists and scalars kept, NaN and infinity as strings (JSON
    has neither), and anything else as its `str()`."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)

"""Frozen models: ``@dataclass(frozen=True, slots=True)`` classes that cost less to create.

For each frozen class `dataclasses` compiles six functions, and satchel creates over a
hundred such classes on import. `model` has it compile three (``__init__``,
``__setattr__`` and ``__delattr__``); the class's ``__repr__``, ``__eq__`` and
``__hash__`` are made by the functions below, compiled once with this module, over the
class's fields. They follow the rules `dataclasses` applies (``_process_class`` and
``_hash_action`` in its source), so a model behaves as the dataclass would, its
`__dataclass_params__` included:

* ``__repr__`` is ``QualName(field=value!r, ...)`` over the fields with ``repr=True``,
  ``...`` for a value that holds itself;
* ``__eq__`` is `NotImplemented` unless both are of the same class, else compares the
  tuples of the fields with ``compare=True``;
* ``__hash__`` hashes the tuple of the fields whose ``hash`` is true, or is None with
  ``compare`` true; ``@model(eq=False)`` keeps the inherited ``__eq__`` and ``__hash__``
  (identity, for a class with no model above it);
* a method the class body defines is kept, and a body that defines ``__eq__`` without
  ``__hash__`` gets the hash over its fields, as a frozen dataclass does.
"""

from __future__ import annotations

import abc
import dataclasses
from _thread import get_ident
from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Any, Literal, TypeVar, dataclass_transform, overload

__all__ = ["model"]

_T = TypeVar("_T")
_Values = Callable[[Any], tuple[Any, ...]]
_MISSING = object()


@overload
def model(cls: type[_T], /) -> type[_T]: ...


@overload
def model(*, eq: bool = True, slots: Literal[True] = True) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def model(cls: type[_T] | None = None, /, *, eq: bool = True, slots: bool = True) -> Any:
    """``@dataclass(frozen=True, slots=True)``, or ``..., eq=False`` as
    ``@model(eq=False)``, that compiles three functions for the class instead of six.

    Every model has slots; ``slots=True`` only says so to type checkers, which cannot
    tell from ``@model`` alone, for a class whose ``__slots__`` is read."""
    if not slots:
        raise TypeError("a model always has slots")
    if cls is None:
        return lambda cls: _build(cls, eq)
    return _build(cls, eq)


def _build(cls: type[_T], eq: bool) -> type[_T]:
    """`cls` as a frozen slotted dataclass, with the ``__repr__``, ``__eq__`` and
    ``__hash__`` it does not define itself."""
    made: type[_T] = dataclasses.dataclass(cls, frozen=True, slots=True, repr=False, eq=False)
    own = made.__dict__
    explicit_hash = _explicit_hash(own)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    params = made.__dataclass_params__  # type: ignore[attr-defined]
    params.repr, params.eq = True, eq
    if "__repr__" not in own:
        _install(made, _repr_of([f.name for f in fields if f.repr]))
    if eq:
        if "__eq__" not in own:
            _install(made, _eq_of(_values(f.name for f in fields if f.compare)))
        if not explicit_hash:
            hashed = (f.name for f in fields if (f.compare if f.hash is None else f.hash))
            _install(made, _hash_of(_values(hashed)))
    abc.update_abstractmethods(made)
    return made


def _explicit_hash(own: Any) -> bool:
    """The class body defines ``__hash__``: not the None Python sets beside an own
    ``__eq__``."""
    found = own.get("__hash__", _MISSING)
    return not (found is _MISSING or (found is None and "__eq__" in own))


def _install(cls: type, method: Callable[..., Any]) -> None:
    """Set `method` on `cls` under its name, named and placed as `dataclasses` does."""
    method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    method.__module__ = cls.__module__
    setattr(cls, method.__name__, method)


def _values(names: Iterable[str]) -> _Values:
    """The function from a model to the tuple of its values of `names`, in order."""
    wanted = tuple(names)
    if len(wanted) > 1:
        return attrgetter(*wanted)
    if wanted:
        one = attrgetter(wanted[0])
        return lambda self: (one(self),)
    return lambda self: ()


def _repr_of(names: list[str]) -> Callable[[Any], str]:
    """A ``__repr__`` over `names`, with the guard against recursion dataclass uses."""
    running: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        key = id(self), get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            head = self.__class__.__qualname__
            shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in names])
        finally:
            running.discard(key)
        return f"{head}({shown})"

    return __repr__


def _eq_of(values: _Values) -> Callable[[Any, Any], bool]:
    """An ``__eq__`` comparing `values` of two instances of one class."""

    def __eq__(self: Any, other: Any) -> bool:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash_of(values: _Values) -> Callable[[Any], int]:
    """A ``__hash__`` hashing `values`."""

    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__

"""`satchel.core._model.model`: a model behaves as ``@dataclass(frozen=True, slots=True)`` does.

The same sample classes are built twice, once under each decorator, each in a module of
its own (so that both pickle and both show the same qualified names), and every outcome
a caller can see is compared: repr, eq, hash, the frozen errors, `fields`, `replace`,
`asdict`, pickling and copying.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import sys
import types
from collections.abc import Callable
from operator import eq, ne
from typing import Any

import pytest

from satchel.core._model import model

SAMPLES = '''
from __future__ import annotations

from dataclasses import field


@frozen
class Plain:
    name: str
    count: int


@frozen
class Single:
    value: object


@frozen
class Empty:
    pass


@frozen
class Defaults:
    name: str = "x"
    tags: list[str] = field(default_factory=list)
    meta: dict[str, int] = field(default_factory=dict)


@frozen
class Options:
    name: str
    secret: str = field(default="", repr=False)
    note: str = field(default="", compare=False)
    key: int = field(default=0, hash=True)
    unhashed: int = field(default=0, hash=False)
    hashed_only: int = field(default=0, compare=False, hash=True)


@frozen
class Base:
    """A documented base."""

    a: int
    b: str = ""


@frozen
class Child(Base):
    c: float = 0.0


@frozen_no_eq
class QuietChild(Base):
    c: float = 0.0


@frozen
class OwnHash:
    name: str
    n: int = 0

    def __hash__(self) -> int:
        return len(self.name)


@frozen
class OwnEq:
    name: str
    n: int = 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OwnEq) and other.name.lower() == self.name.lower()


@frozen
class NoHash:
    name: str

    __hash__ = None


@frozen
class OwnRepr:
    name: str

    def __repr__(self) -> str:
        return f"<{self.name}>"


@frozen_no_eq
class Identity:
    name: str
    items: tuple[int, ...] = ()


@frozen
class Box:
    items: list[object]
'''


def _build(suffix: str, frozen: Callable[..., Any], frozen_no_eq: Callable[..., Any]) -> Any:
    """The samples, built under `frozen` in a module named for `suffix`."""
    name = f"{__name__}_{suffix}"
    module = types.ModuleType(name)
    module.__dict__.update(frozen=frozen, frozen_no_eq=frozen_no_eq)
    sys.modules[name] = module
    exec(compile(SAMPLES, f"<{name}>", "exec"), module.__dict__)
    return module


AS_MODEL = _build("as_model", model, model(eq=False))
AS_DATACLASS = _build(
    "as_dataclass",
    dataclasses.dataclass(frozen=True, slots=True),
    dataclasses.dataclass(frozen=True, slots=True, eq=False),
)
NAN = math.nan
SHARED: list[int] = [1]
# sample: the arguments of a few instances, equal and unequal ones among them
CASES: dict[str, list[tuple[tuple[Any, ...], dict[str, Any]]]] = {
    "Plain": [(("a", 1), {}), (("a", 1), {}), (("a", 2), {}), (("b", 1), {})],
    "Single": [((1,), {}), ((1,), {}), ((2,), {}), ((NAN,), {}), ((NAN,), {})],
    "Empty": [((), {}), ((), {})],
    "Defaults": [((), {}), ((), {}), (("y", ["t"]), {}), (("y", ["t"], {"k": 1}), {})],
    "Options": [
        (("a",), {}),
        (("a",), {"secret": "s", "note": "n"}),
        (("a",), {"key": 1}),
        (("a",), {"unhashed": 1}),
        (("a",), {"hashed_only": 1}),
        (("b",), {"secret": "s"}),
    ],
    "Base": [((1,), {}), ((1, "x"), {}), ((1,), {})],
    "Child": [((1,), {}), ((1, "", 0.0), {}), ((1, "", 2.5), {})],
    "QuietChild": [((1,), {}), ((1,), {}), ((1, "", 2.5), {}), ((2,), {})],
    "OwnHash": [(("ab",), {}), (("AB", 1), {}), (("abc",), {})],
    "OwnEq": [(("ab",), {}), (("AB", 1), {}), (("abc",), {})],
    "NoHash": [(("a",), {}), (("a",), {})],
    "OwnRepr": [(("a",), {}), (("a",), {})],
    "Identity": [(("a",), {}), (("a",), {}), (("b", (1,)), {})],
    "Box": [(([1],), {}), (([1],), {}), ((SHARED,), {})],
}
CHANGES: dict[str, dict[str, Any]] = {
    "Plain": {"count": 5},
    "Single": {"value": "v"},
    "Empty": {},
    "Defaults": {"tags": ["u"]},
    "Options": {"secret": "t", "key": 3},
    "Base": {"b": "z"},
    "Child": {"a": 7, "c": 1.5},
    "QuietChild": {"c": 1.5},
    "OwnHash": {"n": 4},
    "OwnEq": {"name": "cd"},
    "NoHash": {"name": "b"},
    "OwnRepr": {"name": "b"},
    "Identity": {"items": (2, 3)},
    "Box": {"items": [2]},
}
NAMES = sorted(CASES)


def outcome(action: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """What ``action(*args)`` comes to: its value, or its exception's type and message."""
    try:
        return "value", action(*args)
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc).__name__, str(exc)


def instances(built: Any, name: str) -> list[Any]:
    cls = getattr(built, name)
    return [cls(*args, **kwargs) for args, kwargs in CASES[name]]


def both(name: str) -> tuple[list[Any], list[Any]]:
    """The same instances of sample `name`, as a model and as a dataclass."""
    return instances(AS_MODEL, name), instances(AS_DATACLASS, name)


def hash_outcome(value: Any) -> tuple[str, Any]:
    if type(value).__hash__ is object.__hash__:  # identity: the values differ by nature
        return "identity", hash(value) == object.__hash__(value)
    return outcome(hash, value)


def field_facts(cls: type) -> list[tuple[Any, ...]]:
    return [
        (
            f.name,
            f.type,
            f.default,
            f.default_factory,
            f.init,
            f.repr,
            f.hash,
            f.compare,
            f.kw_only,
            dict(f.metadata),
        )
        for f in dataclasses.fields(cls)
    ]


def test_every_sample_has_cases():
    assert (
        set(CASES)
        == set(CHANGES)
        == {name for name, value in vars(AS_MODEL).items() if isinstance(value, type)}
    )


@pytest.mark.parametrize("name", NAMES)
def test_repr_matches(name):
    models, dataclasses_ = both(name)
    assert [repr(m) for m in models] == [repr(d) for d in dataclasses_]


@pytest.mark.parametrize("name", NAMES)
def test_eq_matches(name):
    models, dataclasses_ = both(name)

    def matrix(values: list[Any]) -> list[Any]:
        pairs = [(a, b) for a in values for b in values]
        return [outcome(compare, a, b) for compare in (eq, ne) for a, b in pairs]

    assert matrix(models) == matrix(dataclasses_)
    foreign = object()
    assert [m.__eq__(foreign) for m in models] == [d.__eq__(foreign) for d in dataclasses_]


@pytest.mark.parametrize("name", NAMES)
def test_hash_matches(name):
    models, dataclasses_ = both(name)
    assert [hash_outcome(m) for m in models] == [hash_outcome(d) for d in dataclasses_]
    model_cls, dataclass_cls = type(models[0]), type(dataclasses_[0])
    assert (model_cls.__hash__ is None) == (dataclass_cls.__hash__ is None)


def test_a_shared_nan_is_equal_to_itself_as_in_a_tuple():
    for built in (AS_MODEL, AS_DATACLASS):
        assert built.Single(NAN) == built.Single(NAN)
        assert built.Single(float("nan")) != built.Single(float("nan"))
        assert hash(built.Single(NAN)) == hash((NAN,))


def test_hash_values_are_the_dataclass_ones():
    assert hash(AS_MODEL.Plain("a", 1)) == hash(AS_DATACLASS.Plain("a", 1)) == hash(("a", 1))
    assert hash(AS_MODEL.Empty()) == hash(())
    options = AS_MODEL.Options("a", note="n", key=2, unhashed=3, hashed_only=4)
    assert hash(options) == hash(AS_DATACLASS.Options("a", key=2, hashed_only=4))
    assert hash(options) == hash(("a", "", 2, 4))  # secret is compared, so hashed
    assert hash(AS_MODEL.OwnEq("ab", 3)) == hash(("ab", 3))  # an own __eq__ gets the hash
    assert hash(AS_MODEL.OwnHash("abc")) == 3


@pytest.mark.parametrize("name", ["Base", "Child", "QuietChild"])
def test_a_subclass_is_never_equal_to_its_base(name):
    for built in (AS_MODEL, AS_DATACLASS):
        base, other = built.Base(1), getattr(built, name)(1)
        assert (base == other) == (name == "Base")
        assert (other == base) == (name == "Base")


def test_an_eq_false_model_keeps_what_it_inherits():
    for built in (AS_MODEL, AS_DATACLASS):
        quiet = built.QuietChild
        assert quiet.__eq__ is built.Base.__eq__
        assert quiet.__hash__ is built.Base.__hash__
        assert quiet(1, c=1.0) == quiet(1, c=2.0)  # Base's fields only
        assert built.Identity.__eq__ is object.__eq__
        assert built.Identity.__hash__ is object.__hash__


@pytest.mark.parametrize("name", NAMES)
def test_frozen_errors_match(name):
    models, dataclasses_ = both(name)

    def attempts(value: Any) -> list[tuple[str, Any]]:
        first = next(iter(dataclasses.fields(value)), None)
        field = "name" if first is None else first.name
        return [
            outcome(setattr, value, field, 1),
            outcome(delattr, value, field),
            outcome(setattr, value, "other", 1),
            outcome(delattr, value, "other"),
        ]

    assert [attempts(m) for m in models] == [attempts(d) for d in dataclasses_]


def test_a_field_cannot_be_set_or_deleted():
    plain = AS_MODEL.Plain("a", 1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
        plain.name = "b"
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'count'"):
        del plain.count


@pytest.mark.parametrize("name", NAMES)
def test_class_facts_match(name):
    model_cls, dataclass_cls = getattr(AS_MODEL, name), getattr(AS_DATACLASS, name)
    assert dataclasses.is_dataclass(model_cls)
    assert field_facts(model_cls) == field_facts(dataclass_cls)
    assert model_cls.__match_args__ == dataclass_cls.__match_args__
    assert model_cls.__slots__ == dataclass_cls.__slots__
    assert model_cls.__doc__ == dataclass_cls.__doc__
    assert repr(model_cls.__dataclass_params__) == repr(dataclass_cls.__dataclass_params__)
    assert sorted(vars(model_cls)) == sorted(vars(dataclass_cls))
    for method in ("__repr__", "__eq__", "__hash__"):
        mine, theirs = getattr(model_cls, method), getattr(dataclass_cls, method)
        assert getattr(mine, "__qualname__", None) == getattr(theirs, "__qualname__", None)


@pytest.mark.parametrize("name", NAMES)
def test_replace_and_asdict_match(name):
    models, dataclasses_ = both(name)
    changes = CHANGES[name]
    replaced = [dataclasses.replace(m, **changes) for m in models]
    assert [repr(r) for r in replaced] == [
        repr(dataclasses.replace(d, **changes)) for d in dataclasses_
    ]
    assert all(type(r) is type(m) for r, m in zip(replaced, models, strict=True))
    assert [dataclasses.asdict(m) for m in models] == [dataclasses.asdict(d) for d in dataclasses_]
    assert [dataclasses.astuple(m) for m in models] == [
        dataclasses.astuple(d) for d in dataclasses_
    ]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "through", [lambda v: pickle.loads(pickle.dumps(v)), copy.copy, copy.deepcopy]
)
def test_pickling_and_copying_match(name, through):
    models, dataclasses_ = both(name)
    again = [through(m) for m in models]
    assert [repr(a) for a in again] == [repr(through(d)) for d in dataclasses_]
    assert all(type(a) is type(m) for a, m in zip(again, models, strict=True))
    if type(models[0]).__eq__ is not object.__eq__:
        assert [outcome(eq, a, m) for a, m in zip(again, models, strict=True)] == [
            outcome(eq, through(d), d) for d in dataclasses_
        ]


def test_a_recursive_value_shows_as_dots():
    for built in (AS_MODEL, AS_DATACLASS):
        box = built.Box([])
        box.items.append(box)
        assert repr(box) == "Box(items=[...])"
        outer = built.Box([built.Box([])])
        outer.items[0].items.append(outer)
        assert repr(outer) == "Box(items=[Box(items=[...])])"


def test_match_args_work_in_a_match():
    match AS_MODEL.Child(1, "b", 2.0):
        case AS_MODEL.Child(a, b, c):
            assert (a, b, c) == (1, "b", 2.0)
        case _:
            pytest.fail("no match")


def test_model_with_parentheses_and_without_is_the_same():
    def sample(decorate: Callable[[type], type]) -> type:
        class Sample:
            name: str

        return decorate(Sample)

    plain, called = sample(model), sample(model())
    assert repr(plain("a")) == repr(called("a")) == f"{plain.__qualname__}(name='a')"
    assert plain("a") == plain("a")
    assert hash(called("a")) == hash(("a",))
    with pytest.raises(TypeError, match="always has slots"):
        model(slots=False)  # type: ignore[call-overload]

"""Parameter models by name, without pydantic: the validated defaults and option rows of the
models in the generated :mod:`mwzrepro.core.params_table` (so that ``mwzrepro score`` starts
without importing pydantic). :func:`checked` gives a model's :func:`defaults` when the given
values are its defaults and validates anything else with the model itself
(:func:`validate_block`), so errors are the model's own. Used through
:mod:`mwzrepro.core.params` (:func:`~mwzrepro.core.params.click_options`,
:func:`~mwzrepro.core.params.from_options` with a ``"module:Class"`` name).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import ConfigError
from mwzrepro.core.params_table import MODELS

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["ParamsDefaults", "defaults", "checked", "model_class", "table_entry",
           "validate_block"]


def model_class(model: str | type[BaseModel]) -> type[BaseModel]:
    """The model of a ``"module:Class"`` name (imports it, and pydantic), or ``model``."""
    if not isinstance(model, str):
        return model
    module, name = model.split(":")
    return getattr(importlib.import_module(module), name)


def table_entry(model: str) -> dict[str, Any]:
    """``{"options": option rows, "defaults": validated defaults}`` of the model named
    ``model`` (``"module:Class"``) in the generated table.

    Raises:
        KeyError: the model is not in the table (names the generator to extend).
    """
    if model not in MODELS:
        raise KeyError(f"{model}: not in mwzrepro.core.params_table (add it to "
                       "workflow/scripts/make_params_table.py and run make generate)")
    return MODELS[model]


class ParamsDefaults(Mapping):
    """The validated defaults of a parameter model (:func:`defaults`): its fields as
    read-only attributes (nested blocks likewise), without pydantic.

    >>> d = ParamsDefaults("Window", {"msttr_window": 50, "inner": {"on": True}})
    >>> d.msttr_window, d.inner.on, dict(d)["msttr_window"]
    (50, True, 50)
    >>> d.model_dump()
    {'msttr_window': 50, 'inner': {'on': True}}
    >>> d.msttr_window = 10
    Traceback (most recent call last):
    ...
    AttributeError: Window defaults are read-only
    >>> import copy, pickle
    >>> copy.deepcopy(d).inner.on, pickle.loads(pickle.dumps(d)).model_dump() == d.model_dump()
    (True, True)
    """

    __slots__ = ("_model", "_values")

    def __init__(self, model: str, values: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_model", model)
        object.__setattr__(self, "_values", {
            k: ParamsDefaults(f"{model}.{k}", v) if isinstance(v, Mapping) else v
            for k, v in values.items()})

    def __getattr__(self, name: str) -> Any:
        # object.__getattribute__: a bare instance (no _values yet) raises AttributeError
        # instead of recursing into __getattr__
        try:
            return object.__getattribute__(self, "_values")[name]
        except KeyError:
            raise AttributeError(f"{self._model} has no field {name!r}") from None

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are rebuilt from the values (``copy.deepcopy`` and ``pickle``
        work on the model too; the read-only ``__setattr__`` refuses slot-by-slot
        restoring)."""
        return ParamsDefaults, (self._model, self.model_dump())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{self._model} defaults are read-only")

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"ParamsDefaults({self._model!r}, {self._values!r})"

    def model_dump(self) -> dict[str, Any]:
        """The values as a plain (nested) dict, as the model's ``model_dump()`` gives them."""
        return {k: v.model_dump() if isinstance(v, ParamsDefaults) else v
                for k, v in self._values.items()}


def defaults(model: str) -> ParamsDefaults:
    """The validated defaults of the model named ``model`` (``"module:Class"``) from
    :mod:`mwzrepro.core.params_table` (``model().model_dump()`` at generation time), without
    importing pydantic.

    Raises:
        KeyError: the model is not in the table.
    """
    return ParamsDefaults(model, table_entry(model)["defaults"])


def _same_value(value: Any, default: Any) -> bool:
    """Whether validating ``value`` gives exactly ``default`` (a validated default): equal and
    of the default's type (an int for a float field too, as pydantic converts it)."""
    if isinstance(default, bool) or isinstance(value, bool):
        return type(value) is type(default) and value == default
    if type(default) is float:
        return type(value) in (int, float) and value == default
    return type(value) is type(default) and value == default


def checked(model: str | type[BaseModel], data: Mapping[str, Any], block: str) -> Any:
    """:func:`validate_block` of ``data``, except that for a model named in the table whose
    given leaves (flat keys) all equal its validated defaults the result is
    :func:`defaults` (no pydantic import). Raises :class:`ConfigError` as
    :func:`validate_block`.

    >>> checked("mwzrepro.standard.params:RichnessParams", {"msttr_window": 50},
    ...         "richness").msttr_window
    50
    >>> checked("mwzrepro.standard.params:RichnessParams", {"msttr_window": 0}, "richness")
    Traceback (most recent call last):
    ...
    mwzrepro.core.errors.ConfigError: richness.msttr_window: Input should be greater than or equal to 1 (got 0)
    """
    if isinstance(model, str):
        values = table_entry(model)["defaults"]
        if all(k in values and not isinstance(values[k], Mapping)
               and _same_value(v, values[k]) for k, v in data.items()):
            return defaults(model)
    return validate_block(model_class(model), data, block)


def validate_block(model: type[BaseModel], data: Mapping[str, Any], block: str) -> Any:
    """``model`` validated from the ``params.yaml`` block ``data``. Raises
    :class:`ConfigError` with one line naming the first bad key (``block.key: reason``)."""
    from pydantic import ValidationError

    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join([block, *(str(p) for p in err["loc"])])
        got = f" (got {err['input']!r})" if err["type"] != "extra_forbidden" else ""
        msg = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        raise ConfigError(f"{key}: {msg}{got}") from None

"""The generated parameter table (``src/mwzrepro/core/params_table.py``) is current, and the
models it names give the same options, defaults and errors through it as through pydantic."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from mwzrepro.core.errors import ConfigError
from mwzrepro.core.params import (
    ParamsDefaults,
    checked,
    click_options,
    from_options,
    model_class,
    validate_block,
)
from mwzrepro.core.params_table import MODELS
from tests.workflow.dags import load_script

REPO = Path(__file__).resolve().parents[2]


def _generator():
    return load_script("make_params_table")


def test_table_is_current():
    """Regenerate with ``make generate`` (workflow/scripts/make_params_table.py) when this
    fails."""
    generator = _generator()
    assert (REPO / "src/mwzrepro/core/params_table.py").read_text(encoding="utf-8") \
        == generator.render()
    assert tuple(MODELS) == generator.MODELS


def _params(decorated) -> list[tuple]:
    return [(p.opts, p.name, p.default, p.help, getattr(p.type, "choices", None),
             p.type.name) for p in decorated.params]


@pytest.mark.parametrize("name", list(MODELS))
def test_options_by_name_equal_the_models(name):
    by_name = click_options(name)(click.command()(lambda **kw: None))
    by_model = click_options(model_class(name))(click.command()(lambda **kw: None))
    assert _params(by_name) == _params(by_model) and by_name.params


@pytest.mark.parametrize("name", list(MODELS))
def test_defaults_equal_the_models(name):
    got = checked(name, {}, "block")
    assert isinstance(got, ParamsDefaults)
    assert got.model_dump() == dict(got) == model_class(name)().model_dump()


@pytest.mark.parametrize("data", [
    {"fuzzy_threshold": 90}, {"fuzzy_threshold": 90.0}, {"matching": "reference"},
])
def test_default_values_skip_the_model(data):
    got = checked("mwzrepro.standard.params:InformParams", data, "inform")
    assert isinstance(got, ParamsDefaults) and got.fuzzy_threshold == 90.0


@pytest.mark.parametrize("data", [
    {"fuzzy_threshold": 85}, {"fuzzy_threshold": "90"}, {"fuzzy_threshold": True},
    {"matching": "optimal"}, {"unknown": 1},
])
def test_other_values_are_the_models(data):
    name = "mwzrepro.standard.params:InformParams"
    try:
        want = validate_block(model_class(name), data, "inform")
    except ConfigError as exc:
        with pytest.raises(ConfigError) as got:
            checked(name, data, "inform")
        assert str(got.value) == str(exc)
    else:
        got = checked(name, data, "inform")
        assert not isinstance(got, ParamsDefaults) and got == want


def test_from_options_by_name():
    kw = {"matching": "optimal", "fuzzy_threshold": 85.0, "other": 1}
    got = from_options("mwzrepro.standard.params:InformParams", kw, "inform")
    assert (got.matching, got.fuzzy_threshold) == ("optimal", 85.0)
    with pytest.raises(ConfigError, match=r"^inform\.fuzzy_threshold: Input should be less"):
        from_options("mwzrepro.standard.params:InformParams", {"fuzzy_threshold": 101.0},
                     "inform")

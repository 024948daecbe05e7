"""Unit tests of mwzrepro.dst.params: the `dst` block's one definition (defaults equal
params.yaml, parsed λ values and excluded dialogues, one-line errors naming the key)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mwzrepro.core.errors import ConfigError
from mwzrepro.core.params import cli_args, validate_block
from mwzrepro.dst.params import DSTParams

REPO = Path(__file__).resolve().parents[3]


def test_defaults_are_params_yaml():
    block = yaml.safe_load((REPO / "params.yaml").read_text())["dst"]
    assert set(block) == set(DSTParams.model_fields)
    assert validate_block(DSTParams, block, "dst") == DSTParams()


def test_lambda_values_and_rule_of_thumb():
    assert DSTParams().lambda_values() == [0.25, 0.5, 0.75, 1.0]
    lams = DSTParams(lambdas="0.5", forget="0.95,6").lambda_values()
    assert lams[0] == 0.5 and round(lams[1], 4) == 0.4993  # spec-dst-metrics §6.4


def test_excluded_dialogues_are_canonical_ids():
    assert DSTParams(excluded_dialogues="PMUL1455.json, mul0001,PMUL1455").excluded() == (
        "mul0001", "pmul1455")
    assert DSTParams(excluded_dialogues="").excluded() == ()


@pytest.mark.parametrize("block, key", [
    ({"lambdas": ""}, "dst.lambdas"),
    ({"lambdas": "0.5,x"}, "dst.lambdas"),
    ({"forget": "0.95"}, "dst.forget"),
    ({"matcher": "fuzzy"}, "dst.matcher"),
    ({"missing": "drop"}, "dst.missing"),
    ({"fuzzy_threshold": -0.1}, "dst.fuzzy_threshold"),
    ({"no_such_key": 1}, "dst.no_such_key"),
])
def test_bad_value_names_the_key(block, key):
    with pytest.raises(ConfigError) as exc:
        validate_block(DSTParams, block, "dst")
    assert str(exc.value).startswith(f"{key}: ") and "\n" not in str(exc.value)


def test_workflow_rendering_names_every_key():
    block = yaml.safe_load((REPO / "params.yaml").read_text())["dst"]
    template = cli_args(DSTParams, block, "dst", template=True)
    assert '--excluded-dialogues "${dst.excluded_dialogues}"' in template
    assert '--flags-version "mwz21"' in template  # structural: keeps its value
    assert template.count("--") == len(DSTParams.model_fields)
    # a key missing from params.yaml takes the model's default (no placeholder to resolve)
    assert '--lambdas "0.25,0.5,0.75,1.0"' in cli_args(DSTParams, {}, "dst", template=True)

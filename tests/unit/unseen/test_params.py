"""The unseen and bias parameter blocks: defaults equal to params.yaml (each written once),
parsed lists, validation naming the key."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml

from mwzrepro.core.errors import ConfigError
from mwzrepro.core.params import cli_args, validate_block
from mwzrepro.unseen.families import DEFAULT_CITY_NICKNAMES, FAMILIES
from mwzrepro.unseen.params import BiasParams, UnseenParams

PARAMS = yaml.safe_load((Path(__file__).resolve().parents[3] / "params.yaml").read_text())


def test_defaults_are_the_params_yaml_values():
    assert validate_block(UnseenParams, PARAMS["unseen"], "unseen") == UnseenParams()
    assert validate_block(BiasParams, PARAMS["bias"], "bias") == BiasParams()
    assert [(s.version, s.split) for s in BiasParams().sources][-2:] == [
        ("mwz20", "test_unseen"), ("mwz21", "test_unseen")]


def test_parsed_lists():
    p = UnseenParams()
    assert p.families == ("ATTR", "HOTEL", "REST", "FOOD", "CITY", "DEPT", "PLACE")
    assert p.pool_family_list == FAMILIES
    assert p.sgd_split_list == ("train", "dev", "test")
    assert p.city_nickname_list == DEFAULT_CITY_NICKNAMES
    assert p.food_exclude_list[-1] == "fast food"
    assert p.unannotated_exclude_list == ("the place",)
    assert p.enabled_families() == set(p.families)
    assert "ATYPE" in UnseenParams(replace_attraction_type="true").enabled_families()
    assert BiasParams().version_list == ("mwz20", "mwz21")


@pytest.mark.parametrize(("model", "block", "data", "key"), [
    (UnseenParams, "unseen", {"replaced_families": "ATTR,BAR"}, "unseen.replaced_families"),
    (UnseenParams, "unseen", {"sgd_splits": "train,val"}, "unseen.sgd_splits"),
    (UnseenParams, "unseen", {"mapping_scope": "corpus"}, "unseen.mapping_scope"),
    (UnseenParams, "unseen", {"replace_attraction_type": "maybe"},
     "unseen.replace_attraction_type"),
    (UnseenParams, "unseen", {"entity_fuzzy_threshold": 120}, "unseen.entity_fuzzy_threshold"),
    (UnseenParams, "unseen", {"max_tokens": 0}, "unseen.max_tokens"),
    (BiasParams, "bias", {"bias_count_unit": "token"}, "bias.bias_count_unit"),
    (BiasParams, "bias", {"sources": [{"version": "mwz21"}]}, "bias.sources.0.split"),
    (BiasParams, "bias", {"plot_values": 0}, "bias.plot_values"),
])
def test_bad_values_name_the_key(model, block, data, key):
    with pytest.raises(ConfigError) as err:
        validate_block(model, data, block)
    assert str(err.value).startswith(key)


def test_workflow_option_strings_skip_the_expanded_keys():
    args = shlex.split(cli_args(BiasParams, PARAMS["bias"], "bias", exclude=("sources",)))
    assert args == ["--bias-count-unit", "turn", "--bias-split", "train", "--plot-slots", "4",
                    "--plot-source", "mwz21/test", "--plot-values", "10", "--versions",
                    "mwz20,mwz21"]
    args = shlex.split(cli_args(UnseenParams, PARAMS["unseen"], "unseen", exclude=("bases",)))
    assert args[args.index("--train") + 1] == ""
    assert args[args.index("--sgd-splits") + 1] == "train,dev,test"
    assert args[::2] == sorted(args[::2])  # sorted by key
    assert args[args.index("--replace-attraction-type") + 1] == "false"
    assert "--bases" not in args and len(args) == 2 * 20  # 21 keys, bases expanded

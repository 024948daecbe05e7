"""Unit tests of mwzrepro.consistency.params and .settings: the `consistency` block's one
definition (nested like params.yaml, defaults equal params.yaml, conversion to the correction
settings, profile, one-line errors naming the key)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mwzrepro.consistency.params import DEFAULT_SEED_ALIASES, ConsistencyParams
from mwzrepro.consistency.settings import CorrectionSettings, correction_settings
from mwzrepro.core.errors import ConfigError
from mwzrepro.core.params import cli_args, validate_block

REPO = Path(__file__).resolve().parents[3]


def test_defaults_are_params_yaml_and_nested_like_it():
    block = yaml.safe_load((REPO / "params.yaml").read_text())["consistency"]
    assert set(block) == set(ConsistencyParams.model_fields)
    p = validate_block(ConsistencyParams, block, "consistency")
    assert p == ConsistencyParams()
    assert correction_settings(p).name_seed_aliases == DEFAULT_SEED_ALIASES
    assert '--fuzzy-name-match-threshold "${consistency.fuzzy_name_match.threshold}"' in \
        cli_args(ConsistencyParams, block, "consistency", template=True)
    # the structural key keeps its value (dvc.yaml is regenerated when it changes)
    assert '--dst-version "mwz21"' in cli_args(ConsistencyParams, block, "consistency",
                                              template=True)


def test_params_profile_and_mapping() -> None:
    assert CorrectionSettings.reference().profile() == {}
    assert CorrectionSettings.reference().profile_name() == "reference"
    p = correction_settings(validate_block(ConsistencyParams, {
        "dontcare_policy": "keep",
        "fuzzy_name_match": {"enabled": "true", "domains": "restaurant", "threshold": 90},
        "area_masking": {"entity_names": "true", "street_phrases": True, "addresses": "false"},
        "area_extra_surfaces": "center=centre",
    }, "consistency"))
    assert p.profile() == {"dontcare_policy": "keep", "area_extra_surfaces": [["center",
                                                                              "centre"]]}
    assert p.profile_name() == "custom(area_extra_surfaces,dontcare_policy)"
    with pytest.raises(ConfigError, match=r"^consistency\.no_such_key: unknown key"):
        validate_block(ConsistencyParams, {"no_such_key": 1}, "consistency")
    with pytest.raises(ConfigError, match=r"^consistency\.dontcare_policy: "):
        validate_block(ConsistencyParams, {"dontcare_policy": "drop"}, "consistency")
    with pytest.raises(ConfigError, match=r"^consistency\.name_seed_aliases: .*alias=canonical"):
        validate_block(ConsistencyParams, {"name_seed_aliases": "marriott"}, "consistency")
    with pytest.raises(ConfigError, match=r"^consistency\.verification_sample\.unit: "):
        validate_block(ConsistencyParams, {"verification_sample": {"unit": "x"}}, "consistency")


"""The standard evaluation's parameter blocks (inform, standard, richness): defaults equal to
params.yaml, validation naming the key, the option string the workflow passes."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml

from mwzrepro.core.errors import ConfigError
from mwzrepro.core.params import cli_args, validate_block
from mwzrepro.standard.params import InformParams, RichnessParams, StandardParams

PARAMS = yaml.safe_load((Path(__file__).resolve().parents[3] / "params.yaml").read_text())


def test_defaults_are_the_params_yaml_values():
    assert validate_block(InformParams, PARAMS["inform"], "inform") == InformParams()
    standard = {k: v for k, v in PARAMS["standard"].items() if k != "msttr_window"}
    assert validate_block(StandardParams, standard, "standard") == StandardParams()
    # msttr_window moves from `standard` to its own block `richness`
    window = PARAMS.get("richness", PARAMS["standard"])["msttr_window"]
    assert RichnessParams().msttr_window == window == 50


def test_domain_sources_per_system():
    p = StandardParams()
    assert p.domain_sources_map() == {"dots": "estimated", "soloist": "slot-names"}
    assert (p.domain_source("dots"), p.domain_source("augpt")) == ("estimated", "auto")
    assert StandardParams(domain_sources="").domain_sources_map() == {}


@pytest.mark.parametrize(("model", "block", "data", "key"), [
    (InformParams, "inform", {"matching": "exact"}, "inform.matching"),
    (InformParams, "inform", {"fuzzy_threshold": -1}, "inform.fuzzy_threshold"),
    (InformParams, "inform", {"threshold": 90}, "inform.threshold: unknown key"),
    (StandardParams, "standard", {"domain_sources": "dots"}, "standard.domain_sources"),
    (StandardParams, "standard", {"domain_sources": "dots=ground-truth"},
     "standard.domain_sources"),
    (StandardParams, "standard", {"state_match_threshold": "high"},
     "standard.state_match_threshold"),
    (StandardParams, "standard", {"placeholders": "ext"}, "standard.placeholders"),
    (RichnessParams, "richness", {"msttr_window": 0}, "richness.msttr_window"),
])
def test_bad_values_name_the_key(model, block, data, key):
    with pytest.raises(ConfigError) as err:
        validate_block(model, data, block)
    assert str(err.value).startswith(key)
    assert "\n" not in str(err.value)


def test_workflow_option_strings():
    assert shlex.split(cli_args(InformParams, PARAMS["inform"], "inform")) == [
        "--fuzzy-threshold", "90", "--matching", "reference"]
    assert shlex.split(cli_args(StandardParams, PARAMS["standard"], "standard",
                                template=True)) == [
        "--domain-sources", "${standard.domain_sources}",
        "--placeholders", "${standard.placeholders}",
        "--state-match-threshold", "${standard.state_match_threshold}"]
    assert shlex.split(cli_args(RichnessParams, {"msttr_window": 50})) == [
        "--msttr-window", "50"]

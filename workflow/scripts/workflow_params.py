"""Parameter definitions of the workflow itself: the ``params.yaml`` blocks that say *what* the
pipeline builds (datasets, versions, systems, the test set of the predictions, the download
mirror), and the registry of the areas' parameter models for every other block.

The library never reads these (design.md: the code never opens ``params.yaml``); the workflow
uses them through the generated schema ``workflow/schemas/params.schema.yaml``
(``make_params_schema.py``), which the Snakefile validates ``params.yaml`` against on load.
"""

from __future__ import annotations

import importlib
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from mwzrepro.core.params import STRUCTURAL

#: Dataset versions and split labels the workflow knows (the wildcard constraints of
#: workflow/rules/common.smk).
VERSION_PATTERN = r"^mwz2[0-9]+$"
SYSTEM_PATTERN = r"^[a-z0-9][a-z0-9_.-]*$"
Version = Annotated[str, Field(pattern=VERSION_PATTERN)]
System = Annotated[str, Field(pattern=SYSTEM_PATTERN)]

#: The area models, one per params.yaml block: block -> "module:Model". Blocks without a
#: model here get a permissive schema (any mapping) until their area defines one.
AREA_MODELS: dict[str, str] = {
    "inform": "mwzrepro.standard.params:InformParams",
    "standard": "mwzrepro.standard.params:StandardParams",
    "richness": "mwzrepro.standard.params:RichnessParams",
    "dst": "mwzrepro.dst.params:DSTParams",
    "consistency": "mwzrepro.consistency.params:ConsistencyParams",
    "unseen": "mwzrepro.unseen.params:UnseenParams",
    "bias": "mwzrepro.unseen.params:BiasParams",
    "stats": "mwzrepro.stats.params:StatsParams",
    "bleu_styles": "mwzrepro.bleu.params:BleuStylesParams",
}
#: Blocks of params.yaml that no model describes yet (permissive schema).
UNMODELLED: tuple[str, ...] = ()


def area_model(block: str) -> type[BaseModel]:
    """The parameter model of ``params.yaml`` block ``block`` (:data:`AREA_MODELS`).

    >>> area_model("inform").__name__
    'InformParams'
    """
    module, attr = AREA_MODELS[block].split(":")
    return getattr(importlib.import_module(module), attr)


class _Block(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Download(_Block):
    """Block ``download``: where the pinned raw files come from."""

    mirror: str = Field(
        "", description="Local mirror with the upstream layout <owner>/<repo>/<commit>/<path>. "
        "\"\" means: use the environment variable MWZREPRO_MIRROR if set, else download from "
        "the pinned upstream URLs. A relative path is resolved against the directory where "
        "the command runs.")


class Dataset(_Block):
    """One canonical dataset: one ingest job."""

    version: str = Field(..., pattern=VERSION_PATTERN,
                         description="Dataset version, e.g. mwz21.")
    split: str = Field(..., pattern=r"^(test|val|train)$", description="Split label.")
    raw: str = Field(..., min_length=1,
                     description="The raw file: a path under data/raw/, as listed in "
                     "src/mwzrepro/resources/sources.yaml.")


class Predictions(_Block):
    """Block ``predictions``: the test set prediction files are validated against."""

    test_version: str = Field("mwz21", pattern=VERSION_PATTERN,
                              description="Version whose canonical test turns the prediction "
                              "files are validated against.", json_schema_extra=STRUCTURAL)


class WorkflowParams(_Block):
    """The structural blocks of params.yaml."""

    download: Download = Field(default_factory=Download, description=Download.__doc__)
    datasets: dict[str, Dataset] = Field(
        ..., min_length=1,
        description="Canonical datasets, one ingest job each: dataset version, split and the "
        "raw file.", json_schema_extra=STRUCTURAL)
    versions: list[Version] = Field(
        ..., min_length=1,
        description="Dataset versions whose test split is the reference set (BLEU, "
        "Inform/Success, DST).", json_schema_extra=STRUCTURAL)
    systems: list[System] = Field(
        ..., min_length=1,
        description="Systems scored: prediction files data/raw/mwzeval/predictions/<system>.json "
        "(reference evaluator input format); a registered file of lexicalized text (form: "
        "lexicalized, add-system) is scored by tables-grounded only.",
        json_schema_extra=STRUCTURAL)
    predictions: Predictions = Field(default_factory=Predictions,
                                     description=Predictions.__doc__)


"""One call from inputs to every artefact of the ``unseen`` stage
(spec-unseen-entity-test-set §9): the new test set in the base layout and as canonical tables,
the admissible pool, the mapping and leak reports, and the validation report.

The library never reads pipeline paths: :func:`mwzrepro.prepare.ingest.convlab.load_convlab` and :func:`load_databases`
take explicit files, and :func:`run_unseen` works on in-memory data.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from mwzrepro.core.venue_aliases import DEFAULT_SEED_ALIASES
from mwzrepro.core.errors import ConfigError
from mwzrepro.core.signature import Signature
from mwzrepro.prepare.ingest import IngestError
from mwzrepro.prepare.ingest.convlab import convert_dialogues
from mwzrepro.unseen.catalog import EntityCatalog
from mwzrepro.unseen.families import DEFAULT_REFERENCE_PHRASES
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.replacements import Pools
from mwzrepro.unseen.reports import leak_report, mapping_report
from mwzrepro.unseen.seen import (
    build_seen_set,
    closed_class_values,
    entries_from_databases,
    entries_from_ontology,
    entries_from_schema22,
    entries_from_states,
    filter_pool,
)
from mwzrepro.unseen.testset import build_unseen_test_set
from mwzrepro.unseen.validate import validation_report

__all__ = [
    "load_databases",
    "UnseenOutputs",
    "run_unseen",
    "report_parameters",
    "unseen_signature",
]


def load_databases(paths: Iterable[str | Path]) -> dict[str, list[dict[str, Any]]]:
    """MultiWOZ database files ``<domain>_db.json`` → ``{domain: [records]}``.

    Raises:
        IngestError: a file name does not end in ``_db.json`` or the file is not a JSON list.
    """
    out = {}
    for p in paths:
        p = Path(p)
        if not p.name.endswith("_db.json"):
            raise IngestError(f"{p}: database files are named <domain>_db.json")
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise IngestError(f"{p}: cannot read database: {exc}") from None
        if not isinstance(data, list):
            raise IngestError(f"{p}: a database file holds a JSON list of records")
        out[p.name[: -len("_db.json")]] = data
    return out


def report_parameters(params: UnseenParams) -> dict[str, Any]:
    """The ``parameters`` entry of the validation report: the transformation settings (§7,
    §8), then the seen-set and resolution settings (§5, §6.2) with the fixed seed aliases and
    reference phrases; lists as JSON lists."""
    return {
        "replaced_families": list(params.families),
        "replace_attraction_type": params.replace_attraction_type,
        "replace_unannotated_mentions": params.replace_unannotated_mentions,
        "seed": params.seed,
        "mapping_scope": params.mapping_scope,
        "attraction_category_match": params.attraction_category_match,
        "replace_scope": params.replace_scope,
        "match_tokenisation": params.match_tokenisation,
        "text_match_single_token_fallback": params.text_match_single_token_fallback,
        "unseen_containment": params.unseen_containment,
        "unseen_check_training_text": params.unseen_check_training_text,
        "entity_fuzzy_threshold": params.entity_fuzzy_threshold,
        "seed_aliases": [list(a) for a in DEFAULT_SEED_ALIASES],
        "reference_phrases": list(DEFAULT_REFERENCE_PHRASES),
        "unannotated_exclude": list(params.unannotated_exclude_list),
    }


def unseen_signature(params: UnseenParams, version: str | None, base: str | None,
                     u3_applied: bool, training_split: bool) -> str:
    """Signature of an unseen-entity test set (design.md): version, base, seed, mapping scope,
    replaced families, ATYPE, U2, U3 (as applied), entity fuzzy threshold, training split.

    >>> unseen_signature(UnseenParams(), "mwz21", "mwz21-test", False, False)
    'UNSEEN|ver:mwz21|base:mwz21-test|seed:0|scope:dialogue|fam:ATTR+HOTEL+REST+FOOD+CITY+DEPT+PLACE|atype:no|u2:yes|u3:no|fuzzy:90.0|train:no|v:0.1.0'
    """
    return Signature("UNSEEN", {
        "ver": version, "base": base, "seed": params.seed, "scope": params.mapping_scope,
        "fam": "+".join(params.families), "atype": params.replace_attraction_type,
        "u2": params.unseen_containment, "u3": u3_applied,
        "fuzzy": params.entity_fuzzy_threshold, "train": training_split}).format()


@dataclass
class UnseenOutputs:
    """Everything the ``unseen`` stage writes.

    Attributes:
        data: the new split in the base (ConvLab) layout.
        tables: its canonical tables (``dialogues`` … ``goals``).
        skipped: annotations the canonical conversion skipped (as for the base).
        pool: the ``unseen_pool`` table.
        mapping: the ``unseen_mapping`` table.
        leaks: the ``unseen_leaks`` table.
        report: the validation report (checks, stats, parameters, inputs, signature).
    """

    data: dict[str, Any]
    tables: dict[str, pd.DataFrame]
    skipped: list[dict[str, Any]]
    pool: pd.DataFrame
    mapping: pd.DataFrame
    leaks: pd.DataFrame
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def metadata(self) -> dict[str, Any]:
        """Parquet metadata of every table written: signature, parameters, training split
        and inputs (from :attr:`report`)."""
        return {"signature": self.report["signature"], "parameters": self.report["parameters"],
                "training_split": self.report["training_split"],
                "inputs": self.report["inputs"]}


def run_unseen(
    base: Mapping[str, Any],
    sgd_pool: pd.DataFrame,
    databases: Mapping[str, list[dict[str, Any]]],
    ontology: Mapping[str, list[str]],
    schema22: list[dict[str, Any]],
    params: UnseenParams = UnseenParams(),
    split: str = "test",
    train: Mapping[str, Any] | None = None,
    labels: Mapping[str, Any] | None = None,
) -> UnseenOutputs:
    """Build the unseen-entity copy of a test split and validate it (§4.3–§9, §13).

    Args:
        base: the base split, ConvLab 2.0/2.1 layout.
        sgd_pool: the ``sgd_pool`` table (:func:`~mwzrepro.unseen.sgd_pools.build_pool`).
        databases: MultiWOZ databases ``{domain: records}`` (attraction, hotel, restaurant and
            train required; all eight enter the seen set).
        ontology: the MultiWOZ 2.1 ``ontology.json``.
        schema22: the MultiWOZ 2.2 ``schema.json``.
        params: the ``unseen`` block (§12).
        split: label of the base split.
        train: the MultiWOZ training split in the same layout, or None when unavailable (the
            report then says so and U3 is not applied).
        labels: extra provenance written into the report (input file names); its
            ``version`` and ``base`` enter the signature.

    Raises:
        ConfigError: ``unseen_check_training_text: true`` without a training split.
        mwzrepro.unseen.replacements.ExhaustedPoolError: a family ran out of candidates.
    """
    base_tables, base_skipped = convert_dialogues(base, split=split)
    entries = [
        *entries_from_ontology(ontology),
        *entries_from_databases(databases),
        *entries_from_schema22(schema22),
        *entries_from_states(base_tables["states"], "base test states"),
    ]
    check_text = params.unseen_check_training_text
    if check_text == "true" and train is None:
        raise ConfigError("unseen.unseen_check_training_text is true but no training split "
                          "was given (unseen.train)")
    train_utts = None
    if train is not None:
        train_tables, _ = convert_dialogues(train, split="train")
        entries += list(entries_from_states(train_tables["states"], "training states"))
        if check_text != "false":
            train_utts = train_tables["turns"]["text"].tolist()
    seen = build_seen_set(entries, training_split=train is not None,
                          training_utterances=train_utts)
    catalog = EntityCatalog.from_databases(
        databases, DEFAULT_SEED_ALIASES, DEFAULT_REFERENCE_PHRASES,
        params.unannotated_exclude_list, params.entity_fuzzy_threshold,
        closed_class=closed_class_values(seen, params.enabled_families()))
    pool = filter_pool(sgd_pool, seen, params.unseen_containment)
    pools = Pools(pool[pool["family"].isin(sorted(params.enabled_families()))])
    result = build_unseen_test_set(base, catalog, pools, params)
    new_tables, new_skipped = convert_dialogues(result.data, split=split)
    mapping = mapping_report(result)
    leaks = leak_report(base, result, params)
    report = validation_report(base, result, base_tables, new_tables, seen, pools, catalog,
                               params, leaks, params.unseen_containment)
    report["training_split"] = (
        "available" if train is not None else
        "unavailable: seen-set item 1 (training states) is covered only through the 2.1 "
        "ontology, and U3 (training text) is not applied")
    report["parameters"] = report_parameters(params)
    report["inputs"] = dict(labels or {})
    report["skipped_annotations"] = {"base": len(base_skipped), "new": len(new_skipped)}
    report["signature"] = unseen_signature(
        params, report["inputs"].get("version"), report["inputs"].get("base"),
        report["stats"]["u3_applied"], train is not None)
    return UnseenOutputs(result.data, new_tables, new_skipped, pool, mapping, leaks, report)

"""One call from inputs to every artefact of the ``unseen`` stage
(spec-unseen-entity-test-set §9): the new test set in the base layout and as canonical tables,
the admissible pool, the mapping and leak reports, and the validation report.

The library never reads pipeline paths: :func:`mwzrepro.prepare.ingest.convlab.load_convlab` and :func:`load_databases`
take explicit files, and :func:`run_unseen` works on in-memory data.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from mwzrepro.prepare.ingest import IngestError
from mwzrepro.prepare.ingest.convlab import convert_dialogues
from mwzrepro.unseen.entities import (
    DEFAULT_SEED_ALIASES,
    DEFAULT_UNANNOTATED_EXCLUDE,
    EntityCatalog,
)
from mwzrepro.unseen.families import DEFAULT_REFERENCE_PHRASES
from mwzrepro.unseen.seen import (
    build_seen_set,
    closed_class_values,
    entries_from_databases,
    entries_from_ontology,
    entries_from_schema22,
    entries_from_states,
    filter_pool,
)
from mwzrepro.unseen.testset import Pools, UnseenParams, build_unseen_test_set
from mwzrepro.unseen.validate import leak_report, mapping_report, validation_report

__all__ = [
    "load_databases",
    "SeenParams",
    "UnseenOutputs",
    "run_unseen",
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


@dataclass(frozen=True)
class SeenParams:
    """Parameters of the seen set and the entity catalog (§5, §6.2).

    Attributes:
        unseen_containment: apply U2.
        unseen_check_training_text: ``auto`` (U3 when the training split is given), ``true``
            (require it) or ``false``.
        entity_fuzzy_threshold: partial-ratio threshold of §6.2 (0–100).
        seed_aliases: (alias, canonical name, domain) of spec-annotation-consistency §5.1.
        reference_phrases: taxi reference phrases that are not entities (§8.3).
        unannotated_exclude: database names not searched in unannotated text. [design]
    """

    unseen_containment: bool = True
    unseen_check_training_text: str = "auto"
    entity_fuzzy_threshold: float = 90
    seed_aliases: tuple[tuple[str, str, str], ...] = DEFAULT_SEED_ALIASES
    reference_phrases: tuple[str, ...] = DEFAULT_REFERENCE_PHRASES
    unannotated_exclude: tuple[str, ...] = DEFAULT_UNANNOTATED_EXCLUDE


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
        report: the validation report (checks, stats, parameters, inputs).
    """

    data: dict[str, Any]
    tables: dict[str, pd.DataFrame]
    skipped: list[dict[str, Any]]
    pool: pd.DataFrame
    mapping: pd.DataFrame
    leaks: pd.DataFrame
    report: dict[str, Any] = field(default_factory=dict)


def run_unseen(
    base: Mapping[str, Any],
    sgd_pool: pd.DataFrame,
    databases: Mapping[str, list[dict[str, Any]]],
    ontology: Mapping[str, list[str]],
    schema22: list[dict[str, Any]],
    params: UnseenParams = UnseenParams(),
    seen_params: SeenParams = SeenParams(),
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
        params, seen_params: the parameters (§12).
        split: label of the base split.
        train: the MultiWOZ training split in the same layout, or None when unavailable (the
            report then says so and U3 is not applied).
        labels: extra provenance written into the report (input file names, version).

    Raises:
        ValueError: ``unseen_check_training_text: true`` without a training split.
        mwzrepro.unseen.testset.ExhaustedPoolError: a family ran out of candidates.
    """
    base_tables, base_skipped = convert_dialogues(base, split=split)
    entries = [
        *entries_from_ontology(ontology),
        *entries_from_databases(databases),
        *entries_from_schema22(schema22),
        *entries_from_states(base_tables["states"], "base test states"),
    ]
    check_text = seen_params.unseen_check_training_text
    if check_text not in ("auto", "true", "false"):
        raise ValueError("unseen_check_training_text must be auto, true or false")
    if check_text == "true" and train is None:
        raise ValueError("unseen_check_training_text is true but no training split was given")
    train_utts = None
    if train is not None:
        train_tables, _ = convert_dialogues(train, split="train")
        entries += list(entries_from_states(train_tables["states"], "training states"))
        if check_text != "false":
            train_utts = train_tables["turns"]["text"].tolist()
    seen = build_seen_set(entries, training_split=train is not None,
                          training_utterances=train_utts)
    catalog = EntityCatalog.from_databases(
        databases, seen_params.seed_aliases, seen_params.reference_phrases,
        seen_params.unannotated_exclude, seen_params.entity_fuzzy_threshold,
        closed_class=closed_class_values(seen, params.enabled_families()))
    pool = filter_pool(sgd_pool, seen, seen_params.unseen_containment)
    pools = Pools(pool[pool["family"].isin(sorted(params.enabled_families()))])
    result = build_unseen_test_set(base, catalog, pools, params)
    new_tables, new_skipped = convert_dialogues(result.data, split=split)
    mapping = mapping_report(result)
    leaks = leak_report(base, result, params)
    report = validation_report(base, result, base_tables, new_tables, seen, pools, catalog,
                               params, leaks, seen_params.unseen_containment)
    report["training_split"] = (
        "available" if train is not None else
        "unavailable: seen-set item 1 (training states) is covered only through the 2.1 "
        "ontology, and U3 (training text) is not applied")
    report["parameters"] = {**_jsonable(asdict(params)), **_jsonable(asdict(seen_params))}
    report["inputs"] = dict(labels or {})
    report["skipped_annotations"] = {"base": len(base_skipped), "new": len(new_skipped)}
    return UnseenOutputs(result.data, new_tables, new_skipped, pool, mapping, leaks, report)


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    return obj

"""Replacement pools from the Schema-Guided Dialogue dataset (spec-unseen-entity-test-set §4.1,
§4.2).

For each family, strings are collected from the SGD (service, slot) sources of
:data:`~mwzrepro.unseen.families.SGD_SOURCES` over every SGD split given: schema
``possible_values``, span texts of frame ``slots``, ``actions[*].values``, user-turn
``state.slot_values`` and system-turn ``service_results``. They are then keyed, given a surface
(the most frequent spelling) and cleaned. The unseen filter against MultiWOZ (§4.3, §5) is a
separate step (:mod:`mwzrepro.unseen.seen`), because it depends on the base test set.

The pool table (``sgd_pool`` in :mod:`mwzrepro.core.schemas`) has one row per (family, key) with
columns ``family``, ``key``, ``surface``, ``sources`` (sorted ``Service:slot`` strings),
``n_raw`` (raw occurrences behind the key) and ``categories`` (Travel_1 categories seen next to
an attraction name in ``service_results``; empty for other families).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from mwzrepro.core.signature import Signature
from mwzrepro.prepare.ingest import IngestError
from mwzrepro.unseen.families import SGD_SOURCES, SGD_STATION_SOURCES
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.text import DONTCARE, key

__all__ = [
    "SgdCorpus",
    "RawStrings",
    "read_sgd",
    "family_sources",
    "collect_raw_strings",
    "build_pool",
    "pool_signature",
    "pool_report",
]

_ALLOWED = re.compile(r"^[\w '&.\-]+$")
_APOS = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


@dataclass
class SgdCorpus:
    """Parsed SGD files.

    Attributes:
        schemas: ``{split: [service schema dict, ...]}`` (``schema.json`` of each split).
        dialogues: ``[(split, file name, [dialogue dict, ...]), ...]`` in the order given.
    """

    schemas: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    dialogues: list[tuple[str, str, list[dict[str, Any]]]] = field(default_factory=list)


def read_sgd(schema_files: Mapping[str, str | Path],
             dialogue_files: Mapping[str, Sequence[str | Path]]) -> SgdCorpus:
    """Read SGD ``schema.json`` and ``dialogues_*.json`` files.

    Args:
        schema_files: ``{split: path of that split's schema.json}``.
        dialogue_files: ``{split: [paths of dialogue files]}`` (any subset of the release).

    Raises:
        IngestError: a file is unreadable or not a JSON list (names the file).
    """
    corpus = SgdCorpus()
    for split, path in schema_files.items():
        corpus.schemas[split] = _load_list(Path(path))
    for split, paths in dialogue_files.items():
        for path in paths:
            corpus.dialogues.append((split, Path(path).name, _load_list(Path(path))))
    return corpus


def _load_list(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise IngestError(f"{path}: cannot read SGD JSON: {exc}") from None
    if not isinstance(data, list):
        raise IngestError(f"{path}: SGD files hold a JSON list at top level")
    return data


def family_sources(families: Iterable[str], city_pool_include_stations: bool = False
                   ) -> dict[str, tuple[tuple[str, str], ...]]:
    """The (service, slot) sources of each requested family (§3), with the station slots added
    to CITY when ``city_pool_include_stations``."""
    out = {}
    for fam in families:
        srcs = SGD_SOURCES[fam]
        if fam == "CITY" and city_pool_include_stations:
            srcs = srcs + SGD_STATION_SOURCES
        out[fam] = srcs
    return out


@dataclass
class RawStrings:
    """Raw SGD strings per family (§4.1).

    Attributes:
        counts: ``{family: Counter({(raw string, "Service:slot"): occurrences})}``.
        categories: ``{raw attraction name: Counter(Travel_1 category)}`` from
            ``service_results`` (for ``attraction_category_match``).
        coverage: ``{"Service": number of dialogue frames read}`` for every source service, so
            a report can show which services the available files lack.
    """

    counts: dict[str, Counter[tuple[str, str]]]
    categories: dict[str, Counter[str]]
    coverage: dict[str, int]


def collect_raw_strings(corpus: SgdCorpus,
                        sources: Mapping[str, Sequence[tuple[str, str]]]) -> RawStrings:
    """Collect every raw string of every family's sources (§4.1, steps 1–2).

    Returns:
        :class:`RawStrings`.
    """
    by_source: dict[tuple[str, str], list[str]] = defaultdict(list)
    for fam, srcs in sources.items():
        for src in srcs:
            by_source[src].append(fam)
    services = {svc for svc, _ in by_source}
    counts: dict[str, Counter[tuple[str, str]]] = {fam: Counter() for fam in sources}
    categories: dict[str, Counter[str]] = defaultdict(Counter)
    coverage = {svc: 0 for svc in sorted(services)}

    def add(service: str, slot: str, value: Any) -> None:
        fams = by_source.get((service, slot))
        if not fams or not isinstance(value, str):
            return
        for fam in fams:
            counts[fam][(value, f"{service}:{slot}")] += 1

    for schema in corpus.schemas.values():
        for svc in schema:
            name = svc.get("service_name")
            for slot in svc.get("slots", []):
                for value in slot.get("possible_values", []):
                    add(name, slot.get("name"), value)
    for _split, _file, dialogues in corpus.dialogues:
        for dialogue in dialogues:
            for turn in dialogue.get("turns", []):
                utt = turn.get("utterance", "")
                for frame in turn.get("frames", []):
                    svc = frame.get("service")
                    if svc not in services:
                        continue
                    coverage[svc] += 1
                    for sl in frame.get("slots", []):
                        add(svc, sl.get("slot"), utt[sl.get("start", 0):sl.get("exclusive_end", 0)])
                    for action in frame.get("actions", []):
                        for value in action.get("values", []):
                            add(svc, action.get("slot"), value)
                    state = frame.get("state") or {}
                    for slot, values in (state.get("slot_values") or {}).items():
                        for value in values:
                            add(svc, slot, value)
                    for result in frame.get("service_results") or []:
                        for slot, value in result.items():
                            add(svc, slot, value)
                        if svc == "Travel_1" and "attraction_name" in result:
                            categories[result["attraction_name"]][result.get("category", "")] += 1
    return RawStrings(counts=counts, categories=dict(categories), coverage=coverage)


def _city_form(raw: str) -> str:
    first = raw.split(",", 1)[0]
    tokens = first.split()
    if len(tokens) > 1 and len(tokens[-1]) == 2 and tokens[-1].isalpha():
        tokens = tokens[:-1]
    return " ".join(tokens)


def build_pool(raw: RawStrings, params: UnseenParams = UnseenParams()
               ) -> tuple[pd.DataFrame, dict[str, dict[str, int]]]:
    """Key, surface and clean every family's raw strings (§4.2), with the cleaning settings
    ``max_tokens``, ``city_nicknames`` and ``food_pool_exclude`` of ``params``.

    Returns:
        ``(pool, dropped)``: the pool table (columns of ``sgd_pool``, sorted by family and
        key) and ``{family: {reason: number of keys dropped}}``.
    """
    rows = []
    dropped: dict[str, dict[str, int]] = {}
    nick = {key(x) for x in params.city_nickname_list}
    food_ex = {key(x) for x in params.food_exclude_list}
    cat_by_key: dict[str, Counter[str]] = defaultdict(Counter)
    for name, cats in raw.categories.items():
        cat_by_key[key(name)].update(cats)
    for fam in sorted(raw.counts):
        spellings: dict[str, Counter[str]] = defaultdict(Counter)
        sources: dict[str, set[str]] = defaultdict(set)
        for (value, src), n in raw.counts[fam].items():
            form = " ".join(value.translate(_APOS).split())
            if fam == "CITY":
                form = _city_form(form)
            k = key(form)
            spellings[k][form] += n
            sources[k].add(src)
        reasons: Counter[str] = Counter()
        for k in sorted(spellings):
            surface = sorted(spellings[k].items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            reason = _drop_reason(fam, k, surface, spellings[k], params, nick, food_ex)
            if reason:
                reasons[reason] += 1
                continue
            cats = sorted(c for c in cat_by_key.get(k, {}) if c) if fam == "ATTR" else []
            rows.append({"family": fam, "key": k, "surface": surface,
                         "sources": sorted(sources[k]), "n_raw": sum(spellings[k].values()),
                         "categories": cats})
        dropped[fam] = dict(sorted(reasons.items()))
    pool = pd.DataFrame(rows, columns=["family", "key", "surface", "sources", "n_raw",
                                       "categories"])
    return pool, dropped


def _drop_reason(fam: str, k: str, surface: str, spellings: Counter[str], params: UnseenParams,
                 nick: set[str], food_ex: set[str]) -> str:
    if not k or k in {"none"} or k in DONTCARE:
        return "empty or dontcare"
    if not any(c.isalpha() for c in k):
        return "no letter"
    if not _ALLOWED.match(surface) or "_" in surface:
        return "character outside letters, digits, space, ' & . -"
    if len(k.split()) > params.max_tokens:
        return f"more than {params.max_tokens} tokens"
    if len(k) < 3:
        return "shorter than 3 characters"
    if fam == "CITY":
        if len(k) < 4:
            return "city key shorter than 4 characters"
        if all(s == s.upper() for s in spellings):
            return "city spelled only in capitals"
        if k in nick:
            return "city nickname"
    if fam == "FOOD" and k in food_ex:
        return "food_pool_exclude"
    return ""


def pool_signature(params: UnseenParams) -> str:
    """Signature of the SGD pools: splits, station slots in CITY, token limit.

    >>> pool_signature(UnseenParams())
    'SGD-POOL|splits:train+dev+test|stations:no|max_tokens:6|v:0.1.0'
    """
    return Signature("SGD-POOL", {"splits": "+".join(params.sgd_split_list),
                                  "stations": params.city_pool_include_stations,
                                  "max_tokens": params.max_tokens}).format()


def pool_report(params: UnseenParams, pool: pd.DataFrame, dropped: Mapping[str, Any],
                raw: RawStrings, schema_files: Mapping[str, str],
                dialogue_files: Mapping[str, Sequence[str]],
                missing_dialogue_files: Mapping[str, Sequence[str]] | None) -> dict[str, Any]:
    """The report of the ``sgd-pools`` phase (also the pool table's Parquet metadata).

    Args:
        params: the ``unseen`` block (``sgd_splits``, ``pool_families`` and the §4.2 cleaning
            settings are reported).
        pool, dropped: :func:`build_pool` outputs; raw: :func:`collect_raw_strings` output.
        schema_files: ``{split: file name}`` read; dialogue_files: ``{split: [file names]}``.
        missing_dialogue_files: ``{split: [file names]}`` registered but not given, or None
            when no registry was consulted.

    Returns:
        ``{"signature", "pool_sizes_before_unseen_filter": {family: n}, "dropped_keys",
        "schema_files", "dialogue_files", "missing_dialogue_files",
        "frames_read_per_source_service", "source_services_without_dialogues", "note",
        "parameters"}``.
    """
    fams = list(params.pool_family_list)
    return {
        "signature": pool_signature(params),
        "pool_sizes_before_unseen_filter": {f: int((pool["family"] == f).sum()) for f in fams},
        "dropped_keys": dropped,
        "schema_files": dict(sorted(schema_files.items())),
        "dialogue_files": {s: list(ps) for s, ps in sorted(dialogue_files.items())},
        "missing_dialogue_files": missing_dialogue_files,
        "frames_read_per_source_service": raw.coverage,
        "source_services_without_dialogues": sorted(s for s, n in raw.coverage.items()
                                                    if n == 0),
        "note": "services without dialogues contribute only their schema possible_values",
        "parameters": {"sgd_splits": list(params.sgd_split_list), "families": fams,
                       "city_pool_include_stations": params.city_pool_include_stations,
                       "max_tokens": params.max_tokens,
                       "city_nicknames": list(params.city_nickname_list),
                       "food_pool_exclude": list(params.food_exclude_list)},
    }

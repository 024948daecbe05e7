"""Writing a version's resource set into its cache directory: the JSON files in the form the
scorer reads (:func:`resource_files`: no Parquet, so scoring needs neither pyarrow nor
pandera), the pickled DST gold states, the four database files and the manifest
(:func:`write_resource_set`).
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mwzrepro.scorer.resources.build import DATABASE_SOURCES, VersionRecipe, build_tables
from mwzrepro.scorer.resources.cache import write_manifest
from mwzrepro.scorer.resources.fetch import fetch_sources, registry_sources
from mwzrepro.scorer.resources.resource_set import DST_GOLD_FILE, RESOURCE_FILES, dst_gold_from

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["resource_files", "write_resource_set"]

log = logging.getLogger("mwzrepro")


def _columns(df: pd.DataFrame, columns: list[str]) -> dict[str, list]:
    """Column-oriented plain lists (numpy scalars as Python values, arrays as lists)."""
    out = {}
    for c in columns:
        values = df[c].tolist()
        out[c] = [list(v) if v is not None and not isinstance(v, (str, int, float))
                  else v for v in values]
    return out


def resource_files(tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """The JSON content of a resource set from :func:`~mwzrepro.scorer.resources.build.build_tables`
    (the same conversions the pipeline's scorers apply to its Parquet tables)."""
    from mwzrepro.standard.booked import booked_domains_to_dict
    from mwzrepro.standard.goals import eval_goals_to_dict
    from mwzrepro.standard.gold_states import gold_states_to_dict

    turns = tables["turns"]
    user = turns[turns["speaker"] == "user"].sort_values(["dialogue_id", "turn_id"],
                                                         kind="mergesort")
    user_turns: dict[str, list[str]] = {}
    for did, text in zip(user["dialogue_id"], user["text"]):
        user_turns.setdefault(did, []).append(text)
    refs = tables["references"].sort_values(["dialogue_id", "turn"], kind="mergesort")
    states = tables["states"].sort_values(["dialogue_id", "turn", "domain", "slot"],
                                          kind="mergesort")
    from mwzrepro.bleu.score import reference_tokens

    return {
        "references": _columns(refs, ["dialogue_id", "turn", "text", "delex", "reference"]),
        "bleu_references": reference_tokens(refs["reference"].tolist()),
        "eval_goals": eval_goals_to_dict(tables["eval_goals"]),
        "booked_domains": booked_domains_to_dict(tables["booked_domains"]),
        "gold_states": gold_states_to_dict(tables["gold_states"]),
        "turn_domains": booked_domains_to_dict(tables["turn_domains"]),
        "user_turns": user_turns,
        "states": _columns(states, ["dialogue_id", "turn", "domain", "slot", "value",
                                    "alternatives", "position"]),
        "dialogues": _columns(tables["dialogues"].sort_values("dialogue_id"),
                              ["dialogue_id", "n_turns"]),
    }


def write_resource_set(spec: VersionRecipe, directory: Path, root: Path, registry: Path,
                       mirror: str | None, info: Mapping[str, Any], progress: bool | None
                       ) -> None:
    """Fetch and verify the raw files of ``spec`` (from ``mirror`` or the pinned URLs, into
    ``root``/raw), build the tables and write the set into ``directory`` with its manifest
    (``info``: the build key's fields, :func:`~mwzrepro.scorer.resources.load.build_key`).

    Raises:
        DownloadError: a raw file cannot be fetched or does not verify.
        IngestError: a raw file is malformed.
    """
    import pickle

    from tqdm import tqdm

    from mwzrepro.core.io import atomic_path, dumps_json, write_text

    sources = registry_sources(spec.source_ids(), registry)
    paths = fetch_sources(sources, root / "raw", mirror, progress)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "manifest.json").unlink(missing_ok=True)
    bar = tqdm(total=5, desc=f"building {spec.version} resources", unit="step",
               disable=None if progress is None else not progress, leave=False)

    def step(label: str) -> None:
        bar.set_postfix_str(label)
        bar.update(1)
        log.info("%s: %s", spec.version, label)

    with bar:
        content = resource_files(build_tables(spec, paths, step))
        step("writing the cache")
        files = []
        for name in RESOURCE_FILES:
            write_text(dumps_json(content[name], indent=None), directory / f"{name}.json")
            files.append(f"{name}.json")
        gold = dst_gold_from(content["states"], content["dialogues"], spec.version)
        with atomic_path(directory / DST_GOLD_FILE) as tmp:
            tmp.write_bytes(pickle.dumps(gold, protocol=pickle.HIGHEST_PROTOCOL))
        files.append(DST_GOLD_FILE)
        for domain, sid in DATABASE_SOURCES.items():
            rel = f"db/{domain}_db.json"
            with atomic_path(directory / rel) as tmp:
                shutil.copyfile(paths[sid], tmp)
            files.append(rel)
    write_manifest(directory, files, {**info, "sources": {s: sources[s].sha1 for s in sources}})

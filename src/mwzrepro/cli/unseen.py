"""Pipeline phases of the unseen-entity test set and the entity-bias measures
(spec-unseen-entity-test-set):

* ``sgd-pools`` — SGD schema and dialogue files → the cleaned replacement pools (§4.1–4.2),
  with a report of which SGD files and services were available;
* ``unseen`` — a base test split (ConvLab layout) + pools + MultiWOZ seen material → the
  unseen-entity copy as canonical tables and source-format JSON, the admissible pool, the
  mapping and leak reports, and the validation report (§5–§9, §13);
* ``bias`` — H1/H0 and H∞/H0 per slot of one (version, split) (§11) → Parquet;
* ``tables-bias`` — every bias table in paper Table 2 shape, with the training-split row marked
  as not computed when the training split is unavailable; ``results/metrics/bias.json``; the
  value distribution of the most biased slots as CSV plot data and SVG.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging
from mwzrepro.unseen.families import DEFAULT_CITY_NICKNAMES, DEFAULT_FOOD_POOL_EXCLUDE

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)

TRAIN_UNAVAILABLE = "not computed: training split unavailable"


def _csv(text: str) -> list[str]:
    """``"a, b,c"`` → ``["a", "b", "c"]`` (empty → [])."""
    return [x.strip() for x in text.split(",") if x.strip()]


def _split_of(path: Path) -> str:
    """SGD split of a file from its parent directory (``.../train/schema.json`` → train)."""
    split = path.parent.name
    if split not in ("train", "dev", "test"):
        raise click.BadParameter(f"{path}: SGD files must sit in a train/, dev/ or test/ "
                                 "directory")
    return split


def _signature(metric: str, **fields: Any) -> str:
    from mwzrepro.core.signature import Signature

    return Signature(metric, fields).format()


# -- sgd-pools ------------------------------------------------------------------------------


@click.command("sgd-pools")
@click.option("--sgd-dir", type=IN_DIR, default=None,
              help="Directory with <split>/schema.json and <split>/dialogues_NNN.json (every "
                   "file present is used); alternative to --schema/--dialogues.")
@click.option("--schema", "schemas", type=IN_FILE, multiple=True,
              help="SGD schema.json of a split (repeat; the split is the parent directory).")
@click.option("--dialogues", type=IN_FILE, multiple=True,
              help="SGD dialogues_NNN.json file (repeat; any subset of the release).")
@click.option("--sgd-splits", default="train,dev,test", show_default=True,
              help="SGD splits whose files are used (§1, §4.1).")
@click.option("--families", default="ATTR,HOTEL,REST,FOOD,CITY,PLACE,DEPT,ATYPE",
              show_default=True, help="Families whose pools are built.")
@click.option("--city-pool-include-stations", type=click.BOOL, default=False,
              show_default=True, help="Add SGD station-name slots to CITY (§3): true/false.")
@click.option("--max-tokens", type=int, default=6, show_default=True,
              help="Drop keys with more whitespace tokens (§4.2).")
@click.option("--city-nicknames", default=",".join(DEFAULT_CITY_NICKNAMES), show_default=True,
              help="CITY keys dropped as nicknames (§4.2), comma-separated.")
@click.option("--food-pool-exclude", default=",".join(DEFAULT_FOOD_POOL_EXCLUDE),
              show_default=True, help="FOOD keys dropped (§4.2), comma-separated.")
@click.option("--sources", "registry", type=IN_FILE, default=None,
              help="Sources registry: SGD dialogue files registered but not given are "
                   "listed as missing in the report.")
@click.option("--out", type=PATH, required=True, help="sgd_pool Parquet file to write.")
@click.option("--report", type=PATH, required=True, help="JSON report to write.")
@log_option
def sgd_pools(sgd_dir: Path | None, schemas: tuple[Path, ...], dialogues: tuple[Path, ...],
              sgd_splits: str,
              families: str, city_pool_include_stations: bool, max_tokens: int,
              city_nicknames: str, food_pool_exclude: str, registry: Path | None, out: Path,
              report: Path, log_file: Path | None) -> None:
    """Build the SGD replacement pools (spec-unseen-entity-test-set §4.1–4.2)."""
    from mwzrepro.core.io import write_json, write_table
    from mwzrepro.unseen.families import FAMILIES
    from mwzrepro.unseen.sgd_pools import (
        PoolParams,
        build_pool,
        collect_raw_strings,
        family_sources,
        read_sgd,
    )

    log = setup_logging(log_file)
    splits = _csv(sgd_splits)
    if sgd_dir is not None:
        schemas = schemas + tuple(sorted(sgd_dir.glob("*/schema.json")))
        dialogues = dialogues + tuple(sorted(sgd_dir.glob("*/dialogues_*.json")))
    if not schemas:
        raise click.UsageError("give --sgd-dir or at least one --schema")
    fams = _csv(families)
    bad = [f for f in fams if f not in FAMILIES]
    if bad:
        raise click.BadParameter(f"unknown families {bad}; choose from {list(FAMILIES)}")
    schema_files = {_split_of(p): p for p in schemas if _split_of(p) in splits}
    dialogue_files: dict[str, list[Path]] = {}
    for p in sorted(dialogues):
        if _split_of(p) in splits:
            dialogue_files.setdefault(_split_of(p), []).append(p)
    corpus = read_sgd(schema_files, dialogue_files)
    raw = collect_raw_strings(corpus, family_sources(fams, city_pool_include_stations))
    params = PoolParams(max_tokens, tuple(_csv(city_nicknames)), tuple(_csv(food_pool_exclude)))
    pool, dropped = build_pool(raw, params)
    missing = _missing_sgd_files(registry, schemas, dialogues, splits) if registry else None
    sizes = {f: int((pool["family"] == f).sum()) for f in fams}
    rep = {
        "signature": _signature("SGD-POOL", splits="+".join(splits), stations=
                                city_pool_include_stations, max_tokens=max_tokens),
        "pool_sizes_before_unseen_filter": sizes,
        "dropped_keys": dropped,
        "schema_files": {s: p.name for s, p in sorted(schema_files.items())},
        "dialogue_files": {s: [p.name for p in ps] for s, ps in sorted(dialogue_files.items())},
        "missing_dialogue_files": missing,
        "frames_read_per_source_service": raw.coverage,
        "source_services_without_dialogues": sorted(s for s, n in raw.coverage.items()
                                                    if n == 0),
        "note": "services without dialogues contribute only their schema possible_values",
        "parameters": {"sgd_splits": splits, "families": fams,
                       "city_pool_include_stations": city_pool_include_stations,
                       "max_tokens": max_tokens, "city_nicknames": _csv(city_nicknames),
                       "food_pool_exclude": _csv(food_pool_exclude)},
    }
    write_table(pool, out, "sgd_pool", rep)
    write_json(rep, report)
    log.info("sgd-pools: %s (missing SGD dialogue files: %s)", sizes,
             {k: len(v) for k, v in (missing or {}).items()})


def _missing_sgd_files(registry: Path, schemas, dialogues, splits) -> dict[str, list[str]]:
    from mwzrepro.core.sources import load_registry

    given = {p.as_posix().split("data/raw/", 1)[-1] for p in (*schemas, *dialogues)}
    given_names = {(p.parent.name, p.name) for p in (*schemas, *dialogues)}
    out: dict[str, list[str]] = {}
    for src in load_registry(registry).values():
        if src.role not in ("sgd-dialogues", "sgd-schema"):
            continue
        p = Path(src.path)
        if p.parent.name not in splits:
            continue
        if src.path in given or (p.parent.name, p.name) in given_names:
            continue
        out.setdefault(p.parent.name, []).append(p.name)
    return {k: sorted(v) for k, v in sorted(out.items())}


# -- unseen -----------------------------------------------------------------------------------


@click.command("unseen")
@click.option("--base", type=IN_FILE, required=True,
              help="Base test split, ConvLab 2.0/2.1 layout (.json or .json.zip).")
@click.option("--version", "version", required=True, help="Dataset version label (mwz21).")
@click.option("--base-label", default="", help="Name of the base (spec `base`, e.g. "
              "mwz21-test), written into the report.")
@click.option("--split", default="test", show_default=True, help="Split label of the base.")
@click.option("--sgd-pool", type=IN_FILE, required=True, help="sgd_pool Parquet (sgd-pools).")
@click.option("--database", "databases", type=IN_FILE, multiple=True, required=True,
              help="MultiWOZ database <domain>_db.json (repeat; attraction, hotel, restaurant "
                   "and train required).")
@click.option("--ontology", type=IN_FILE, required=True, help="MultiWOZ 2.1 ontology.json.")
@click.option("--schema22", type=IN_FILE, required=True, help="MultiWOZ 2.2 schema.json.")
@click.option("--train", default="", help="MultiWOZ training split in the base layout; empty "
              "when unavailable (reported; U3 not applied).")
@click.option("--families", default="ATTR,HOTEL,REST,FOOD,CITY,DEPT,PLACE", show_default=True,
              help="replaced_families (§3).")
@click.option("--replace-attraction-type", type=click.BOOL, default=False, show_default=True,
              help="§3.1: true/false.")
@click.option("--unseen-containment", type=click.BOOL, default=True, show_default=True,
              help="Apply U2 (§5): true/false.")
@click.option("--unseen-check-training-text", type=click.Choice(["auto", "true", "false"]),
              default="auto", show_default=True, help="U3 (§5).")
@click.option("--replace-unannotated-mentions", type=click.BOOL, default=True, show_default=True,
              help="§6.1 (f): true/false.")
@click.option("--entity-fuzzy-threshold", type=float, default=90, show_default=True,
              help="§6.2 partial-ratio threshold (0-100).")
@click.option("--seed", type=int, default=0, show_default=True, help="§7 hash seed.")
@click.option("--mapping-scope", type=click.Choice(["dialogue", "global"]), default="dialogue",
              show_default=True, help="§7 step 4.")
@click.option("--attraction-category-match", type=click.BOOL, default=False, show_default=True,
              help="§7 step 6: true/false.")
@click.option("--replace-scope", type=click.Choice(["all_mentions", "spans"]),
              default="all_mentions", show_default=True, help="§8.1.")
@click.option("--match-tokenisation", type=click.Choice(["auto", "always", "never"]),
              default="auto", show_default=True, help="§8.2.")
@click.option("--text-match-single-token-fallback", type=click.Choice(["spans", "all"]),
              default="spans", show_default=True,
              help="One-word name/place values naming no database entity: matched in text "
                   "only inside spans, or everywhere. [design]")
@click.option("--unannotated-exclude", default="the place", show_default=True,
              help="Database names not searched in unannotated text, comma-separated. "
                   "[design]")
@click.option("--out-dir", type=PATH, required=True,
              help="Directory for the canonical tables and the pool/mapping/leaks tables.")
@click.option("--export", type=PATH, required=True,
              help="The new test set in the base layout (JSON) to write.")
@click.option("--report", type=PATH, required=True, help="Validation report JSON to write.")
@log_option
def unseen(base: Path, version: str, base_label: str, split: str, sgd_pool: Path,
           databases: tuple[Path, ...], ontology: Path, schema22: Path, train: str,
           families: str, replace_attraction_type: bool, unseen_containment: bool,
           unseen_check_training_text: str, replace_unannotated_mentions: bool,
           entity_fuzzy_threshold: float, seed: int, mapping_scope: str,
           attraction_category_match: bool, replace_scope: str, match_tokenisation: str,
           text_match_single_token_fallback: str, unannotated_exclude: str, out_dir: Path,
           export: Path, report: Path, log_file: Path | None) -> None:
    """Build and validate the unseen-entity copy of a test split (spec-unseen-entity-test-set
    Part A)."""
    from mwzrepro.prepare.ingest import CANONICAL_TABLES
    from mwzrepro.core.io import dumps_json, read_table, write_json, write_table, write_text
    from mwzrepro.prepare.ingest.convlab import load_convlab
    from mwzrepro.unseen.build import SeenParams, load_databases, run_unseen
    from mwzrepro.unseen.testset import UnseenParams

    log = setup_logging(log_file)
    params = UnseenParams(
        replaced_families=tuple(_csv(families)), replace_attraction_type=replace_attraction_type,
        replace_unannotated_mentions=replace_unannotated_mentions, seed=seed,
        mapping_scope=mapping_scope, attraction_category_match=attraction_category_match,
        replace_scope=replace_scope, match_tokenisation=match_tokenisation,
        text_match_single_token_fallback=text_match_single_token_fallback)
    seen_params = SeenParams(unseen_containment=unseen_containment,
                             unseen_check_training_text=unseen_check_training_text,
                             entity_fuzzy_threshold=entity_fuzzy_threshold,
                             unannotated_exclude=tuple(_csv(unannotated_exclude)))
    train_data = load_convlab(train) if train else None
    labels = {"version": version, "base": base_label or f"{version}-{split}",
              "base_file": base.name, "sgd_pool": sgd_pool.name,
              "databases": sorted(p.name for p in databases), "ontology": ontology.name,
              "schema22": schema22.name, "train": Path(train).name if train else None}
    out = run_unseen(
        load_convlab(base), read_table(sgd_pool, "sgd_pool"), load_databases(databases),
        json.loads(ontology.read_text(encoding="utf-8")),
        json.loads(schema22.read_text(encoding="utf-8")), params, seen_params, split,
        train_data, labels)
    sig = _signature("UNSEEN", ver=version, base=labels["base"], seed=seed, scope=mapping_scope,
                     fam="+".join(params.replaced_families), atype=replace_attraction_type,
                     u2=unseen_containment, u3=out.report["stats"]["u3_applied"],
                     fuzzy=entity_fuzzy_threshold, train=train_data is not None)
    out.report["signature"] = sig
    meta = {"signature": sig, "parameters": out.report["parameters"],
            "training_split": out.report["training_split"], "inputs": labels}
    for name in CANONICAL_TABLES:
        write_table(out.tables[name], out_dir / f"{name}.parquet", name, meta)
    write_table(out.pool, out_dir / "pool.parquet", "unseen_pool", meta)
    write_table(out.mapping, out_dir / "mapping.parquet", "unseen_mapping", meta)
    write_table(out.leaks, out_dir / "leaks.parquet", "unseen_leaks", meta)
    write_text(dumps_json(out.data, indent=None) + "\n", export)
    write_json(out.report, report)
    for name, check in out.report["checks"].items():
        log.info("unseen %s check %s: %s", version, name, "pass" if check["pass"] else "FAIL")
    log.info("unseen %s: %d dialogues, pools %s, turns changed %s%%", version,
             len(out.data), out.report["checks"]["9_coverage"]["pool_sizes"],
             out.report["checks"]["9_coverage"]["turns_state_changed_pct"])


# -- bias ---------------------------------------------------------------------------------


@click.command("bias")
@click.option("--states", type=IN_FILE, required=True, help="Canonical states.parquet.")
@click.option("--version", "version", required=True, help="Dataset version label.")
@click.option("--split", required=True, help="Split label (test, val, test_unseen, ...).")
@click.option("--count-unit", type=click.Choice(["turn", "dialogue"]), default="turn",
              show_default=True, help="bias_count_unit (§11.2).")
@click.option("--out", type=PATH, required=True, help="entity_bias Parquet to write.")
@click.option("--out-values", type=PATH, required=True,
              help="entity_bias_values Parquet (value distribution) to write.")
@log_option
def bias(states: Path, version: str, split: str, count_unit: str, out: Path, out_values: Path,
         log_file: Path | None) -> None:
    """H1/H0 and H∞/H0 per slot of one (version, split) (spec-unseen-entity-test-set §11)."""
    from mwzrepro.core.io import read_table, write_table
    from mwzrepro.unseen.bias import bias_table, value_counts

    log = setup_logging(log_file)
    counts = value_counts(read_table(states, "states"), count_unit)
    table = bias_table(counts)
    table.insert(0, "split", split)
    table.insert(0, "version", version)
    vals = counts.assign(slot=counts["domain"] + "-" + counts["slot"])[["slot", "value",
                                                                        "count"]]
    vals.insert(0, "split", split)
    vals.insert(0, "version", version)
    sig = _signature("ENTITY-BIAS", ver=version, split=split, unit=count_unit)
    meta = {"signature": sig, "count_unit": count_unit}
    write_table(table, out, "entity_bias", meta)
    write_table(vals, out_values, "entity_bias_values", meta)
    log.info("bias %s/%s: %d slots with R >= 2", version, split,
             int(table["h1_h0"].notna().sum()))


# -- tables-bias ------------------------------------------------------------------------------


@click.command("tables-bias")
@click.option("--scores-dir", type=IN_DIR, default=None,
              help="Directory searched (recursively) for entity_bias Parquet files.")
@click.option("--scores", "score_files", type=IN_FILE, multiple=True,
              help="entity_bias Parquet files (repeat); the matching *.values.parquet next "
                   "to each is read for the plot.")
@click.option("--bias-split", default="train", show_default=True,
              help="The reference split of Table 2 (§11.2).")
@click.option("--versions", default="mwz20,mwz21", show_default=True,
              help="Versions whose reference-split row is shown (marked when unavailable).")
@click.option("--table", type=PATH, required=True, help="Stem of the Table 2 shaped table.")
@click.option("--metrics", type=PATH, required=True, help="results/metrics/bias.json.")
@click.option("--plot", type=PATH, required=True, help="Plot data CSV (value distribution).")
@click.option("--plot-image", type=PATH, required=True, help="SVG of the plot.")
@click.option("--plot-source", default="mwz21/test", show_default=True,
              help="version/split whose distribution is plotted (the reference split when "
                   "available).")
@click.option("--plot-slots", type=int, default=4, show_default=True,
              help="Number of most biased slots (lowest H1/H0) plotted.")
@click.option("--plot-values", type=int, default=10, show_default=True,
              help="Values shown per slot (the rest summed as 'other').")
@log_option
def tables_bias(scores_dir: Path | None, score_files: tuple[Path, ...], bias_split: str,
                versions: str, table: Path, metrics: Path, plot: Path, plot_image: Path,
                plot_source: str, plot_slots: int, plot_values: int, log_file: Path | None
                ) -> None:
    """Entity-bias tables in paper Table 2 shape, metrics JSON and plot (spec §11, §13)."""
    import pandas as pd

    from mwzrepro.core.io import read_metadata, read_table, write_json, write_text
    from mwzrepro.unseen.bias import TABLE2, table2_comparison
    from mwzrepro.unseen.bias_plot import plot_data, plot_value_distribution
    from mwzrepro.core.tables import render_table

    log = setup_logging(log_file)
    if scores_dir is not None:
        score_files = score_files + tuple(
            p for p in sorted(scores_dir.rglob("*.parquet"))
            if not p.name.endswith(".values.parquet"))
    if not score_files:
        raise click.UsageError("give --scores-dir or at least one --scores")
    tables = {}
    values = {}
    sigs = {}
    for f in sorted(score_files):
        t = read_table(f, "entity_bias").sort_values("rank").reset_index(drop=True)
        key = f"{t['version'].iloc[0]}/{t['split'].iloc[0]}"
        tables[key] = t
        sigs[key] = read_metadata(f).get("signature", "")
        vf = f.with_name(f.name.replace(".parquet", ".values.parquet"))
        if vf.exists():
            values[key] = read_table(vf, "entity_bias_values")
    wanted = [f"{v}/{bias_split}" for v in _csv(versions)]
    columns = sorted(tables) + [k for k in wanted if k not in tables]
    # wide table: paper order, paper values, then every (version, split)
    rows = []
    for name, h1, hinf in TABLE2:
        row: dict[str, Any] = {"slot": name, "paper H1/H0": h1, "paper H∞/H0": hinf}
        for key in columns:
            if key not in tables:
                row[key] = TRAIN_UNAVAILABLE
                continue
            t = tables[key].set_index("table2_slot")
            row[f"{key} H1/H0"] = float(t.loc[name, "h1_h0"])
            row[f"{key} H∞/H0"] = float(t.loc[name, "hinf_h0"])
        rows.append(row)
    wide = pd.DataFrame(rows)
    notes = [
        "Paper columns: Qian et al. 2021 Table 2, MultiWOZ training split (per-turn counts).",
        f"Columns '{TRAIN_UNAVAILABLE}': the {bias_split} split is not in the data mirror; no "
        "other split is put in its place (§11.2).",
        "Non-training splits are not comparable with Table 2 (§11.4); NaN = R < 2 (NA).",
    ] + [f"{k}: {sigs[k]}" for k in sorted(sigs)]
    render_table(wide, table, "Entity bias H1/H0 and H∞/H0 per slot (paper Table 2 order)",
                 decimals=3, notes=notes)
    # one Table 2 shaped table per split (own ascending order)
    split_rows = []
    for key in columns:
        if key not in tables:
            split_rows.append({"source": key, "status": TRAIN_UNAVAILABLE})
            continue
        t = tables[key]
        shaped = t[["rank", "table2_slot", "r", "top_value", "top_share", "h1_h0", "hinf_h0"]]
        shaped = shaped.rename(columns={"table2_slot": "slot", "r": "R", "h1_h0": "H1/H0",
                                        "hinf_h0": "H∞/H0", "top_value": "top value",
                                        "top_share": "top share"})
        stem = table.with_name(f"{table.name}_{key.replace('/', '_')}")
        render_table(shaped, stem, f"Entity bias, {key} (ascending H1/H0, Table 2 shape)",
                     decimals=3, notes=[sigs.get(key, ""), "Not comparable with Table 2 "
                                        "unless the split is the training split (§11.4)."])
        split_rows.append({"source": key, "status": "computed", **table2_comparison(t)})
    summary = pd.DataFrame(split_rows)
    render_table(summary, table.with_name(f"{table.name}_splits"),
                 "Entity-bias tables computed, per (version, split), with their agreement with "
                 "paper Table 2", decimals=3,
                 notes=["Only the training split is comparable with Table 2 (§11.4, §13 item "
                        "14); the other rows show how far other splits are from it."])
    metrics_out: dict[str, Any] = {"reference_split": bias_split, "splits": {}}
    for key in columns:
        if key not in tables:
            metrics_out["splits"][key] = {"status": TRAIN_UNAVAILABLE}
            continue
        t = tables[key]
        metrics_out["splits"][key] = {
            "status": "computed", "signature": sigs.get(key, ""),
            "comparable_with_table2": key.endswith(f"/{bias_split}"),
            "slots": {r.table2_slot: {"h1_h0": _num(r.h1_h0), "hinf_h0": _num(r.hinf_h0),
                                      "r": int(r.r)} for r in t.itertuples()},
            "table2_comparison": table2_comparison(t),
        }
    write_json(metrics_out, metrics)
    src = plot_source if plot_source in tables else next(
        (k for k in wanted if k in tables), sorted(tables)[0])
    data = plot_data(tables[src], values.get(src), plot_slots, plot_values)
    write_text(data.to_csv(index=False, lineterminator="\n",
                           float_format=lambda x: repr(float(x))), plot)
    plot_value_distribution(data, plot_image, title=f"Value distribution of the "
                            f"{plot_slots} most biased slots ({src})")
    log.info("tables-bias: %d splits, reference split %s unavailable for %s", len(tables),
             bias_split, [k for k in wanted if k not in tables])


def _num(x: float) -> float | None:
    return None if x != x else round(float(x), 6)


COMMANDS = [sgd_pools, unseen, bias, tables_bias]

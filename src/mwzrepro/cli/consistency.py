"""Pipeline phases of the annotation-consistency correction (spec-annotation-consistency):

* ``correct`` — one (version, split): canonical tables in → ``states_corrected.parquet``,
  ``consistency_changes.parquet``, the corrected split in its ConvLab layout, and the
  split's Table 1 / Table 6 counts (``consistency_counts``);
* ``tables-consistency`` — every counts file of a directory: Table 1 / Table 6 shapes next to
  the paper and the spec's expected values, provenance, tolerance report, Table 3 and
  ``results/metrics/consistency.json``;
* ``consistency-sample`` — the manual-verification sample (§9.3);
* ``tables-consistency-dst`` — every end-to-end system's predicted states scored (JGA, FGA,
  fuzzy JGA) against the original and the corrected gold states (Table 4 analogue).

List-valued parameters are given as one string with ``|`` between items (``"a|b"``; ``""`` for
none) so that Snakemake and DVC pass identical command words; pairs as ``surface=label``, seed
aliases as ``alias=canonical@domain``; booleans as ``true``/``false``. The optional overrides
file is a TSV with the header ``dialogue_id turn domain slot value``.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.options import log_option, setup_logging

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


def bar_list(text: str) -> tuple[str, ...]:
    """``"a|b| c"`` → ``("a", "b", " c")`` (items kept verbatim, empty items dropped)."""
    return tuple(x for x in (text or "").split("|") if x != "")


def _pairs(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    for item in bar_list(text):
        if "=" not in item:
            raise click.BadParameter(f"expected surface=label, got {item!r}")
        a, b = item.split("=", 1)
        out.append((a, b))
    return tuple(out)


def read_tsv(path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    """Rows of a tab-separated file with a header containing ``columns`` (values verbatim).

    Raises:
        mwzrepro.core.errors.InputError: missing columns (names the file).
    """
    from mwzrepro.core.errors import InputError

    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        missing = [c for c in columns if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError(f"{path}: missing TSV columns {missing}")
        return [{c: row[c] for c in columns} for row in reader]


def parse_seed_aliases(text: str) -> tuple[tuple[str, str, str], ...]:
    """``"alias=canonical@domain|..."`` → ``((alias, canonical, domain), ...)`` (§5.1)."""
    out = []
    for item in bar_list(text):
        alias, sep, rest = item.partition("=")
        canonical, sep2, domain = rest.rpartition("@")
        if not (sep and sep2 and alias and canonical and domain):
            raise click.BadParameter(f"seed alias {item!r}: expected alias=canonical@domain")
        out.append((alias, canonical, domain))
    return tuple(out)


def read_overrides(path: Path | None) -> tuple[Any, ...]:
    """Parse an ``overrides_file`` (TSV with a header: dialogue_id, turn, domain, slot,
    value; value ``none`` suppresses the detection at that turn).

    Raises:
        mwzrepro.core.errors.InputError: a missing file, missing columns or a bad turn.
    """
    from mwzrepro.consistency.params import Override
    from mwzrepro.core.errors import InputError

    if path is None:
        return ()
    if not path.is_file():
        raise InputError(f"{path}: overrides file not found")
    out = []
    for i, r in enumerate(read_tsv(path, ("dialogue_id", "turn", "domain", "slot", "value"))):
        try:
            turn = int(r["turn"])
        except ValueError:
            raise InputError(f"{path}: row {i + 2}: turn {r['turn']!r} is not an integer") \
                from None
        did = r["dialogue_id"].strip().lower()
        did = did[:-5] if did.endswith(".json") else did
        out.append(Override(did, turn, r["domain"].strip().lower(), r["slot"].strip().lower(),
                            r["value"]))
    return tuple(out)


def correction_options(func):
    """The §10 parameters of the correction as options (defaults = reference profile)."""
    b = click.BOOL
    opts = [
        click.option("--dontcare-policy", type=click.Choice(["fill", "keep"]), default="fill",
                     show_default=True, help="§6.3: fill (dontcare counts as unlabeled) or keep."),
        click.option("--multi-value-policy", type=click.Choice(["alternatives", "skip", "first"]),
                     default="alternatives", show_default=True, help="§6.4."),
        click.option("--name-label", type=click.Choice(["canonical", "surface"]),
                     default="canonical", show_default=True, help="§2.3 name labels."),
        click.option("--name-seed-aliases", default=None,
                     help="§5.1 seed aliases 'alias=canonical@domain|...'; default: the "
                          "spec's table."),
        click.option("--name-strip-leading-the", type=b, default=True, show_default=True,
                     help="§5.1 alias without a leading 'the'."),
        click.option("--name-strip-min-tokens", type=int, default=2, show_default=True),
        click.option("--name-strip-min-chars", type=int, default=6, show_default=True),
        click.option("--name-blocklist", default="", help="Values never used as names (a|b)."),
        click.option("--fuzzy-name-match", type=b, default=True, show_default=True,
                     help="§7.9 NM-F on/off."),
        click.option("--fuzzy-domains", default="restaurant", show_default=True),
        click.option("--fuzzy-threshold", type=int, default=90, show_default=True),
        click.option("--fuzzy-exclude", default="j restaurant", show_default=True),
        click.option("--food-min-chars", type=int, default=4, show_default=True),
        click.option("--food-blocklist", default="local", show_default=True),
        click.option("--taxi-blocked-values", default="cambridge", show_default=True),
        click.option("--area-user-side", type=b, default=False, show_default=True),
        click.option("--area-extra-surfaces", default="", help="e.g. center=centre."),
        click.option("--mask-entity-names", type=b, default=True, show_default=True),
        click.option("--mask-street-phrases", type=b, default=True, show_default=True),
        click.option("--mask-addresses", type=b, default=False, show_default=True),
        click.option("--restaurant-cues-db-names", type=b, default=True, show_default=True,
                     help="§7.3 R3b: restaurant database names are cues."),
        click.option("--restaurant-cues", default="bistro|noodle|cafe|cuisine|dine in|restuarant",
                     show_default=True, help="Generic R3b cues."),
        click.option("--price-lexicon", default=None,
                     help="§5.5 'surface=label|...' (quote it: ' expensive' keeps its "
                          "leading space); default: the spec's table."),
        click.option("--atype-resolve-by-db", type=b, default=True, show_default=True),
        click.option("--require-no-rejection", type=b, default=False, show_default=True),
        click.option("--rejection-cues",
                     default="something else|another one|anything else|different|no,|not that",
                     show_default=True),
        click.option("--train-dest-require-train-cue", type=b, default=False, show_default=True),
        click.option("--add-system-spans", type=b, default=False, show_default=True),
        click.option("--overrides-file", default="",
                     help="TSV dialogue_id/turn/domain/slot/value of forced decisions "
                          "(value 'none' = no addition); '' (the reference profile) for none."),
    ]
    return functools.reduce(lambda f, o: o(f), reversed(opts), func)


def params_from_options(kw: dict[str, Any]) -> Any:
    """Build :class:`mwzrepro.consistency.params.ConsistencyParams` from the options."""
    from mwzrepro.consistency.params import (
        DEFAULT_PRICE_LEXICON,
        DEFAULT_SEED_ALIASES,
        ConsistencyParams,
    )

    seeds = DEFAULT_SEED_ALIASES if kw["name_seed_aliases"] is None else parse_seed_aliases(
        kw["name_seed_aliases"])
    prices = DEFAULT_PRICE_LEXICON if kw["price_lexicon"] is None else _pairs(
        kw["price_lexicon"])
    try:
        return ConsistencyParams(
            dontcare_policy=kw["dontcare_policy"],
            multi_value_policy=kw["multi_value_policy"],
            name_label=kw["name_label"],
            name_seed_aliases=seeds,
            strip_the_enabled=kw["name_strip_leading_the"],
            strip_the_min_tokens=kw["name_strip_min_tokens"],
            strip_the_min_chars=kw["name_strip_min_chars"],
            name_blocklist=bar_list(kw["name_blocklist"]),
            fuzzy_enabled=kw["fuzzy_name_match"],
            fuzzy_domains=bar_list(kw["fuzzy_domains"]),
            fuzzy_threshold=kw["fuzzy_threshold"],
            fuzzy_exclude=bar_list(kw["fuzzy_exclude"]),
            food_min_chars=kw["food_min_chars"],
            food_blocklist=bar_list(kw["food_blocklist"]),
            taxi_blocked_values=bar_list(kw["taxi_blocked_values"]),
            area_user_side=kw["area_user_side"],
            area_extra_surfaces=_pairs(kw["area_extra_surfaces"]),
            mask_entity_names=kw["mask_entity_names"],
            mask_street_phrases=kw["mask_street_phrases"],
            mask_addresses=kw["mask_addresses"],
            restaurant_cues_db_names=kw["restaurant_cues_db_names"],
            restaurant_cues=bar_list(kw["restaurant_cues"]),
            price_lexicon=prices,
            atype_resolve_by_db=kw["atype_resolve_by_db"],
            require_no_rejection=kw["require_no_rejection"],
            rejection_cues=bar_list(kw["rejection_cues"]),
            train_dest_require_train_cue=kw["train_dest_require_train_cue"],
            add_system_spans=kw["add_system_spans"],
            overrides=read_overrides(Path(kw["overrides_file"]) if kw["overrides_file"]
                                     else None),
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def correction_signature(version: str, split: str, params: Any) -> str:
    """Signature of a correction run (version, split, profile, policies, fuzzy library)."""
    import rapidfuzz

    from mwzrepro.consistency.text import PARTIAL_RATIO_IMPL
    from mwzrepro.core.signature import Signature

    return Signature("consistency", {
        "ver": version,
        "split": split,
        "profile": params.profile_name(),
        "dontcare": params.dontcare_policy,
        "multi": params.multi_value_policy,
        "fuzzy": f"{PARTIAL_RATIO_IMPL}-{rapidfuzz.__version__}" if params.fuzzy_enabled
        else "off",
        "overrides": len(params.overrides),
    }).format()


@click.command("correct")
@click.option("--dialogues", type=IN_FILE, required=True, help="Canonical dialogues.parquet.")
@click.option("--turns", type=IN_FILE, required=True, help="Canonical turns.parquet.")
@click.option("--states", type=IN_FILE, required=True, help="Canonical states.parquet.")
@click.option("--raw", type=IN_FILE, required=True,
              help="The split's raw ConvLab <split>.json.zip (for the export; only read).")
@click.option("--db-dir", type=IN_DIR, required=True,
              help="Directory with attraction/hotel/restaurant/train _db.json (§5).")
@click.option("--ontology", type=IN_FILE, required=True,
              help="MultiWOZ 2.1 ontology.json (cuisines, §5.2).")
@click.option("--version", "version", required=True, help="Dataset version label, e.g. mwz21.")
@click.option("--split", required=True, help="Split label: test, val or train.")
@correction_options
@click.option("--out", type=PATH, required=True, help="states_corrected.parquet to write.")
@click.option("--changes", type=PATH, required=True,
              help="consistency_changes.parquet (change log) to write.")
@click.option("--export", "export_path", type=PATH, required=True,
              help="Corrected split in the source layout (<split>.json.zip) to write.")
@click.option("--counts", type=PATH, required=True,
              help="consistency_counts Parquet (Table 1 / Table 6 counts, §8) to write.")
@click.option("--units", type=PATH, required=True,
              help="consistency_units Parquet (per-turn context, the verification unit).")
@log_option
def correct(dialogues: Path, turns: Path, states: Path, raw: Path, db_dir: Path, ontology: Path,
            version: str, split: str, out: Path, changes: Path, export_path: Path, counts: Path,
            units: Path, log_file: Path | None, **kw: Any) -> None:
    """Annotation-consistency correction of one (version, split) (Qian et al. 2021)."""
    from mwzrepro.consistency.counts import count_changes, turn_units
    from mwzrepro.consistency.export import export_convlab
    from mwzrepro.consistency.lexicons import build_inventories, load_databases, load_ontology
    from mwzrepro.consistency.correct import correct_split
    from mwzrepro.core.io import read_table, write_table

    log = setup_logging(log_file)
    params = params_from_options(kw)
    tables = {name: read_table(path, name) for name, path in
              (("dialogues", dialogues), ("turns", turns), ("states", states))}
    inv = build_inventories(load_databases(db_dir), load_ontology(ontology), params)
    result = correct_split(tables, inv, params, where=f"{version}/{split}")
    signature = correction_signature(version, split, params)
    export = export_convlab(raw, result.states, export_path)
    meta = {
        "version": version,
        "split": split,
        "signature": signature,
        "params": params.to_dict(),
        "profile": params.profile(),
        "inventories": inv.summary(),
        "coverage": result.coverage,
        "export": {"file": export_path.name, **export},
    }
    write_table(result.states, out, "states_corrected", meta)
    write_table(result.changes, changes, "consistency_changes", meta)
    write_table(count_changes(tables["states"], result.states, result.changes), counts,
                "consistency_counts", meta)
    write_table(turn_units(tables["turns"], tables["states"], result.states), units,
                "consistency_units", meta)
    added = result.states[result.states["origin"] != "original"]
    log.info("correct %s/%s: %d dialogues, %d user turns; %d detections; %d added slot-turns in "
             "%d dialogues; export %s (%d values)", version, split,
             result.coverage["dialogues"], result.coverage["user_turns"],
             len(result.changes[result.changes["rank"] == 0]), len(added),
             added["dialogue_id"].nunique(), export_path, export["values_written"])
    if params.profile():
        log.warning("non-reference profile: %s", params.profile())


# ---------------------------------------------------------------------------------- tables
@click.command("tables-consistency")
@click.option("--scores-dir", type=IN_DIR, required=True,
              help="Directory of <version>/<split>.parquet consistency_counts files (from "
                   "`correct --counts`; <split>.units.parquet files are skipped).")
@click.option("--published", type=IN_FILE, required=True,
              help="workflow/resources/published/qian2021.yaml.")
@click.option("--reference-version", default="mwz21", show_default=True,
              help="Version compared with the spec's expected values (§9.4).")
@click.option("--tables-dir", type=PATH, required=True,
              help="Directory for consistency_table1, _table6, _provenance, _reference and "
                   "_table3 (.md/.csv/.tex).")
@click.option("--metrics", type=PATH, required=True, help="consistency.json to write.")
@log_option
def tables_consistency(scores_dir: Path, published: Path, reference_version: str,
                       tables_dir: Path, metrics: Path, log_file: Path | None) -> None:
    """Counts tables (Table 1, Table 6), provenance, tolerance report and Table 3 of the
    annotation-consistency correction, and results/metrics/consistency.json."""
    import yaml

    from mwzrepro.consistency.report import (
        counts_table,
        provenance_table,
        reference_table,
        table3_frame,
        version_label,
    )
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import dumps_json, read_metadata, read_table, write_json
    from mwzrepro.core.tables import render_table

    log = setup_logging(log_file)
    pub = yaml.safe_load(published.read_text(encoding="utf-8"))
    counts, metas = {}, {}
    for path in sorted(Path(scores_dir).glob("*/*.parquet")):
        if path.name.endswith(".units.parquet"):
            continue
        meta = read_metadata(path)
        key = (meta.get("version"), meta.get("split"))
        if key != (path.parent.name, path.stem):
            raise InputError(f"{path}: metadata names {key}, expected the file's "
                             f"<version>/<split> ({path.parent.name}, {path.stem})")
        counts[key] = read_table(path, "consistency_counts").sort_values("row")
        metas[key] = meta
    if not counts:
        raise InputError(f"{scores_dir}: no <version>/<split>.parquet counts files")
    signatures = sorted({m["signature"] for m in metas.values()})
    profiles = sorted({dumps_json(m["profile"], indent=None) for m in metas.values()})
    notes = [
        "Cells: count (percent of the domain's dialogues/turns whose corrected state has a "
        "slot of that domain; total: any slot). Measured columns: rule output of "
        "spec-annotation-consistency on the named MultiWOZ version.",
        "spec 2.1: expected rule output of the spec (§9.4, MultiWOZ 2.1, reference profile). "
        "paper (2.2): Qian et al. 2021, computed by the authors' scripts on MultiWOZ 2.2 in "
        "the 2.1 layout (test column with 13 hard-coded test turns).",
        "The training split is not in the data mirror: its column holds the paper's numbers "
        "only. The ConvLab-2 validation split has 999 dialogues.",
        "Profiles (settings differing from the reference profile): " + "; ".join(profiles),
    ] + [f"signature: {s}" for s in signatures]
    tables_dir = Path(tables_dir)
    render_table(counts_table(counts, pub, "dialogues"), tables_dir / "consistency_table1",
                 "Dialogues with at least one annotation-consistency change (Table 1 shape)",
                 notes=notes)
    render_table(counts_table(counts, pub, "turns"), tables_dir / "consistency_table6",
                 "Turns with at least one annotation-consistency change (Table 6 shape; "
                 "the paper's caption says dialogs)", notes=notes)
    render_table(provenance_table(counts), tables_dir / "consistency_provenance",
                 "Detections per slot by side (user / system), the paper's Figure 4",
                 decimals=1, notes=[f"signature: {s}" for s in signatures])
    ref = reference_table(counts, pub, reference_version)
    render_table(ref, tables_dir / "consistency_reference",
                 f"{version_label(reference_version)} counts against the spec's expected "
                 "values (§9.4; acceptance §12.7: dialogues ±3 or ±3 %, totals ±1 point) and "
                 "the paper's Table 1 (§12.8: ±20 % or ±6; domain totals ±4, total ±2 points)",
                 notes=["turns/detections within: the same ±3 / ±3 % band applied to turns "
                        "and detections (informative)."]
                 + [f"signature: {s}" for s in signatures])
    render_table(table3_frame(pub), tables_dir / "consistency_table3",
                 "Manual verification (paper Table 3): statistics recomputed from the confusion "
                 "matrix", decimals=3,
                 notes=["The paper's stated recall/precision/F1 (0.970/0.961/0.974) are "
                        "inconsistent: F1 cannot exceed both (spec §9.3)."])
    has_ref = not ref.empty
    record = {
        "signatures": signatures,
        "datasets": {
            f"{v}/{s}": {
                "version_label": version_label(v),
                "signature": metas[(v, s)]["signature"],
                "profile": metas[(v, s)]["profile"],
                "coverage": metas[(v, s)]["coverage"],
                "counts": _records(counts[(v, s)].drop(columns=["row"])),
            } for v, s in sorted(counts)
        },
        "reference_check": {
            "version": reference_version,
            "cells": int(len(ref)),
            "outside_spec": _records(ref[ref["within spec"] == "no"]) if has_ref else [],
            "turns_or_detections_outside_band": _records(
                ref[ref["turns/detections within"] == "no"]) if has_ref else [],
            "outside_paper": _records(ref[ref["within paper"] == "no"]) if has_ref else [],
        },
    }
    write_json(record, metrics)
    chk = record["reference_check"]
    log.info("tables-consistency: %d datasets; %d reference cells, %d outside the spec "
             "tolerance, %d outside the paper tolerance", len(counts), chk["cells"],
             len(chk["outside_spec"]), len(chk["outside_paper"]))
    for row in chk["outside_spec"]:
        log.warning("outside spec tolerance: %s", dumps_json(row, indent=None))


@click.command("consistency-sample")
@click.option("--scores-dir", type=IN_DIR, required=True,
              help="Directory of <version>/<split>.units.parquet files (`correct --units`).")
@click.option("--verification-version", default="mwz21", show_default=True,
              help="Dataset version the sample is drawn from.")
@click.option("--verification-splits", default="train|val", show_default=True,
              help="Splits drawn from together (a|b); splits without corrected data are "
                   "reported and skipped.")
@click.option("--verification-seed", type=int, default=0, show_default=True)
@click.option("--verification-modified", type=int, default=100, show_default=True)
@click.option("--verification-unmodified", type=int, default=100, show_default=True)
@click.option("--verification-unit", type=click.Choice(["turn", "dialogue"]), default="turn",
              show_default=True)
@click.option("--verification-with-replacement", type=click.BOOL, default=False,
              show_default=True)
@click.option("--out", type=PATH, required=True,
              help="CSV of the sampled units with an empty judgement column.")
@log_option
def consistency_sample(scores_dir: Path, verification_version: str, verification_splits: str,
                       verification_seed: int, verification_modified: int,
                       verification_unmodified: int, verification_unit: str,
                       verification_with_replacement: bool, out: Path,
                       log_file: Path | None) -> None:
    """Draw the manual-verification sample of spec-annotation-consistency §9.3 (Table 3)."""
    from mwzrepro.consistency.counts import draw_verification_sample
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import read_table, write_text

    log = setup_logging(log_file)
    wanted = bar_list(verification_splits)
    have, missing = {}, []
    for split in wanted:
        path = Path(scores_dir) / verification_version / f"{split}.units.parquet"
        if path.is_file():
            have[split] = read_table(path, "consistency_units")
        else:
            missing.append(split)
    if not have:
        raise InputError(f"{scores_dir}/{verification_version}: none of the splits "
                         f"{list(wanted)} has a corrected units file")
    sample = draw_verification_sample(have, verification_seed, verification_modified,
                                      verification_unmodified, verification_unit,
                                      verification_with_replacement)
    write_text(sample.to_csv(index=False, lineterminator="\n"), out)
    log.info("consistency-sample: %d modified and %d unmodified %ss from %s (seed %d); "
             "splits without data: %s", int(sample["modified"].sum()),
             int((~sample["modified"]).sum()), verification_unit, sorted(have),
             verification_seed, missing or "none")


def _records(df: Any) -> list[dict[str, Any]]:
    import math

    out = []
    for row in df.to_dict(orient="records"):
        clean = {}
        for k, v in row.items():
            if hasattr(v, "item"):
                v = v.item()
            if isinstance(v, float) and math.isnan(v):
                v = None
            clean[k] = v
        out.append(clean)
    return out


# ------------------------------------------------------------------------------ DST effect
@click.command("tables-consistency-dst")
@click.option("--predictions-dir", type=IN_DIR, required=True,
              help="Directory of <system>.parquet predictions tables (coverage files are "
                   "skipped).")
@click.option("--states", type=IN_FILE, required=True, help="Original gold states.parquet.")
@click.option("--corrected", type=IN_FILE, required=True,
              help="states_corrected.parquet of the same version and split.")
@click.option("--dialogues", type=IN_FILE, required=True, help="dialogues.parquet.")
@click.option("--version", "version", required=True, help="Gold dataset version, e.g. mwz21.")
@click.option("--lambdas", default="0.5", show_default=True,
              help="FGA λ values, comma-separated; the table shows the first.")
@click.option("--fuzzy-threshold", default="0.9", show_default=True,
              help="θ of fuzzy JGA (normalised Levenshtein, inclusive).")
@click.option("--excluded-dialogues", default="",
              help="Dialogue ids left out, comma-separated ('' for none).")
@click.option("--missing", type=click.Choice(["error", "skip"]), default="skip",
              show_default=True, help="Gold dialogues/turns without predictions.")
@click.option("--corrected-alternatives", type=click.BOOL, default=True, show_default=True,
              help="Accept any value of a multi-valued addition (2.2+ semantics).")
@click.option("--published", type=IN_FILE, required=True, help="qian2021.yaml (Table 4).")
@click.option("--table", type=PATH, required=True, help="Table stem to write.")
@click.option("--metrics", type=PATH, required=True, help="JSON to write.")
@log_option
def tables_consistency_dst(predictions_dir: Path, states: Path, corrected: Path,
                           dialogues: Path, version: str, lambdas: str, fuzzy_threshold: str,
                           excluded_dialogues: str, missing: str, corrected_alternatives: bool,
                           published: Path, table: Path, metrics: Path,
                           log_file: Path | None) -> None:
    """Effect of the correction on DST scores (analogue of the paper's Table 4)."""
    import pandas as pd
    import yaml

    from mwzrepro.consistency.dst_effect import gold_views, score_system
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import read_metadata, read_table, write_json
    from mwzrepro.dst.metrics import DSTError
    from mwzrepro.core.signature import Signature
    from mwzrepro.core.tables import render_table

    log = setup_logging(log_file)
    try:
        lams = [float(x) for x in lambdas.replace(",", " ").split()]
    except ValueError as exc:
        raise click.BadParameter(f"--lambdas: {exc}") from None
    if not lams:
        raise click.BadParameter("--lambdas: give at least one value")
    excluded = tuple(x for x in excluded_dialogues.replace(",", " ").split() if x)
    prediction_files = [p for p in Path(predictions_dir).glob("*.parquet")
                        if not p.name.endswith(".coverage.parquet")]
    if not prediction_files:
        raise InputError(f"{predictions_dir}: no <system>.parquet prediction files")
    cmeta = read_metadata(corrected)
    golds = gold_views(read_table(states, "states"), read_table(corrected, "states_corrected"),
                       read_table(dialogues, "dialogues"), corrected_alternatives, str(states))
    rows, record, no_states = [], {}, []
    for path in sorted(prediction_files, key=lambda p: p.stem):
        system = path.stem
        try:
            res = score_system(read_table(path, "predictions"), golds, lams, fuzzy_threshold,
                               excluded, missing, str(path))
        except DSTError as exc:
            raise InputError(str(exc)) from None
        if res is None:
            no_states.append(system)
            continue
        o, c = res["original"], res["corrected"]
        lam = repr(float(lams[0]))
        rows.append({
            "system": system, "dialogues": o["dialogues"], "turns": o["turns"],
            "JGA": 100 * o["jga"], "JGA corrected": 100 * c["jga"],
            "Δ JGA": 100 * (c["jga"] - o["jga"]),
            f"FGA({lams[0]:g})": 100 * o["fga"][lam],
            f"FGA({lams[0]:g}) corrected": 100 * c["fga"][lam],
            "fuzzy JGA": 100 * o["fuzzy_jga"], "fuzzy JGA corrected": 100 * c["fuzzy_jga"],
        })
        record[system] = res
    corr = Signature.parse(cmeta["signature"]).fields if cmeta.get("signature") else {}
    signature = Signature("DST-consistency", {
        "ver": version, "gold": "original,corrected",
        "corr": corr.get("profile", "unknown"), "dontcare": corr.get("dontcare"),
        "alts": "list" if corrected_alternatives else "primary",
        "lambdas": ",".join(repr(x) for x in lams), "fuzzy": f"lev>={fuzzy_threshold}",
        "excl": ",".join(excluded) or "none", "slots": 30,
    }).format()
    pub = yaml.safe_load(published.read_text(encoding="utf-8")).get("table4", {})
    paper = "; ".join(f"{m}: " + ", ".join(f"{c} {v[0]}" for c, v in zip(pub["columns"], vals))
                      for m, vals in pub.get("rows", {}).items())
    notes = [
        "Scores in percent. Gold: MultiWOZ test states of the named version, original and after "
        "the annotation-consistency correction (reference profile). The systems were trained "
        "on uncorrected annotations; the paper's gains (Table 4) come from training and "
        "testing on the corrected data.",
        "Systems without predicted states: " + (", ".join(no_states) or "none") + ".",
        f"Paper Table 4 (TRADE/SimpleTOD/DST-BART, trained on each version; JGA): {paper}.",
        f"signature: {signature}",
    ]
    render_table(pd.DataFrame(rows), table,
                 f"DST scores against original and corrected gold states ({version} test)",
                 decimals=2, notes=notes)
    write_json({"signature": signature, "version": version, "systems": record,
                "no_states": no_states}, metrics)
    log.info("tables-consistency-dst: %d systems scored, %d without states", len(rows),
             len(no_states))


COMMANDS = [correct, tables_consistency, consistency_sample, tables_consistency_dst]

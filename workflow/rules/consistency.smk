# Rules of the annotation-consistency area (spec-annotation-consistency, Qian et al. 2021; see
# dvc.yaml for the mirrored stages).
#   correct                one job per dataset of `datasets`: canonical tables + databases +
#                          2.1 ontology -> states_corrected, change log, ConvLab export,
#                          Table 1/6 counts and per-turn units (results/scores/consistency/)
#   tables-consistency     Table 1 / Table 6 shapes next to the paper and the spec, provenance,
#                          reference check, Table 3, results/metrics/consistency.json
#   consistency-sample     the manual-verification sample (spec §9.3)
#   tables-consistency-dst every system's predicted states against original and corrected gold
#                          (the paper's Table 4 analogue), results/metrics/consistency_dst.json
import os

CONS = config["consistency"]
CONS_DST = config["dst"]
CONS_CODE = (
    "consistency/correct.py",
    "consistency/text.py",
    "consistency/lexicons.py",
    "consistency/params.py",
    "consistency/context.py",
    "consistency/rules.py",
    "consistency/entities.py",
    "consistency/export.py",
    "consistency/counts.py",
    "core/errors.py",
    "core/signature.py",
    "cli/consistency.py",
)
CONS_DB = [raw(f"mwz21-db-{d}-db") for d in ("attraction", "hotel", "restaurant", "train")]
CONS_SETS = [f"{d['version']}/{d['split']}" for d in DATASETS.values()]
CONS_SCORES = [
    f"results/scores/consistency/{ds}{ext}"
    for ds in CONS_SETS
    for ext in (".parquet", ".units.parquet")
]
CONS_TABLES = ["table1", "table6", "provenance", "reference", "table3"]

# The §10 parameters, one option each (all from params.yaml, block `consistency`).
CONS_ARGS = (
    f"--dontcare-policy {CONS['dontcare_policy']}"
    f" --multi-value-policy {CONS['multi_value_policy']} --name-label {CONS['name_label']}"
    f" --name-seed-aliases \"{CONS['name_seed_aliases']}\""
    f" --name-strip-leading-the {CONS['name_strip_leading_the']['enabled']}"
    f" --name-strip-min-tokens {CONS['name_strip_leading_the']['min_tokens']}"
    f" --name-strip-min-chars {CONS['name_strip_leading_the']['min_chars']}"
    f" --name-blocklist \"{CONS['name_blocklist']}\""
    f" --fuzzy-name-match {CONS['fuzzy_name_match']['enabled']}"
    f" --fuzzy-domains \"{CONS['fuzzy_name_match']['domains']}\""
    f" --fuzzy-threshold {CONS['fuzzy_name_match']['threshold']}"
    f" --fuzzy-exclude \"{CONS['fuzzy_exclude']}\" --food-min-chars {CONS['food_min_chars']}"
    f" --food-blocklist \"{CONS['food_blocklist']}\""
    f" --taxi-blocked-values \"{CONS['taxi_blocked_values']}\""
    f" --area-user-side {CONS['area_user_side']}"
    f" --area-extra-surfaces \"{CONS['area_extra_surfaces']}\""
    f" --mask-entity-names {CONS['area_masking']['entity_names']}"
    f" --mask-street-phrases {CONS['area_masking']['street_phrases']}"
    f" --mask-addresses {CONS['area_masking']['addresses']}"
    f" --restaurant-cues-db-names {CONS['restaurant_cues']['db_names']}"
    f" --restaurant-cues \"{CONS['restaurant_cues']['extra']}\""
    f" --price-lexicon \"{CONS['price_lexicon']}\""
    f" --atype-resolve-by-db {CONS['atype_resolve_by_db']}"
    f" --require-no-rejection {CONS['require_no_rejection']}"
    f" --rejection-cues \"{CONS['rejection_cues']}\""
    f" --train-dest-require-train-cue {CONS['train_dest_require_train_cue']}"
    f" --add-system-spans {CONS['add_system_spans']}"
    f" --overrides-file \"{CONS['overrides_file']}\""
)
CONS_SAMPLE = CONS["verification_sample"]


rule correct:
    input:
        dialogues="data/interim/{version}/{split}/dialogues.parquet",
        turns="data/interim/{version}/{split}/turns.parquet",
        states="data/interim/{version}/{split}/states.parquet",
        raw=lambda w: "data/raw/{}".format(DATASETS[f"{w.version}-{w.split}"]["raw"]),
        db=CONS_DB,
        ontology=raw("mwz21-ontology"),
        code=code(*CONS_CODE),
    output:
        states="data/interim/{version}/{split}/states_corrected.parquet",
        changes="data/interim/{version}/{split}/consistency_changes.parquet",
        export="data/interim/{version}/{split}/corrected/{split}.json.zip",
        counts="results/scores/consistency/{version}/{split}.parquet",
        units="results/scores/consistency/{version}/{split}.units.parquet",
    log:
        "logs/correct/{version}-{split}.log",
    conda:
        ENV
    params:
        args=CONS_ARGS,
        db_dir=lambda w, input: os.path.dirname(input.db[0]),
    shell:
        "mwzrepro correct --dialogues {input.dialogues} --turns {input.turns}"
        " --states {input.states} --raw {input.raw} --db-dir {params.db_dir}"
        " --ontology {input.ontology} --version {wildcards.version} --split {wildcards.split}"
        " {params.args} --out {output.states} --changes {output.changes}"
        " --export {output.export} --counts {output.counts} --units {output.units} --log {log}"


rule tables_consistency:
    input:
        scores=CONS_SCORES,
        published="workflow/resources/published/qian2021.yaml",
        code=code(
            "consistency/counts.py",
            "consistency/report.py",
            "consistency/correct.py",
            "core/tables.py",
            "cli/consistency.py",
        ),
    output:
        tables=[
            f"results/tables/consistency_{t}{e}"
            for t in CONS_TABLES
            for e in (".md", ".csv", ".tex")
        ],
        metrics="results/metrics/consistency.json",
    log:
        "logs/tables-consistency.log",
    conda:
        ENV
    params:
        reference=CONS["reference_version"],
    shell:
        "mwzrepro tables-consistency --scores-dir results/scores/consistency"
        " --published {input.published} --reference-version {params.reference}"
        " --tables-dir results/tables --metrics {output.metrics} --log {log}"


rule consistency_sample:
    input:
        scores=CONS_SCORES,
        code=code("consistency/counts.py", "consistency/correct.py", "cli/consistency.py"),
    output:
        "results/tables/consistency_verification_sample.csv",
    log:
        "logs/consistency-sample.log",
    conda:
        ENV
    params:
        version=CONS_SAMPLE["version"],
        splits=CONS_SAMPLE["splits"],
        seed=CONS["verification_seed"],
        modified=CONS_SAMPLE["modified"],
        unmodified=CONS_SAMPLE["unmodified"],
        unit=CONS_SAMPLE["unit"],
        replacement=CONS_SAMPLE["with_replacement"],
    shell:
        "mwzrepro consistency-sample --scores-dir results/scores/consistency"
        " --verification-version {params.version} --verification-splits '{params.splits}'"
        " --verification-seed {params.seed} --verification-modified {params.modified}"
        " --verification-unmodified {params.unmodified} --verification-unit {params.unit}"
        " --verification-with-replacement {params.replacement} --out {output} --log {log}"


rule tables_consistency_dst:
    input:
        predictions=expand(
            "data/interim/predictions/{system}{ext}",
            system=SYSTEMS,
            ext=(".parquet", ".coverage.parquet"),
        ),
        states=f"data/interim/{CONS['dst_version']}/test/states.parquet",
        corrected=f"data/interim/{CONS['dst_version']}/test/states_corrected.parquet",
        dialogues=f"data/interim/{CONS['dst_version']}/test/dialogues.parquet",
        published="workflow/resources/published/qian2021.yaml",
        code=code(
            "consistency/dst_effect.py",
            "dst/inputs.py",
            "dst/metrics.py",
            "core/tables.py",
            "core/signature.py",
            "cli/consistency.py",
        ),
    output:
        table=multiext("results/tables/consistency_dst", ".md", ".csv", ".tex"),
        metrics="results/metrics/consistency_dst.json",
    log:
        "logs/tables-consistency-dst.log",
    conda:
        ENV
    params:
        version=CONS["dst_version"],
        lambdas=CONS_DST["lambdas"],
        fuzzy=CONS_DST["fuzzy_threshold"],
        excluded=CONS_DST["excluded_dialogues"],
        missing=CONS_DST["missing"],
        alternatives=CONS["dst_corrected_alternatives"],
    shell:
        "mwzrepro tables-consistency-dst --predictions-dir data/interim/predictions"
        " --states {input.states} --corrected {input.corrected}"
        " --dialogues {input.dialogues} --version {params.version}"
        " --lambdas '{params.lambdas}' --fuzzy-threshold {params.fuzzy}"
        " --excluded-dialogues '{params.excluded}' --missing {params.missing}"
        " --corrected-alternatives {params.alternatives} --published {input.published}"
        " --table results/tables/consistency_dst --metrics {output.metrics} --log {log}"


ALL_TARGETS.extend(rules.tables_consistency.output)
ALL_TARGETS.extend(rules.consistency_sample.output)
ALL_TARGETS.extend(rules.tables_consistency_dst.output)

# Rules of the annotation-consistency area (spec-annotation-consistency, Qian et al. 2021).
#   correct                one job per dataset of `datasets`: canonical tables + databases +
#                          2.1 ontology -> states_corrected, change log, ConvLab export,
#                          Table 1/6 counts and per-turn units (results/scores/consistency/)
#   tables-consistency     Table 1 / Table 6 shapes next to the paper and the spec, provenance,
#                          reference check, Table 3, results/metrics/consistency.json
#   consistency-sample     the manual-verification sample (spec §9.3)
#   tables-consistency-dst every system's predicted states against original and corrected gold
#                          (the paper's Table 4 analogue), results/metrics/consistency_dst.json
# Every command takes the whole `consistency` block of params.yaml (options()).
import os

CONS = config["consistency"]
CONS_OPTIONS = options("consistency")
CONS_DB = [raw(f"mwz21-db-{d}-db") for d in ("attraction", "hotel", "restaurant", "train")]
CONS_SCORES = [
    f"results/scores/consistency/{d['version']}/{d['split']}{ext}"
    for d in DATASETS.values()
    for ext in (".parquet", ".units.parquet")
]
CONS_TABLES = ["table1", "table6", "provenance", "reference", "table3"]


rule correct:
    input:
        dialogues="data/interim/{version}/{split}/dialogues.parquet",
        turns="data/interim/{version}/{split}/turns.parquet",
        states="data/interim/{version}/{split}/states.parquet",
        raw=lambda w: "data/raw/{}".format(DATASETS[f"{w.version}-{w.split}"]["raw"]),
        db=CONS_DB,
        ontology=raw("mwz21-ontology"),
        code=code("correct"),
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
        options=CONS_OPTIONS,
        db_dir=lambda w, input: os.path.dirname(input.db[0]),
    shell:
        "mwzrepro correct --dialogues {input.dialogues} --turns {input.turns}"
        " --states {input.states} --raw {input.raw} --db-dir {params.db_dir}"
        " --ontology {input.ontology} --version {wildcards.version} --split {wildcards.split}"
        " {params.options} --out {output.states} --changes {output.changes}"
        " --export {output.export} --counts {output.counts} --units {output.units} --log {log}"


rule tables_consistency:
    input:
        scores=CONS_SCORES,
        published="workflow/resources/published/qian2021.yaml",
        code=code("tables-consistency"),
    output:
        tables=[
            f"results/tables/consistency_{t}{e}"
            for t in CONS_TABLES
            for e in (".md", ".csv", ".tex")
        ],
        metrics="results/metrics/consistency.json",
        record="results/records/consistency.json",
    log:
        "logs/tables-consistency.log",
    conda:
        ENV
    params:
        options=CONS_OPTIONS,
    shell:
        "mwzrepro tables-consistency --scores-dir results/scores/consistency"
        " --published {input.published} {params.options}"
        " --tables-dir results/tables --metrics {output.metrics}"
        " --record {output.record} --log {log}"


rule consistency_sample:
    input:
        scores=CONS_SCORES,
        code=code("consistency-sample"),
    output:
        "results/tables/consistency_verification_sample.csv",
    log:
        "logs/consistency-sample.log",
    conda:
        ENV
    params:
        options=CONS_OPTIONS,
    shell:
        "mwzrepro consistency-sample --scores-dir results/scores/consistency"
        " {params.options} --out {output} --log {log}"


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
        code=code("tables-consistency-dst"),
    output:
        table=multiext("results/tables/consistency_dst", ".md", ".csv", ".tex"),
        metrics="results/metrics/consistency_dst.json",
        record="results/records/consistency_dst.json",
    log:
        "logs/tables-consistency-dst.log",
    conda:
        ENV
    params:
        options=CONS_OPTIONS,
        dst=options("dst"),
    shell:
        "mwzrepro tables-consistency-dst --predictions-dir data/interim/predictions"
        " --states {input.states} --corrected {input.corrected}"
        " --dialogues {input.dialogues} {params.options} {params.dst}"
        " --published {input.published}"
        " --table results/tables/consistency_dst --metrics {output.metrics}"
        " --record {output.record} --log {log}"


ALL_TARGETS.extend(rules.tables_consistency.output)
# The verification sample draws from `consistency.verification_sample.splits` of its version;
# a reduced params.yaml without any of those datasets leaves it out.
_SAMPLE = VALUES["consistency"]["verification_sample"]
if any(
    f"{_SAMPLE['version']}-{s}" in {f"{d['version']}-{d['split']}" for d in DATASETS.values()}
    for s in _SAMPLE["splits"].split("|")
):
    ALL_TARGETS.extend(rules.consistency_sample.output)
ALL_TARGETS.extend(rules.tables_consistency_dst.output)

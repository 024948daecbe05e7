# Rules of the unseen-entity and entity-bias area (spec-unseen-entity-test-set).
#   sgd-pools    SGD schema + dialogue files (data/raw/sgd) -> data/interim/sgd/pool.parquet
#   unseen       per base version: test split + pools + MultiWOZ seen material
#                -> data/interim/{version}/test_unseen/*.parquet, test-unseen.json,
#                   results/metrics/unseen_{version}.json (validation report)
#   bias         per (version, split) of bias.sources -> results/scores/bias/...
#   tables-bias  paper Table 2 shape, results/metrics/bias.json, plot CSV + SVG
# sgd-pools and unseen take the `unseen` block, bias and tables-bias the `bias` block
# (options(); the structural keys unseen.bases and bias.sources shape the jobs instead).
UNSEEN = config["unseen"]
BIAS = config["bias"]
UNSEEN_OPTIONS = options("unseen", exclude=("bases",))
BIAS_OPTIONS = options("bias", exclude=("sources",))
# Every SGD file downloaded under data/raw/sgd/; the command keeps the splits of
# unseen.sgd_splits.
SGD_FILES = sorted(
    raw(s) for s, e in SOURCES.items() if e.get("role") in ("sgd-schema", "sgd-dialogues")
)
MWZ_DBS = sorted(raw(s) for s in SOURCES if s.startswith("multiwoz-db-"))
BIAS_KEYS = [f"{s['version']}_{s['split']}" for s in BIAS["sources"]]
BIAS_SCORES = [
    f"results/scores/bias/{s['version']}/{s['split']}{ext}"
    for s in BIAS["sources"]
    for ext in (".parquet", ".values.parquet")
]


# data/interim/{version}/test_unseen/ is made by `unseen`, not by `ingest`.
ruleorder: unseen > ingest


rule sgd_pools:
    input:
        sgd=SGD_FILES,
        registry=ancient(REGISTRY),
        code=code("sgd-pools"),
    output:
        pool="data/interim/sgd/pool.parquet",
        report="data/interim/sgd/pool.json",
    log:
        "logs/sgd-pools.log",
    conda:
        ENV
    params:
        options=UNSEEN_OPTIONS,
    shell:
        "mwzrepro sgd-pools --sgd-dir data/raw/sgd --sources {input.registry}"
        " {params.options} --out {output.pool} --report {output.report} --log {log}"


rule unseen:
    input:
        base=lambda w: f"data/raw/{UNSEEN['bases'][w.version]}",
        pool="data/interim/sgd/pool.parquet",
        dbs=MWZ_DBS,
        ontology=raw("mwz21-ontology"),
        schema22=raw("multiwoz-schema"),
        code=code("unseen"),
    output:
        expand(
            "data/interim/{{version}}/test_unseen/{table}.parquet",
            table=CANONICAL + ["pool", "mapping", "leaks"],
        ),
        export="data/interim/{version}/test_unseen/test-unseen.json",
        report="results/records/unseen_{version}.json",
        metrics="results/metrics/unseen_{version}.json",
    log:
        "logs/unseen/{version}.log",
    conda:
        ENV
    params:
        dbs=" ".join(f"--database {p}" for p in MWZ_DBS),
        options=UNSEEN_OPTIONS,
    shell:
        "mwzrepro unseen --base {input.base} --version {wildcards.version}"
        " --base-label {wildcards.version}-test --split test --sgd-pool {input.pool}"
        " {params.dbs} --ontology {input.ontology} --schema22 {input.schema22}"
        " {params.options}"
        " --out-dir data/interim/{wildcards.version}/test_unseen --export {output.export}"
        " --report {output.report} --metrics {output.metrics} --log {log}"


rule bias:
    input:
        states="data/interim/{version}/{split}/states.parquet",
        code=code("bias"),
    output:
        scores="results/scores/bias/{version}/{split}.parquet",
        values="results/scores/bias/{version}/{split}.values.parquet",
    log:
        "logs/bias/{version}-{split}.log",
    conda:
        ENV
    params:
        options=BIAS_OPTIONS,
    shell:
        "mwzrepro bias --states {input.states} --version {wildcards.version}"
        " --split {wildcards.split} {params.options} --out {output.scores}"
        " --out-values {output.values} --log {log}"


rule tables_bias:
    input:
        scores=BIAS_SCORES,
        code=code("tables-bias"),
    output:
        table=multiext("results/tables/entity_bias", ".md", ".csv", ".tex"),
        splits=multiext("results/tables/entity_bias_splits", ".md", ".csv", ".tex"),
        per_split=[
            f"results/tables/entity_bias_{k}{ext}"
            for k in BIAS_KEYS
            for ext in (".md", ".csv", ".tex")
        ],
        metrics="results/metrics/bias.json",
        record="results/records/bias.json",
        plot="results/plots/entity_bias_values.csv",
        image=report_svg("results/plots/entity_bias_values.svg", "entity_bias_values.rst"),
    log:
        "logs/tables-bias.log",
    conda:
        ENV
    params:
        options=BIAS_OPTIONS,
    shell:
        "mwzrepro tables-bias --scores-dir results/scores/bias {params.options}"
        " --table results/tables/entity_bias --metrics {output.metrics} --record {output.record}"
        " --plot {output.plot} --plot-image {output.image} --log {log}"


ALL_TARGETS.extend(rules.tables_bias.output)
ALL_TARGETS.extend(expand(rules.unseen.output, version=list(UNSEEN["bases"])))

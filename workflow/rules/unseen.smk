# Rules of the unseen-entity and entity-bias area (spec-unseen-entity-test-set; see dvc.yaml
# for the mirrored stages).
#   sgd-pools    SGD schema + dialogue files (data/raw/sgd) -> data/interim/sgd/pool.parquet
#   unseen       per base version: test split + pools + MultiWOZ seen material
#                -> data/interim/{version}/test_unseen/*.parquet, test-unseen.json,
#                   results/metrics/unseen_{version}.json (validation report)
#   bias         per (version, split) of bias.sources -> results/scores/bias/...
#   tables-bias  paper Table 2 shape, results/metrics/bias.json, plot CSV + SVG
UNSEEN = config["unseen"]
BIAS = config["bias"]
# Every SGD file downloaded under data/raw/sgd/ (DVC: the directory); the command itself keeps
# the splits of unseen.sgd_splits.
SGD_FILES = sorted(
    raw(s) for s, e in SOURCES.items() if e.get("role") in ("sgd-schema", "sgd-dialogues")
)
MWZ_DBS = sorted(raw(s) for s in SOURCES if s.startswith("multiwoz-db-"))
UNSEEN_CODE = (
    "unseen/__init__.py",
    "unseen/text.py",
    "unseen/families.py",
    "unseen/seen.py",
    "unseen/entities.py",
    "unseen/mentions.py",
    "unseen/testset.py",
    "unseen/validate.py",
    "unseen/build.py",
    "prepare/ingest/__init__.py",
    "prepare/ingest/convlab.py",
    "core/signature.py",
    "cli/unseen.py",
)
BIAS_CODE = ("unseen/bias.py", "core/signature.py", "cli/unseen.py")
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
        code=code(
            "unseen/__init__.py",
            "unseen/sgd_pools.py",
            "unseen/families.py",
            "unseen/text.py",
            "core/signature.py",
            "cli/unseen.py",
        ),
    output:
        pool="data/interim/sgd/pool.parquet",
        report="data/interim/sgd/pool.json",
    log:
        "logs/sgd-pools.log",
    conda:
        ENV
    params:
        splits=UNSEEN["sgd_splits"],
        families=UNSEEN["pool_families"],
        stations=UNSEEN["city_pool_include_stations"],
        max_tokens=UNSEEN["max_tokens"],
        nicknames=UNSEEN["city_nicknames"],
        food=UNSEEN["food_pool_exclude"],
    shell:
        "mwzrepro sgd-pools --sgd-dir data/raw/sgd --sources {input.registry}"
        " --sgd-splits {params.splits}"
        " --families {params.families} --city-pool-include-stations {params.stations}"
        " --max-tokens {params.max_tokens} --city-nicknames '{params.nicknames}'"
        " --food-pool-exclude '{params.food}' --out {output.pool} --report {output.report}"
        " --log {log}"


rule unseen:
    input:
        base=lambda w: f"data/raw/{UNSEEN['bases'][w.version]}",
        pool="data/interim/sgd/pool.parquet",
        dbs=MWZ_DBS,
        ontology=raw("mwz21-ontology"),
        schema22=raw("multiwoz-schema"),
        code=code(*UNSEEN_CODE),
    output:
        expand(
            "data/interim/{{version}}/test_unseen/{table}.parquet",
            table=CANONICAL + ["pool", "mapping", "leaks"],
        ),
        export="data/interim/{version}/test_unseen/test-unseen.json",
        report="results/metrics/unseen_{version}.json",
    log:
        "logs/unseen/{version}.log",
    conda:
        ENV
    params:
        dbs=" ".join(f"--database {p}" for p in MWZ_DBS),
        train=UNSEEN["train"],
        families=UNSEEN["replaced_families"],
        atype=UNSEEN["replace_attraction_type"],
        containment=UNSEEN["unseen_containment"],
        text=UNSEEN["unseen_check_training_text"],
        unannotated=UNSEEN["replace_unannotated_mentions"],
        fuzzy=UNSEEN["entity_fuzzy_threshold"],
        seed=UNSEEN["seed"],
        scope=UNSEEN["mapping_scope"],
        category=UNSEEN["attraction_category_match"],
        replace_scope=UNSEEN["replace_scope"],
        tokenisation=UNSEEN["match_tokenisation"],
        single=UNSEEN["text_match_single_token_fallback"],
        exclude=UNSEEN["unannotated_exclude"],
    shell:
        "mwzrepro unseen --base {input.base} --version {wildcards.version}"
        " --base-label {wildcards.version}-test --split test --sgd-pool {input.pool}"
        " {params.dbs} --ontology {input.ontology} --schema22 {input.schema22}"
        " --train '{params.train}' --families {params.families}"
        " --replace-attraction-type {params.atype} --unseen-containment {params.containment}"
        " --unseen-check-training-text {params.text}"
        " --replace-unannotated-mentions {params.unannotated}"
        " --entity-fuzzy-threshold {params.fuzzy} --seed {params.seed}"
        " --mapping-scope {params.scope} --attraction-category-match {params.category}"
        " --replace-scope {params.replace_scope} --match-tokenisation {params.tokenisation}"
        " --text-match-single-token-fallback {params.single}"
        " --unannotated-exclude '{params.exclude}'"
        " --out-dir data/interim/{wildcards.version}/test_unseen --export {output.export}"
        " --report {output.report} --log {log}"


rule bias:
    input:
        states="data/interim/{version}/{split}/states.parquet",
        code=code(*BIAS_CODE),
    output:
        scores="results/scores/bias/{version}/{split}.parquet",
        values="results/scores/bias/{version}/{split}.values.parquet",
    log:
        "logs/bias/{version}-{split}.log",
    conda:
        ENV
    params:
        unit=BIAS["bias_count_unit"],
    shell:
        "mwzrepro bias --states {input.states} --version {wildcards.version}"
        " --split {wildcards.split} --count-unit {params.unit} --out {output.scores}"
        " --out-values {output.values} --log {log}"


rule tables_bias:
    input:
        scores=BIAS_SCORES,
        code=code(*BIAS_CODE, "unseen/bias_plot.py", "core/plots.py", "core/tables.py"),
    output:
        table=multiext("results/tables/entity_bias", ".md", ".csv", ".tex"),
        splits=multiext("results/tables/entity_bias_splits", ".md", ".csv", ".tex"),
        per_split=[
            f"results/tables/entity_bias_{k}{ext}"
            for k in BIAS_KEYS
            for ext in (".md", ".csv", ".tex")
        ],
        metrics="results/metrics/bias.json",
        plot="results/plots/entity_bias_values.csv",
        image="results/plots/entity_bias_values.svg",
    log:
        "logs/tables-bias.log",
    conda:
        ENV
    params:
        split=BIAS["bias_split"],
        versions=BIAS["versions"],
        source=BIAS["plot_source"],
        slots=BIAS["plot_slots"],
        values=BIAS["plot_values"],
    shell:
        "mwzrepro tables-bias --scores-dir results/scores/bias --bias-split {params.split}"
        " --versions {params.versions} --table results/tables/entity_bias"
        " --metrics {output.metrics} --plot {output.plot} --plot-image {output.image}"
        " --plot-source {params.source} --plot-slots {params.slots}"
        " --plot-values {params.values} --log {log}"


ALL_TARGETS.extend(rules.tables_bias.output)
ALL_TARGETS.extend(expand(rules.unseen.output, version=list(UNSEEN["bases"])))

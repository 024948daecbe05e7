# ingest -> redelex per (version, split) of `datasets`; predictions: every system in one job.
DATASETS = config["datasets"]
VERSIONS = config["versions"]
# The registry entry of each system of `systems`, the one of its predictions file ({} for an
# unregistered system, whose file no job downloads).
_ENTRY_OF_PATH = {e["path"]: e for e in SOURCES.values()}
SYSTEM_ENTRY = {
    s: _ENTRY_OF_PATH.get(f"mwzeval/predictions/{s}.json", {}) for s in config["systems"]
}
# Systems of the `lexicalized` kind (`form: lexicalized` in their registry entry, written by the
# add-system command) are text with values, not placeholders: only tables-grounded scores
# them; every other step reads SYSTEMS, the delexicalized ones.
LEXICALIZED = [s for s, e in SYSTEM_ENTRY.items() if e.get("form") == "lexicalized"]
SYSTEMS = [s for s in config["systems"] if s not in LEXICALIZED]
PREDICTIONS = config["predictions"]["test_version"]
# The systems of a multi-system scoring job (each writes one file per system).
SYSTEM_OPTIONS = " ".join(f"--system {s}" for s in SYSTEMS)
CANONICAL = ["dialogues", "turns", "spans", "acts", "states", "booked", "goals"]


rule ingest:
    input:
        raw=lambda w: "data/raw/{}".format(DATASETS[f"{w.version}-{w.split}"]["raw"]),
        registry=ancient(REGISTRY),
        code=code("ingest"),
    output:
        expand("data/interim/{{version}}/{{split}}/{table}.parquet", table=CANONICAL),
    log:
        "logs/ingest/{version}-{split}.log",
    wildcard_constraints:
        split="test|val|train",
    conda:
        ENV
    shell:
        "mwzrepro ingest --format convlab --input {input.raw} --sources {input.registry}"
        " --split {wildcards.split} --out-dir data/interim/{wildcards.version}/{wildcards.split}"
        " --log {log}"


rule redelex:
    input:
        turns="data/interim/{version}/{split}/turns.parquet",
        spans="data/interim/{version}/{split}/spans.parquet",
        code=code("redelex"),
    output:
        "data/interim/{version}/{split}/references.parquet",
    log:
        "logs/redelex/{version}-{split}.log",
    conda:
        ENV
    shell:
        "mwzrepro redelex --turns {input.turns} --spans {input.spans} --out {output} --log {log}"


PREDICTION_REGISTRIES = registries([SYSTEM_ENTRY[s] for s in SYSTEMS if SYSTEM_ENTRY[s]])


rule predictions:
    input:
        raw=expand("data/raw/mwzeval/predictions/{system}.json", system=SYSTEMS),
        registry=ancient(PREDICTION_REGISTRIES),
        turns=f"data/interim/{PREDICTIONS}/test/turns.parquet",
        code=code("predictions"),
    output:
        predictions=expand("data/interim/predictions/{system}.parquet", system=SYSTEMS),
        coverage=expand("data/interim/predictions/{system}.coverage.parquet", system=SYSTEMS),
    log:
        "logs/predictions.log",
    conda:
        ENV
    params:
        inputs=lambda w, input: " ".join(f"--input {p}" for p in input.raw),
        sources=sources_args(PREDICTION_REGISTRIES),
        # standard.placeholders: the placeholder vocabulary of the response normalization
        options=options("standard", exclude=("domain_sources", "state_match_threshold")),
    shell:
        "mwzrepro predictions {params.inputs} {params.sources}"
        " --turns {input.turns} {params.options} --out-dir data/interim/predictions --log {log}"


# Every dataset in params.yaml is a final target (as for `dvc repro`), needed downstream or not.
ALL_TARGETS.extend(
    f"data/interim/{d['version']}/{d['split']}/references.parquet" for d in DATASETS.values()
)

# ingest -> redelex -> predictions: canonical Parquet tables per (version, split) and per system.
DATASETS = config["datasets"]
VERSIONS = config["versions"]
SYSTEMS = config["systems"]
CANONICAL = ["dialogues", "turns", "spans", "acts", "states", "booked", "goals"]


rule ingest:
    input:
        raw=lambda w: "data/raw/{}".format(DATASETS[f"{w.version}-{w.split}"]["raw"]),
        registry=ancient(REGISTRY),
        code=code("prepare/ingest/__init__.py", "prepare/ingest/convlab.py", "core/sources.py", "cli/prepare.py"),
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
        code=code("prepare/delex/span.py", "core/normalize.py", "cli/prepare.py"),
    output:
        "data/interim/{version}/{split}/references.parquet",
    log:
        "logs/redelex/{version}-{split}.log",
    conda:
        ENV
    shell:
        "mwzrepro redelex --turns {input.turns} --spans {input.spans} --out {output} --log {log}"


rule predictions:
    input:
        raw="data/raw/mwzeval/predictions/{system}.json",
        registry=ancient(REGISTRY),
        turns=f"data/interim/{config['predictions']['test_version']}/test/turns.parquet",
        code=code("prepare/predictions.py", "core/normalize.py", "core/sources.py", "cli/prepare.py"),
    output:
        predictions="data/interim/predictions/{system}.parquet",
        coverage="data/interim/predictions/{system}.coverage.parquet",
    log:
        "logs/predictions/{system}.log",
    conda:
        ENV
    shell:
        "mwzrepro predictions --input {input.raw} --sources {input.registry}"
        " --turns {input.turns} --out {output.predictions} --coverage {output.coverage}"
        " --log {log}"


# Every dataset in params.yaml is a final target (as for `dvc repro`), needed downstream or not.
ALL_TARGETS.extend(
    f"data/interim/{d['version']}/{d['split']}/references.parquet" for d in DATASETS.values()
)

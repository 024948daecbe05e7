# Rules of the dst area: JGA, SA, AGA, FGA and fuzzy JGA (spec-dst-metrics).
#   score-dst         per gold version: every system in one process (one pair of files each)
#   score-dst-flags   TripPy's released per-slot flags
#   score-dst-human   the FGA release's 100 human-evaluation logs (SOM-DST sample)
#   tables-dst        the FGA paper's Table 1 shape, plot and metrics
#   tables-dst-conventions  every DST scoring preset, and the ladder from fga to mwzeval
# Every command takes the whole `dst` block of params.yaml (options()).
import os

DST = config["dst"]
DST_OPTIONS = options("dst")
DST_HUMAN_LOGS = sorted(raw(s) for s, e in SOURCES.items() if e.get("role") == "dst-human-eval")
# The TripPy flag file and the 100-dialogue SOM-DST sample are scored once, not per system.
DST_RELEASED = ["trippy", "som-dst-sample"]


rule score_dst:
    input:
        predictions=expand("data/interim/predictions/{system}.parquet", system=SYSTEMS),
        states="data/interim/{version}/test/states.parquet",
        dialogues="data/interim/{version}/test/dialogues.parquet",
        code=code("score-dst"),
    output:
        json=expand("results/scores/dst/{{version}}/{system}.json", system=SYSTEMS),
        turns=expand("results/scores/dst/{{version}}/{system}.parquet", system=SYSTEMS),
    log:
        "logs/score-dst/{version}.log",
    conda:
        ENV
    params:
        systems=SYSTEM_OPTIONS,
        options=DST_OPTIONS,
    shell:
        "mwzrepro score-dst {params.systems} --predictions-dir data/interim/predictions"
        " --states {input.states} --dialogues {input.dialogues}"
        " --version {wildcards.version} {params.options}"
        " --out-dir results/scores/dst/{wildcards.version} --log {log}"


rule score_dst_flags:
    input:
        flags=raw("fga-trippy-trippy-result"),
        registry=ancient(REGISTRY),
        states=f"data/interim/{DST['flags_version']}/test/states.parquet",
        dialogues=f"data/interim/{DST['flags_version']}/test/dialogues.parquet",
        code=code("score-dst-flags"),
    output:
        json="results/scores/dst/released/trippy.json",
        turns="results/scores/dst/released/trippy.parquet",
    log:
        "logs/score-dst-flags/trippy.log",
    conda:
        ENV
    params:
        options=DST_OPTIONS,
        version=DST["flags_version"],
    shell:
        "mwzrepro score-dst-flags --flags {input.flags} --sources {input.registry}"
        " --states {input.states} --dialogues {input.dialogues} --system trippy"
        " --label TripPy --version {params.version} {params.options}"
        " --out {output.json} --out-turns {output.turns} --log {log}"


rule score_dst_human:
    input:
        logs=DST_HUMAN_LOGS,
        registry=ancient(REGISTRY),
        code=code("score-dst-human"),
    output:
        json="results/scores/dst/released/som-dst-sample.json",
        turns="results/scores/dst/released/som-dst-sample.parquet",
    log:
        "logs/score-dst-human/som-dst-sample.log",
    conda:
        ENV
    params:
        options=DST_OPTIONS,
        version=param("dst.human_version"),
        logs_dir=lambda w, input: os.path.dirname(input.logs[0]),
    shell:
        "mwzrepro score-dst-human --logs-dir {params.logs_dir} --sources {input.registry}"
        " --system som-dst-sample --label 'SOM-DST (100-dialogue sample)'"
        " --version {params.version} {params.options}"
        " --out {output.json} --out-turns {output.turns} --log {log}"


rule tables_dst:
    input:
        scores=expand(
            "results/scores/dst/{version}/{system}.{ext}",
            version=VERSIONS,
            system=SYSTEMS,
            ext=["json", "parquet"],
        ),
        released=expand(
            "results/scores/dst/released/{name}.{ext}", name=DST_RELEASED, ext=["json", "parquet"]
        ),
        code=code("tables-dst"),
    output:
        table=multiext("results/tables/dst", ".md", ".csv", ".tex"),
        fuzzy=multiext("results/tables/dst_fuzzy", ".md", ".csv", ".tex"),
        metrics="results/metrics/dst.json",
        record="results/records/dst.json",
        plot="results/plots/dst_fga_lambda.csv",
        image=report_svg("results/plots/dst_fga_lambda.svg", "dst_fga_lambda.rst"),
    log:
        "logs/tables-dst.log",
    conda:
        ENV
    params:
        options=DST_OPTIONS,
    shell:
        "mwzrepro tables-dst --scores-dir results/scores/dst --table results/tables/dst"
        " --fuzzy-table results/tables/dst_fuzzy --metrics {output.metrics}"
        " --record {output.record}"
        " --plot {output.plot} --plot-image {output.image} {params.options} --log {log}"


ALL_TARGETS.extend(rules.tables_dst.output)


rule tables_dst_conventions:
    input:
        predictions=expand("data/interim/predictions/{system}.parquet", system=SYSTEMS),
        states=expand("data/interim/{version}/test/states.parquet", version=VERSIONS),
        dialogues=expand("data/interim/{version}/test/dialogues.parquet", version=VERSIONS),
        code=code("tables-dst-conventions"),
    output:
        ladder=multiext("results/tables/dst_conventions", ".md", ".csv", ".tex"),
        presets=multiext("results/tables/dst_presets", ".md", ".csv", ".tex"),
        metrics="results/metrics/dst_conventions.json",
        record="results/records/dst_conventions.json",
    log:
        "logs/tables-dst-conventions.log",
    conda:
        ENV
    params:
        gold=" ".join(
            f"--gold {v} data/interim/{v}/test/states.parquet"
            f" data/interim/{v}/test/dialogues.parquet"
            for v in VERSIONS
        ),
    shell:
        "mwzrepro tables-dst-conventions --predictions-dir data/interim/predictions"
        " {params.gold} --ladder-table results/tables/dst_conventions"
        " --presets-table results/tables/dst_presets --metrics {output.metrics}"
        " --record {output.record} --log {log}"


ALL_TARGETS.extend(rules.tables_dst_conventions.output)

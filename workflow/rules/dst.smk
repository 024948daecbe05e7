# Rules of the dst area (see dvc.yaml for the mirrored stages): JGA, SA, AGA, FGA and fuzzy
# JGA (spec-dst-metrics). score-dst: one job per (gold version, system); score-dst-flags:
# TripPy's released per-slot flags; score-dst-human: the FGA release's 100 human-evaluation
# logs (SOM-DST sample); tables-dst: the FGA paper's Table 1 shape, plot and metrics.
import os
import re

DST = config["dst"]
DST_CODE = ("dst/metrics.py", "dst/inputs.py", "core/signature.py", "cli/dst.py")
DST_HUMAN_LOGS = sorted(raw(s) for s, e in SOURCES.items() if e.get("role") == "dst-human-eval")
# The TripPy flag file and the 100-dialogue SOM-DST sample are scored once, not per system.
DST_RELEASED = ["trippy", "som-dst-sample"]


# Options shared by every score-dst* command (all from params.yaml, block `dst`).
DST_ARGS = (
    f"--lambdas '{DST['lambdas']}' --forget '{DST['forget']}'"
    f" --fga-variant {DST['fga_variant']} --matcher {DST['matcher']}"
    f" --fuzzy-matcher {DST['fuzzy_matcher']} --fuzzy-threshold {DST['fuzzy_threshold']}"
    f" --label-normalization {DST['label_normalization']}"
    f" --excluded-dialogues '{DST['excluded_dialogues']}'"
)


rule score_dst:
    input:
        predictions="data/interim/predictions/{system}.parquet",
        states="data/interim/{version}/test/states.parquet",
        dialogues="data/interim/{version}/test/dialogues.parquet",
        code=code(*DST_CODE),
    output:
        json="results/scores/dst/{version}/{system}.json",
        turns="results/scores/dst/{version}/{system}.parquet",
    log:
        "logs/score-dst/{version}-{system}.log",
    wildcard_constraints:
        system="|".join(re.escape(s) for s in SYSTEMS),
    conda:
        ENV
    params:
        common=DST_ARGS,
        missing=DST["missing"],
        unknown_slots=DST["unknown_slots"],
    shell:
        "mwzrepro score-dst --predictions {input.predictions} --states {input.states}"
        " --dialogues {input.dialogues} --system {wildcards.system}"
        " --version {wildcards.version} --missing {params.missing}"
        " --unknown-slots {params.unknown_slots} {params.common}"
        " --out {output.json} --out-turns {output.turns} --log {log}"


rule score_dst_flags:
    input:
        flags=raw("fga-trippy-trippy-result"),
        registry=ancient(REGISTRY),
        states=f"data/interim/{DST['flags_version']}/test/states.parquet",
        dialogues=f"data/interim/{DST['flags_version']}/test/dialogues.parquet",
        code=code(*DST_CODE, "core/sources.py", "cli/prepare.py"),
    output:
        json="results/scores/dst/released/trippy.json",
        turns="results/scores/dst/released/trippy.parquet",
    log:
        "logs/score-dst-flags/trippy.log",
    conda:
        ENV
    params:
        common=DST_ARGS,
        version=DST["flags_version"],
    shell:
        "mwzrepro score-dst-flags --flags {input.flags} --sources {input.registry}"
        " --states {input.states} --dialogues {input.dialogues} --system trippy"
        " --label TripPy --version {params.version} {params.common}"
        " --out {output.json} --out-turns {output.turns} --log {log}"


rule score_dst_human:
    input:
        logs=DST_HUMAN_LOGS,
        registry=ancient(REGISTRY),
        code=code(*DST_CODE, "core/sources.py", "cli/prepare.py"),
    output:
        json="results/scores/dst/released/som-dst-sample.json",
        turns="results/scores/dst/released/som-dst-sample.parquet",
    log:
        "logs/score-dst-human/som-dst-sample.log",
    conda:
        ENV
    params:
        common=DST_ARGS,
        version=DST["human_version"],
        logs_dir=lambda w, input: os.path.dirname(input.logs[0]),
    shell:
        "mwzrepro score-dst-human --logs-dir {params.logs_dir} --sources {input.registry}"
        " --system som-dst-sample --label 'SOM-DST (100-dialogue sample)'"
        " --version {params.version} {params.common}"
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
        code=code("core/tables.py", "core/plots.py", "dst/metrics.py", "core/signature.py", "cli/dst.py"),
    output:
        table=multiext("results/tables/dst", ".md", ".csv", ".tex"),
        fuzzy=multiext("results/tables/dst_fuzzy", ".md", ".csv", ".tex"),
        metrics="results/metrics/dst.json",
        plot="results/plots/dst_fga_lambda.csv",
        image="results/plots/dst_fga_lambda.svg",
    log:
        "logs/tables-dst.log",
    conda:
        ENV
    params:
        lambda_max=DST["plot_lambda_max"],
        lambda_step=DST["plot_lambda_step"],
    shell:
        "mwzrepro tables-dst --scores-dir results/scores/dst --table results/tables/dst"
        " --fuzzy-table results/tables/dst_fuzzy --metrics {output.metrics}"
        " --plot {output.plot} --plot-image {output.image}"
        " --plot-lambda-max {params.lambda_max} --plot-lambda-step {params.lambda_step}"
        " --log {log}"


ALL_TARGETS.extend(rules.tables_dst.output)

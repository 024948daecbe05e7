# Rules of the stats area: seeded paired bootstrap confidence intervals and significance per
# version (stats-resample per metric family, stats-bootstrap assembling them; each job covers
# every version), ranking stability across conditions (stats-ranking). The figures
# and ranked metrics come from the library's catalog (mwzrepro.stats.catalog).
from mwzrepro.stats.catalog import METRICS, RANKED_METRICS

STATS_RANKED = list(RANKED_METRICS)
# The reference styles' BLEU (Table 4) is a ranking condition where the workflow builds it.
STATS_STYLES = [rules.tables_bleu_styles.output.record] if BLEU_STYLE_TABLES else []


# One resampling job per metric family, one rule per family (their inputs differ): an
# Inform/Success change reruns stats_resample_success and the assembly only
# (mwzrepro.stats.family). Each job resamples every version in one process (one start-up,
# one pool of workers drawing every heat map); per-version options come once per --version.
STATS_FAMILIES = list(dict.fromkeys(m.source for m in METRICS))
STATS_FAMILY_INPUTS = {
    "bleu": [
        *expand("data/interim/predictions/{system}.parquet", system=SYSTEMS),
        *expand("results/scores/bleu/{version}/{system}.parquet", version=VERSIONS, system=SYSTEMS),
    ],
    "success": expand(
        "results/scores/success/{version}/{system}.dialogues.parquet",
        version=VERSIONS,
        system=SYSTEMS,
    ),
    "dst": expand(
        "results/scores/dst/{version}/{system}.parquet", version=VERSIONS, system=SYSTEMS
    ),
}
STATS_FAMILY_DIRS = {
    "bleu": "--predictions-dir data/interim/predictions "
    + " ".join(f"--bleu-dir results/scores/bleu/{v}" for v in VERSIONS),
    "success": " ".join(f"--success-dir results/scores/success/{v}" for v in VERSIONS),
    "dst": " ".join(f"--dst-dir results/scores/dst/{v}" for v in VERSIONS),
}
STATS_SYSTEMS = " ".join(f"--system {s}" for s in sorted(SYSTEMS))
STATS_VERSIONS = " ".join(f"--version {v}" for v in VERSIONS)
STATS_REFERENCES = expand("data/interim/{version}/test/references.parquet", version=VERSIONS)
# Each family's job also writes its figures' pairwise significance tables and heat maps.
STATS_FAMILY_FIGURES = {f: [m.key for m in METRICS if m.source == f] for f in STATS_FAMILIES}

for _family in STATS_FAMILIES:

    rule:
        name:
            f"stats_resample_{_family}"
        input:
            references=STATS_REFERENCES,
            scores=STATS_FAMILY_INPUTS[_family],
            code=code("stats-resample"),
        output:
            replicates=expand(f"data/interim/stats/{{version}}/{_family}.parquet", version=VERSIONS),
            sig=expand(
                "results/tables/stats_significance_{version}_{f}{e}",
                version=VERSIONS,
                f=STATS_FAMILY_FIGURES[_family],
                e=[".md", ".csv", ".tex"],
            ),
            heatmaps=[
                report_svg(p, "stats_significance.rst")
                for p in expand(
                    "results/plots/stats_significance_{version}_{f}.svg",
                    version=VERSIONS,
                    f=STATS_FAMILY_FIGURES[_family],
                )
            ],
        log:
            f"logs/stats-resample/{_family}.log",
        conda:
            ENV
        # The shell command is evaluated when the job runs (after the loop): everything that
        # depends on the family goes through params, evaluated here.
        params:
            family=_family,
            dirs=STATS_FAMILY_DIRS[_family],
            systems=STATS_SYSTEMS,
            versions=STATS_VERSIONS,
            version_list=VERSIONS,  # for the heat maps' report caption
            references=" ".join(f"--references {p}" for p in STATS_REFERENCES),
            outs=" ".join(f"--out data/interim/stats/{v}/{_family}.parquet" for v in VERSIONS),
            args=options("stats"),
        shell:
            "mwzrepro stats-resample {params.versions} --family {params.family}"
            " {params.references} {params.systems} {params.dirs}"
            " {params.args} {params.outs} --tables-dir results/tables"
            " --plots-dir results/plots --log {log}"


# Every version's intervals in one job (one process start-up).
rule stats_bootstrap:
    input:
        replicates=expand(
            "data/interim/stats/{version}/{family}.parquet",
            version=VERSIONS,
            family=STATS_FAMILIES,
        ),
        code=code("stats-bootstrap"),
    output:
        ci=expand(
            "results/tables/stats_ci_{version}{e}", version=VERSIONS, e=[".md", ".csv", ".tex"]
        ),
        adjacent=expand(
            "results/tables/stats_adjacent_{version}{e}",
            version=VERSIONS,
            e=[".md", ".csv", ".tex"],
        ),
        pairs=expand("results/tables/stats_pairs_{version}.csv", version=VERSIONS),
        metrics=expand("results/metrics/stats_{version}.json", version=VERSIONS),
        record=expand("results/records/stats_{version}.json", version=VERSIONS),
    log:
        "logs/stats-bootstrap.log",
    conda:
        ENV
    params:
        args=options("stats"),
        versions=STATS_VERSIONS,
        replicates=lambda wildcards, input: " ".join(f"--replicates {p}" for p in input.replicates),
        metrics=lambda wildcards, output: " ".join(f"--metrics {p}" for p in output.metrics),
        record=lambda wildcards, output: " ".join(f"--record {p}" for p in output.record),
    shell:
        "mwzrepro stats-bootstrap {params.versions}"
        " {params.replicates} {params.args} --tables-dir results/tables"
        " {params.metrics} {params.record} --log {log}"


rule stats_ranking:
    input:
        stats=expand("results/records/stats_{version}.json", version=VERSIONS),
        consistency_dst="results/records/consistency_dst.json",
        published="workflow/resources/published/leaderboard.yaml",
        bleu_styles=STATS_STYLES,
        dst_presets="results/records/dst_conventions.json",
        code=code("stats-ranking"),
    output:
        table=multiext("results/tables/stats_ranking", ".md", ".csv", ".tex"),
        ranks=multiext("results/tables/stats_ranks", ".md", ".csv", ".tex"),
        bumps=[
            report_svg(p, "stats_bump.rst")
            for p in expand("results/plots/stats_bump_{m}.svg", m=STATS_RANKED)
        ],
        metrics="results/metrics/stats_ranking.json",
        record="results/records/stats_ranking.json",
    log:
        "logs/stats-ranking.log",
    conda:
        ENV
    params:
        args=options("stats"),
        stats=lambda wildcards, input: " ".join(f"--stats {p}" for p in input.stats),
        styles=" ".join(f"--bleu-styles {p}" for p in STATS_STYLES),
    shell:
        "mwzrepro stats-ranking {params.stats} --consistency-dst {input.consistency_dst}"
        " --published {input.published} {params.styles} {params.args}"
        " --dst-presets {input.dst_presets}"
        " --table results/tables/stats_ranking"
        " --ranks-table results/tables/stats_ranks --plots-dir results/plots"
        " --metrics {output.metrics} --record {output.record} --log {log}"


ALL_TARGETS.extend(
    expand(
        "results/{kind}/stats_{version}.json",
        kind=["metrics", "records"],
        version=VERSIONS,
    )
)
ALL_TARGETS.extend(rules.stats_ranking.output)

# Every per-version statistics output (report_flags.smk: the report's table pages).
STATS_VERSION_OUTPUTS = [
    *rules.stats_bootstrap.output,
    *[p for f in STATS_FAMILIES for p in getattr(rules, f"stats_resample_{f}").output],
]

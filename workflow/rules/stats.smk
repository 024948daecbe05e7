# Rules of the stats area: seeded paired bootstrap confidence intervals and significance per
# version (stats-bootstrap), ranking stability across conditions (stats-ranking). The figures
# and ranked metrics come from the library's catalog (mwzrepro.stats.catalog).
from mwzrepro.stats.catalog import METRICS, RANKED_METRICS

STATS_FIGURES = [m.key for m in METRICS]
STATS_RANKED = list(RANKED_METRICS)
# The reference styles' BLEU (Table 4) is a ranking condition where the workflow builds it.
STATS_STYLES = [rules.tables_bleu_styles.output.metrics] if BLEU_STYLE_TABLES else []


rule stats_bootstrap:
    input:
        references="data/interim/{version}/test/references.parquet",
        predictions=expand("data/interim/predictions/{system}.parquet", system=SYSTEMS),
        bleu=expand("results/scores/bleu/{{version}}/{system}.parquet", system=SYSTEMS),
        success=expand(
            "results/scores/success/{{version}}/{system}.dialogues.parquet", system=SYSTEMS
        ),
        dst=expand("results/scores/dst/{{version}}/{system}.parquet", system=SYSTEMS),
        code=code("stats-bootstrap"),
    output:
        ci=multiext("results/tables/stats_ci_{version}", ".md", ".csv", ".tex"),
        adjacent=multiext("results/tables/stats_adjacent_{version}", ".md", ".csv", ".tex"),
        pairs="results/tables/stats_pairs_{version}.csv",
        sig=expand(
            "results/tables/stats_significance_{{version}}_{f}{e}",
            f=STATS_FIGURES,
            e=[".md", ".csv", ".tex"],
        ),
        heatmaps=[
            report_svg(p, "stats_significance.rst")
            for p in expand(
                "results/plots/stats_significance_{{version}}_{f}.svg", f=STATS_FIGURES
            )
        ],
        metrics="results/metrics/stats_{version}.json",
    log:
        "logs/stats-bootstrap/{version}.log",
    conda:
        ENV
    params:
        args=options("stats"),
    shell:
        "mwzrepro stats-bootstrap --version {wildcards.version} --references {input.references}"
        " --predictions-dir data/interim/predictions"
        " --bleu-dir results/scores/bleu/{wildcards.version}"
        " --success-dir results/scores/success/{wildcards.version}"
        " --dst-dir results/scores/dst/{wildcards.version}"
        " {params.args} --tables-dir results/tables --plots-dir results/plots"
        " --metrics {output.metrics} --log {log}"


rule stats_ranking:
    input:
        stats=expand("results/metrics/stats_{version}.json", version=VERSIONS),
        consistency_dst="results/metrics/consistency_dst.json",
        published="workflow/resources/published/leaderboard.yaml",
        bleu_styles=STATS_STYLES,
        code=code("stats-ranking"),
    output:
        table=multiext("results/tables/stats_ranking", ".md", ".csv", ".tex"),
        ranks=multiext("results/tables/stats_ranks", ".md", ".csv", ".tex"),
        bumps=[
            report_svg(p, "stats_bump.rst")
            for p in expand("results/plots/stats_bump_{m}.svg", m=STATS_RANKED)
        ],
        metrics="results/metrics/stats_ranking.json",
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
        " --table results/tables/stats_ranking"
        " --ranks-table results/tables/stats_ranks --plots-dir results/plots"
        " --metrics {output.metrics} --log {log}"


ALL_TARGETS.extend(
    expand(
        "results/metrics/stats_{version}.json",
        version=VERSIONS,
    )
)
ALL_TARGETS.extend(rules.stats_ranking.output)

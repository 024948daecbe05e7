# tables-bleu: assemble the BLEU table, metrics JSON (in Git) and plot data.


rule tables_bleu:
    input:
        scores=expand(
            "results/scores/bleu/{version}/{system}.parquet", version=VERSIONS, system=SYSTEMS
        ),
        code=code("tables-bleu"),
    output:
        table=multiext("results/tables/bleu", ".md", ".csv", ".tex"),
        metrics="results/metrics/bleu.json",
        record="results/records/bleu.json",
        plot="results/plots/bleu.csv",
    log:
        "logs/tables-bleu.log",
    conda:
        ENV
    shell:
        "mwzrepro tables-bleu --scores-dir results/scores/bleu --table results/tables/bleu"
        " --metrics {output.metrics} --record {output.record} --plot {output.plot} --log {log}"


ALL_TARGETS.extend(rules.tables_bleu.output)

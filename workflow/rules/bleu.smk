# score-bleu: one job per reference version, every system in one process (one file each).


rule score_bleu:
    input:
        predictions=expand("data/interim/predictions/{system}.parquet", system=SYSTEMS),
        coverage=expand("data/interim/predictions/{system}.coverage.parquet", system=SYSTEMS),
        references="data/interim/{version}/test/references.parquet",
        code=code("score-bleu"),
    output:
        expand("results/scores/bleu/{{version}}/{system}.parquet", system=SYSTEMS),
    log:
        "logs/score-bleu/{version}.log",
    conda:
        ENV
    params:
        systems=SYSTEM_OPTIONS,
    shell:
        "mwzrepro score-bleu --references {input.references} --version {wildcards.version}"
        " {params.systems} --predictions-dir data/interim/predictions"
        " --out-dir results/scores/bleu/{wildcards.version} --log {log}"

# score-bleu: one job per (reference version, system).


rule score_bleu:
    input:
        predictions="data/interim/predictions/{system}.parquet",
        coverage="data/interim/predictions/{system}.coverage.parquet",
        references="data/interim/{version}/test/references.parquet",
        code=code("bleu/score.py", "core/signature.py", "cli/bleu.py"),
    output:
        "results/scores/bleu/{version}/{system}.parquet",
    log:
        "logs/score-bleu/{version}-{system}.log",
    conda:
        ENV
    shell:
        "mwzrepro score-bleu --predictions {input.predictions} --coverage {input.coverage}"
        " --references {input.references} --version {wildcards.version}"
        " --system {wildcards.system} --out {output} --log {log}"

# Rules of the remaining paper tables (spec-paper-tables):
#   redelex_style        test references in each published delexicalization style (Table 4)
#   score_bleu_styles    BLEU of the Table 4 systems against every style, one process
#   tables_bleu_styles   Table 4 next to the paper (with the "Reported" row), rankings, plot
#   tables_delex_example Table 2: one response under every style
#   tables_outputs       Tables 8 and 9: the systems' outputs side by side
#   tables_fga_stats     Dey et al. Table 2: conversations and turns per split
BLEU_STYLES = config["bleu_styles"]
# The Table 4 systems that params.yaml scores (a reduced `systems:` drops the others).
STYLE_SYSTEMS = [s for s in BLEU_STYLES["systems"].split(",") if s and s in SYSTEMS]
PUBLISHED_PAPER = "workflow/resources/published/nekvinda2021.yaml"


# The style's mapping.pair (only with bleu_styles.word_pairs; see params.yaml).
WORD_PAIRS = {
    style: [path] if BLEU_STYLES["word_pairs"] is True else []
    for style, path in (
        ("damd", "data/raw/damd/multi-woz/mapping.pair"),
        ("uniconv", "data/raw/uniconv/utils/mapping.pair"),
    )
}


# Where each style's references come from: the raw test file, databases and extra inputs.
STYLE_INPUTS = {
    "hdsa": {"hdsa": raw("hdsa-test-reference"), "turns": "data/interim/mwz20/test/turns.parquet"},
    "damd": {
        "dialogues": raw("mwz20-test"),
        "db": db_files("multiwoz"),
        "word_pairs": WORD_PAIRS["damd"],
    },
    "augpt": {
        "dialogues": raw("mwz21-test"),
        "extra_dialogues": raw("mwz21-val"),
        "db": db_files("mwz21"),
    },
    "uniconv": {
        "dialogues": raw("mwz21-test"),
        "db": db_files("multiwoz"),
        "word_pairs": WORD_PAIRS["uniconv"],
    },
}
# The references file of every Table 4 row (LAVA is scored against HDSA's references).
STYLE_REFERENCES = {
    "span": "data/interim/mwz21/test/references.parquet",
    "hdsa": "data/interim/mwz20/test/references_hdsa.parquet",
    "damd": "data/interim/mwz20/test/references_damd.parquet",
    "augpt": "data/interim/mwz21/test/references_augpt.parquet",
    "uniconv": "data/interim/mwz21/test/references_uniconv.parquet",
    "lava": "data/interim/mwz20/test/references_hdsa.parquet",
}
STYLE_ITEMS = ",".join(f"{s}={p}" for s, p in STYLE_REFERENCES.items())


# Each style's command-line inputs.
STYLE_ARGS = {
    "hdsa": f"--hdsa {STYLE_INPUTS['hdsa']['hdsa']} --turns {STYLE_INPUTS['hdsa']['turns']}"
}
for _style in ("damd", "augpt", "uniconv"):
    _i = STYLE_INPUTS[_style]
    STYLE_ARGS[_style] = " ".join(
        [f"--dialogues {_i['dialogues']}", f"--db-dir {os.path.dirname(_i['db'][0])}"]
        + ([f"--extra-dialogues {_i['extra_dialogues']}"] if "extra_dialogues" in _i else [])
        + [f"--word-pairs {p}" for p in _i.get("word_pairs", [])]
    )


# Scheduling: the style references and their BLEU scores are the longest chain of
# a cold run (score_bleu_styles alone takes about 20 s, single-threaded, and only needs the
# predictions); without a priority Snakemake started them last, leaving one core idle at the
# end. Priorities change the order of jobs only, never what runs.
STYLE_PRIORITY = 10


for _style, _inputs in STYLE_INPUTS.items():

    rule:
        name:
            f"redelex_style_{_style}"
        input:
            **_inputs,
            code=code("redelex-style"),
        output:
            STYLE_REFERENCES[_style],
        log:
            f"logs/redelex-style/{_style}.log",
        priority: STYLE_PRIORITY
        conda:
            ENV
        params:
            style=_style,
            args=STYLE_ARGS[_style],
        shell:
            "mwzrepro redelex-style --style {params.style} {params.args} --out {output}"
            " --log {log}"


rule score_bleu_styles:
    input:
        references=sorted(set(STYLE_REFERENCES.values())),
        predictions=expand("data/interim/predictions/{system}.parquet", system=STYLE_SYSTEMS),
        code=code("score-bleu-styles"),
    output:
        "results/scores/bleu_styles/scores.parquet",
    log:
        "logs/score-bleu-styles.log",
    priority: STYLE_PRIORITY
    conda:
        ENV
    params:
        references=STYLE_ITEMS,
        systems=",".join(STYLE_SYSTEMS),
    shell:
        "mwzrepro score-bleu-styles --references {params.references}"
        " --predictions-dir data/interim/predictions --systems {params.systems}"
        " --out {output} --log {log}"


rule tables_bleu_styles:
    input:
        scores="results/scores/bleu_styles/scores.parquet",
        published=PUBLISHED_PAPER,
        code=code("tables-bleu-styles"),
    output:
        table=multiext("results/tables/bleu_styles", ".md", ".csv", ".tex"),
        ranking=multiext("results/tables/bleu_styles_ranking", ".md", ".csv", ".tex"),
        metrics="results/metrics/bleu_styles.json",
        record="results/records/bleu_styles.json",
        plot="results/plots/bleu_styles.csv",
    log:
        "logs/tables-bleu-styles.log",
    conda:
        ENV
    shell:
        "mwzrepro tables-bleu-styles --scores {input.scores} --published {input.published}"
        " --table results/tables/bleu_styles --ranking results/tables/bleu_styles_ranking"
        " --metrics {output.metrics} --record {output.record} --plot {output.plot} --log {log}"


rule tables_delex_example:
    input:
        references=sorted(set(STYLE_REFERENCES.values())),
        published=PUBLISHED_PAPER,
        code=code("tables-delex-example"),
    output:
        multiext("results/tables/delex_example", ".md", ".csv", ".tex"),
    log:
        "logs/tables-delex-example.log",
    conda:
        ENV
    params:
        references=STYLE_ITEMS,
    shell:
        "mwzrepro tables-delex-example --references {params.references}"
        " --published {input.published} --table results/tables/delex_example --log {log}"


rule tables_outputs:
    input:
        turns="data/interim/mwz21/test/turns.parquet",
        references="data/interim/mwz21/test/references.parquet",
        predictions=expand("data/interim/predictions/{system}.parquet", system=SYSTEMS),
        published=PUBLISHED_PAPER,
        code=code("tables-outputs"),
    output:
        table8=multiext("results/tables/outputs_pmul3012", ".md", ".csv", ".tex"),
        table9=multiext("results/tables/outputs_pmul2489", ".md", ".csv", ".tex"),
    log:
        "logs/tables-outputs.log",
    conda:
        ENV
    shell:
        "mwzrepro tables-outputs --turns {input.turns} --references {input.references}"
        " --predictions-dir data/interim/predictions --published {input.published}"
        " --table8 results/tables/outputs_pmul3012 --table9 results/tables/outputs_pmul2489"
        " --log {log}"


FGA_STATS_SPLITS = [(d["version"], d["split"]) for d in DATASETS.values()]


rule tables_fga_stats:
    input:
        dialogues=[f"data/interim/{v}/{s}/dialogues.parquet" for v, s in FGA_STATS_SPLITS],
        published=PUBLISHED_PAPER,
        code=code("tables-fga-stats"),
    output:
        multiext("results/tables/fga_statistics", ".md", ".csv", ".tex"),
    log:
        "logs/tables-fga-stats.log",
    conda:
        ENV
    params:
        dialogues=",".join(
            f"{v}/{s}=data/interim/{v}/{s}/dialogues.parquet" for v, s in FGA_STATS_SPLITS
        ),
    shell:
        "mwzrepro tables-fga-stats --dialogues {params.dialogues}"
        " --published {input.published} --table results/tables/fga_statistics --log {log}"


# The style references need the 2.0 and 2.1 test splits and the 2.1 validation split; a
# reduced params.yaml (tests, partial runs) leaves these tables out.
_DATASETS = {f"{d['version']}-{d['split']}" for d in DATASETS.values()}
BLEU_STYLE_TABLES = bool(STYLE_SYSTEMS) and {"mwz20-test", "mwz21-test", "mwz21-val"} <= _DATASETS
if BLEU_STYLE_TABLES:
    ALL_TARGETS.extend(rules.tables_bleu_styles.output)
    ALL_TARGETS.extend(rules.tables_delex_example.output)
if "mwz21-test" in _DATASETS:
    ALL_TARGETS.extend(rules.tables_outputs.output)
ALL_TARGETS.extend(rules.tables_fga_stats.output)

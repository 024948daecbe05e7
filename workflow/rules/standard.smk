# Rules of the standard area: the reference evaluator's Inform/Success (standard and
# optimistic settings), lexical richness and state metrics (spec-standard-evaluation).
#   goals                      evaluator resources per dataset (version, split)
#   success-inputs             per version: every system and the references ("oracle")
#                              prepared, coverage and state metrics (no fuzzy threshold)
#   score-success              per version: Inform/Success of every prepared system, one
#                              process, one pair of files per system
#   score-richness             every system in one job; score-richness-reference: per version
#   tables-standard            Table 5 / Table 6 shapes, results/metrics/standard.json
#   grounded-inputs            what tables-grounded reads that no inform.* parameter changes
#   tables-grounded            standard against grounded Inform/Success of lexicalized text
#                              (2.1 test set: the corpus's own text, round-trip systems)
from mwzrepro.scorer.resources.build import DATABASE_SOURCES
from mwzrepro.scorer.resources.cache import MANIFEST
from mwzrepro.scorer.resources.resource_set import DST_GOLD_FILE, RESOURCE_FILES

EVAL_TABLES = ["eval_goals", "booked_domains", "gold_states", "turn_domains"]
STANDARD_DB = {
    "restaurant": raw("multiwoz-db-restaurant-db"),
    "hotel": raw("mwzeval-database-hotel-db"),
    "attraction": raw("mwzeval-database-attraction-db"),
    "train": raw("mwzeval-database-train-db"),
}
SUCCESS_SYSTEMS = SYSTEMS + ["oracle"]
# Options of success-inputs: params.yaml blocks `inform` (but its fuzzy_threshold, which only
# score-success reads) and `standard` (the placeholder vocabulary is applied where responses
# are normalized, rule `predictions`).
INPUTS_OPTIONS = (
    f"{options('inform', exclude=('fuzzy_threshold',))} "
    f"{options('standard', exclude=('placeholders',))}"
)
# Options of tables-trace (both blocks, like score-success before its split).
SUCCESS_OPTIONS = f"{options('inform')} {options('standard', exclude=('placeholders',))}"


rule goals:
    input:
        dialogues="data/interim/{version}/{split}/dialogues.parquet",
        goals="data/interim/{version}/{split}/goals.parquet",
        booked="data/interim/{version}/{split}/booked.parquet",
        states="data/interim/{version}/{split}/states.parquet",
        acts="data/interim/{version}/{split}/acts.parquet",
        code=code("goals"),
    output:
        expand("data/interim/{{version}}/{{split}}/{table}.parquet", table=EVAL_TABLES),
    log:
        "logs/goals/{version}-{split}.log",
    conda:
        ENV
    shell:
        "mwzrepro goals --dialogues {input.dialogues} --goals {input.goals}"
        " --booked {input.booked} --states {input.states} --acts {input.acts}"
        " --out-dir data/interim/{wildcards.version}/{wildcards.split} --log {log}"


# Everything of score-success that does not depend on inform.fuzzy_threshold (preparation,
# coverage, §13 state metrics), once per version (mwzrepro.standard.success_inputs): a
# threshold change reruns score_success only.
rule success_inputs:
    input:
        gold_states="data/interim/{version}/test/gold_states.parquet",
        predictions=expand("data/interim/predictions/{system}.parquet", system=SYSTEMS),
        coverage=expand("data/interim/predictions/{system}.coverage.parquet", system=SYSTEMS),
        references="data/interim/{version}/test/references.parquet",
        code=code("success-inputs"),
    output:
        expand("data/interim/success_inputs/{{version}}/{system}.parquet", system=SUCCESS_SYSTEMS),
    log:
        "logs/success-inputs/{version}.log",
    conda:
        ENV
    params:
        systems=" ".join(f"--system {s}" for s in SUCCESS_SYSTEMS),
        options=INPUTS_OPTIONS,
    shell:
        "mwzrepro success-inputs --version {wildcards.version}"
        " --gold-states {input.gold_states} {params.options} {params.systems}"
        " --references {input.references} --predictions-dir data/interim/predictions"
        " --out-dir data/interim/success_inputs/{wildcards.version} --log {log}"


rule score_success:
    input:
        **{t: f"data/interim/{{version}}/test/{t}.parquet" for t in EVAL_TABLES},
        **{f"db_{d}": p for d, p in STANDARD_DB.items()},
        inputs=rules.success_inputs.output,
        code=code("score-success"),
    output:
        scores=expand("results/scores/success/{{version}}/{system}.parquet", system=SUCCESS_SYSTEMS),
        dialogues=expand(
            "results/scores/success/{{version}}/{system}.dialogues.parquet",
            system=SUCCESS_SYSTEMS,
        ),
    log:
        "logs/score-success/{version}.log",
    conda:
        ENV
    params:
        systems=" ".join(f"--system {s}" for s in SUCCESS_SYSTEMS),
        options=options("inform"),
    shell:
        "mwzrepro score-success --version {wildcards.version}"
        " --eval-goals {input.eval_goals} --booked-domains {input.booked_domains}"
        " --gold-states {input.gold_states} --turn-domains {input.turn_domains}"
        " --restaurant-db {input.db_restaurant} --hotel-db {input.db_hotel}"
        " --attraction-db {input.db_attraction} --train-db {input.db_train}"
        " {params.options} {params.systems}"
        " --inputs-dir data/interim/success_inputs/{wildcards.version}"
        " --out-dir results/scores/success/{wildcards.version} --log {log}"


rule score_richness:
    input:
        predictions=expand("data/interim/predictions/{system}.parquet", system=SYSTEMS),
        code=code("score-richness"),
    output:
        expand("results/scores/richness/{system}.parquet", system=SYSTEMS),
    log:
        "logs/score-richness.log",
    conda:
        ENV
    params:
        systems=SYSTEM_OPTIONS,
        window=options("richness"),
    shell:
        "mwzrepro score-richness {params.systems} --predictions-dir data/interim/predictions"
        " --out-dir results/scores/richness {params.window} --log {log}"


rule score_richness_reference:
    input:
        references="data/interim/{version}/test/references.parquet",
        code=code("score-richness"),
    output:
        "results/scores/richness/reference/{version}.parquet",
    log:
        "logs/score-richness-reference/{version}.log",
    conda:
        ENV
    params:
        window=options("richness"),
    shell:
        "mwzrepro score-richness --references {input.references} --system reference"
        " --version {wildcards.version} {params.window} --out {output}"
        " --log {log}"


# Your own systems' model/type labels (add-system --model/--type): submissions.yaml
# is an input of the tables only when it labels a system of the tables.
LABELLED = any(
    (e.get("model") or e.get("type")) and e in SUBMITTED.values()
    for e in (SYSTEM_ENTRY[s] for s in SYSTEMS)
)


rule tables_standard:
    input:
        success=expand(
            "results/scores/success/{version}/{system}.parquet",
            version=VERSIONS,
            system=SUCCESS_SYSTEMS,
        ),
        dialogues=expand(
            "results/scores/success/{version}/{system}.dialogues.parquet",
            version=VERSIONS,
            system=SUCCESS_SYSTEMS,
        ),
        richness=expand("results/scores/richness/{system}.parquet", system=SYSTEMS),
        reference=expand("results/scores/richness/reference/{version}.parquet", version=VERSIONS),
        bleu=expand(
            "results/scores/bleu/{version}/{system}.parquet", version=VERSIONS, system=SYSTEMS
        ),
        published="workflow/resources/published/leaderboard.yaml",
        submissions=[SUBMISSIONS] if LABELLED else [],
        code=code("tables-standard"),
    output:
        inform_success=multiext("results/tables/inform_success", ".md", ".csv", ".tex"),
        richness=multiext("results/tables/richness", ".md", ".csv", ".tex"),
        state_match=multiext("results/tables/state_match", ".md", ".csv", ".tex"),
        metrics="results/metrics/standard.json",
        record="results/records/standard.json",
        plot="results/plots/inform_success.csv",
    log:
        "logs/tables-standard.log",
    conda:
        ENV
    params:
        submissions=f" --submissions {SUBMISSIONS}" if LABELLED else "",
    shell:
        "mwzrepro tables-standard --scores-dir results/scores --published {input.published}"
        " --table-dir results/tables --metrics {output.metrics}"
        " --record {output.record} --plot {output.plot}"
        "{params.submissions} --log {log}"


# Nekvinda & Dušek 2021, Table 7: the Inform/Success trace of UBAR on sng0580 (the paper prints
# sng0805, a hotel dialogue in the 2.1 test split; see mwzrepro.standard.trace_table).
TRACE_VERSION = PREDICTIONS


rule tables_trace:
    input:
        **{
            t: f"data/interim/{TRACE_VERSION}/test/{t}.parquet"
            for t in ("eval_goals", "booked_domains", "gold_states")
        },
        **{f"db_{d}": p for d, p in STANDARD_DB.items()},
        predictions="data/interim/predictions/ubar.parquet",
        turns=f"data/interim/{TRACE_VERSION}/test/turns.parquet",
        references=f"data/interim/{TRACE_VERSION}/test/references.parquet",
        code=code("tables-trace"),
    output:
        multiext("results/tables/inform_success_trace", ".md", ".csv", ".tex"),
    log:
        "logs/tables-trace.log",
    conda:
        ENV
    params:
        options=SUCCESS_OPTIONS,
        version=TRACE_VERSION,
    shell:
        "mwzrepro tables-trace --system ubar --predictions {input.predictions}"
        " --dialogue sng0580 --version {params.version} --eval-goals {input.eval_goals}"
        " --booked-domains {input.booked_domains} --gold-states {input.gold_states}"
        " --turns {input.turns} --references {input.references}"
        " --restaurant-db {input.db_restaurant} --hotel-db {input.db_hotel}"
        " --attraction-db {input.db_attraction} --train-db {input.db_train}"
        " {params.options} --table results/tables/inform_success_trace --log {log}"


# Grounded scoring (docs/scoring.md): the corpus's own lexicalized responses ("oracle, lexicalized"), the systems of the
# lexicalized kind as given, and each other system with predicted states relexicalized from
# them, scored standard and grounded (2.1 only). Two jobs: grounded_inputs builds what no
# inform.* parameter changes (the scorer's resources from the downloaded raw files, the lex:1
# links of the corpus text and of each system's own responses, its estimated domains);
# tables_grounded, which reads the fuzzy threshold, fills and scores the rows in parallel.
GROUNDED_VERSION = "mwz21"
GROUNDED_INPUTS = f"data/interim/grounded/{GROUNDED_VERSION}"
# What tables_grounded keeps between its runs (links and fills, exact under a threshold
# change; scorer/lexicalized/grounded_memo.py): workspace state, ignored by git and DVC.
GROUNDED_MEMO = f"data/memo/grounded-{GROUNDED_VERSION}"
# The scorer's resource set as grounded-inputs writes it, named by the library's own constants:
# the set's JSON files and pickled DST gold states, its manifest, the database files, and the
# grounding tables stored beside them (grounding.GROUNDING_FILE).
GROUNDED_RESOURCES = [
    *(f"{n}.json" for n in RESOURCE_FILES),
    MANIFEST,
    "grounding.json",
    DST_GOLD_FILE,
    *(f"db/{d}_db.json" for d in DATABASE_SOURCES),
]


rule grounded_inputs:
    input:
        **{f"db_{d}": p for d, p in STANDARD_DB.items()},
        dialogues=raw(f"{GROUNDED_VERSION}-test"),
        predictions=expand("data/raw/mwzeval/predictions/{system}.json", system=SYSTEMS),
        registry=ancient(REGISTRY),
        code=code("grounded-inputs"),
    output:
        resources=expand(f"{GROUNDED_INPUTS}/resources/{{f}}", f=GROUNDED_RESOURCES),
        round_trip=expand(f"{GROUNDED_INPUTS}/round_trip/{{system}}.json", system=SYSTEMS),
    log:
        "logs/grounded-inputs.log",
    conda:
        ENV
    params:
        systems=SYSTEM_OPTIONS,
        version=GROUNDED_VERSION,
    shell:
        "mwzrepro grounded-inputs --raw-dir data/raw --version {params.version}"
        f" {{params.systems}} --out {GROUNDED_INPUTS} --log {{log}}"


rule tables_grounded:
    input:
        inputs=rules.grounded_inputs.output,
        predictions=expand("data/raw/mwzeval/predictions/{system}.json", system=SYSTEMS),
        lexicalized=expand("data/raw/mwzeval/predictions/{system}.json", system=LEXICALIZED),
        registry=ancient(REGISTRY),
        code=code("tables-grounded"),
    output:
        table=multiext("results/tables/inform_success_grounded", ".md", ".csv", ".tex"),
        metrics="results/metrics/grounded.json",
        record="results/records/grounded.json",
    log:
        "logs/tables-grounded.log",
    conda:
        ENV
    params:
        systems=SYSTEM_OPTIONS,
        lexicalized="".join(f" --lexicalized-system {s}" for s in LEXICALIZED),
        options=options("inform"),
        version=GROUNDED_VERSION,
    shell:
        "mwzrepro tables-grounded --raw-dir data/raw --version {params.version}"
        f" {{params.systems}}{{params.lexicalized}} --inputs {GROUNDED_INPUTS}"
        " {params.options}"
        " --table results/tables/inform_success_grounded"
        f" --memo {GROUNDED_MEMO}"
        " --metrics {output.metrics} --record {output.record} --log {log}"


ALL_TARGETS.extend(
    f"data/interim/{d['version']}/{d['split']}/{t}.parquet"
    for d in DATASETS.values()
    for t in EVAL_TABLES
)
ALL_TARGETS.extend(rules.tables_standard.output)
if any(d["version"] == GROUNDED_VERSION and d["split"] == "test" for d in DATASETS.values()):
    ALL_TARGETS.extend(rules.tables_grounded.output)
# Only when the paper's system is scored (a reduced params.yaml may leave it out).
if "ubar" in SYSTEMS:
    ALL_TARGETS.extend(rules.tables_trace.output)

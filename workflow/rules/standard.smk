# Rules of the standard area (see dvc.yaml for the mirrored stages): the reference evaluator's
# Inform/Success (standard and optimistic settings), lexical richness and state metrics
# (spec-standard-evaluation).
#   goals                      evaluator resources per dataset (version, split)
#   score-success              per (version, system); score-success-oracle: the references
#   score-richness             per system; score-richness-reference: per version
#   tables-standard            Table 5 / Table 6 shapes, results/metrics/standard.json
import re

STANDARD = config["standard"]
INFORM = config["inform"]
EVAL_TABLES = ["eval_goals", "booked_domains", "gold_states", "turn_domains"]
STANDARD_DB = {
    "restaurant": raw("multiwoz-db-restaurant-db"),
    "hotel": raw("mwzeval-database-hotel-db"),
    "attraction": raw("mwzeval-database-attraction-db"),
    "train": raw("mwzeval-database-train-db"),
}
SUCCESS_CODE = (
    "standard/inform_success.py",
    "standard/state_match.py",
    "standard/richness.py",
    "core/signature.py",
    "standard/inputs.py",
    "standard/scores.py",
    "standard/active_domains.py",
    "standard/goals.py",
    "standard/booked.py",
    "standard/gold_states.py",
    "standard/database.py",
    "core/fuzzy.py",
    "core/normalize.py",
    "cli/standard.py",
)
RICHNESS_CODE = (
    "standard/richness.py",
    "core/signature.py",
    "standard/inputs.py",
    "standard/scores.py",
    "cli/standard.py",
)


# The version's evaluator resources (inputs of score-success and score-success-oracle).
EVAL_INPUTS = {t: f"data/interim/{{version}}/test/{t}.parquet" for t in EVAL_TABLES}
# Options shared by score-success and score-success-oracle (params.yaml).
SUCCESS_ARGS = (
    f"--matching {INFORM['matching']} --threshold {INFORM['fuzzy_threshold']}"
    f" --domain-sources '{STANDARD['domain_sources']}'"
    f" --state-threshold {STANDARD['state_match_threshold']}"
)


rule goals:
    input:
        dialogues="data/interim/{version}/{split}/dialogues.parquet",
        goals="data/interim/{version}/{split}/goals.parquet",
        booked="data/interim/{version}/{split}/booked.parquet",
        states="data/interim/{version}/{split}/states.parquet",
        acts="data/interim/{version}/{split}/acts.parquet",
        code=code(
            "standard/goals.py",
            "standard/booked.py",
            "standard/gold_states.py",
            "standard/active_domains.py",
            "core/normalize.py",
            "core/signature.py",
            "cli/standard.py",
        ),
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


rule score_success:
    input:
        **EVAL_INPUTS,
        **{f"db_{d}": p for d, p in STANDARD_DB.items()},
        predictions="data/interim/predictions/{system}.parquet",
        coverage="data/interim/predictions/{system}.coverage.parquet",
        code=code(*SUCCESS_CODE),
    output:
        scores="results/scores/success/{version}/{system}.parquet",
        dialogues="results/scores/success/{version}/{system}.dialogues.parquet",
    log:
        "logs/score-success/{version}-{system}.log",
    wildcard_constraints:
        system="|".join(re.escape(s) for s in SYSTEMS),
    conda:
        ENV
    params:
        common=SUCCESS_ARGS,
    shell:
        "mwzrepro score-success --predictions {input.predictions} --coverage {input.coverage}"
        " --system {wildcards.system} --version {wildcards.version}"
        " --eval-goals {input.eval_goals} --booked-domains {input.booked_domains}"
        " --gold-states {input.gold_states} --turn-domains {input.turn_domains}"
        " --restaurant-db {input.db_restaurant} --hotel-db {input.db_hotel}"
        " --attraction-db {input.db_attraction} --train-db {input.db_train}"
        " {params.common} --out {output.scores} --out-dialogues {output.dialogues} --log {log}"


rule score_success_oracle:
    input:
        **EVAL_INPUTS,
        **{f"db_{d}": p for d, p in STANDARD_DB.items()},
        references="data/interim/{version}/test/references.parquet",
        code=code(*SUCCESS_CODE),
    output:
        scores="results/scores/success/{version}/oracle.parquet",
        dialogues="results/scores/success/{version}/oracle.dialogues.parquet",
    log:
        "logs/score-success-oracle/{version}.log",
    conda:
        ENV
    params:
        common=SUCCESS_ARGS,
    shell:
        "mwzrepro score-success --references {input.references}"
        " --system oracle --version {wildcards.version}"
        " --eval-goals {input.eval_goals} --booked-domains {input.booked_domains}"
        " --gold-states {input.gold_states} --turn-domains {input.turn_domains}"
        " --restaurant-db {input.db_restaurant} --hotel-db {input.db_hotel}"
        " --attraction-db {input.db_attraction} --train-db {input.db_train}"
        " {params.common} --out {output.scores} --out-dialogues {output.dialogues} --log {log}"


rule score_richness:
    input:
        predictions="data/interim/predictions/{system}.parquet",
        code=code(*RICHNESS_CODE),
    output:
        "results/scores/richness/{system}.parquet",
    log:
        "logs/score-richness/{system}.log",
    wildcard_constraints:
        system="|".join(re.escape(s) for s in SYSTEMS),
    conda:
        ENV
    params:
        window=STANDARD["msttr_window"],
    shell:
        "mwzrepro score-richness --predictions {input.predictions}"
        " --system {wildcards.system} --window {params.window} --out {output} --log {log}"


rule score_richness_reference:
    input:
        references="data/interim/{version}/test/references.parquet",
        code=code(*RICHNESS_CODE),
    output:
        "results/scores/richness/reference/{version}.parquet",
    log:
        "logs/score-richness-reference/{version}.log",
    conda:
        ENV
    params:
        window=STANDARD["msttr_window"],
    shell:
        "mwzrepro score-richness --references {input.references} --system reference"
        " --version {wildcards.version} --window {params.window} --out {output} --log {log}"


rule tables_standard:
    input:
        success=expand(
            "results/scores/success/{version}/{system}.parquet",
            version=VERSIONS,
            system=SYSTEMS + ["oracle"],
        ),
        dialogues=expand(
            "results/scores/success/{version}/{system}.dialogues.parquet",
            version=VERSIONS,
            system=SYSTEMS + ["oracle"],
        ),
        richness=expand("results/scores/richness/{system}.parquet", system=SYSTEMS),
        reference=expand("results/scores/richness/reference/{version}.parquet", version=VERSIONS),
        published="workflow/resources/published/leaderboard.yaml",
        code=code("standard/tables.py", "core/tables.py", "core/signature.py", "cli/standard.py"),
    output:
        inform_success=multiext("results/tables/inform_success", ".md", ".csv", ".tex"),
        richness=multiext("results/tables/richness", ".md", ".csv", ".tex"),
        state_match=multiext("results/tables/state_match", ".md", ".csv", ".tex"),
        metrics="results/metrics/standard.json",
        plot="results/plots/inform_success.csv",
    log:
        "logs/tables-standard.log",
    conda:
        ENV
    shell:
        "mwzrepro tables-standard --scores-dir results/scores --published {input.published}"
        " --table-dir results/tables --metrics {output.metrics} --plot {output.plot}"
        " --log {log}"


ALL_TARGETS.extend(
    f"data/interim/{d['version']}/{d['split']}/{t}.parquet"
    for d in DATASETS.values()
    for t in EVAL_TABLES
)
ALL_TARGETS.extend(rules.tables_standard.output)

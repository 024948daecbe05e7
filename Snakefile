# mwzrepro: regenerate every MultiWOZ evaluation table from pinned raw sources.
# Snakemake executes, DVC records (dvc.yaml mirrors these rules one stage per rule).


configfile: "params.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/download.smk"
include: "workflow/rules/prepare.smk"
include: "workflow/rules/bleu.smk"
include: "workflow/rules/standard.smk"
include: "workflow/rules/dst.smk"
include: "workflow/rules/consistency.smk"
include: "workflow/rules/unseen.smk"
include: "workflow/rules/tables.smk"


rule all:
    default_target: True
    input:
        ALL_TARGETS,

# mwzrepro: regenerate every MultiWOZ evaluation table from pinned raw sources.
# Snakemake executes; DVC records (dvc.yaml is generated from these rules by
# workflow/scripts/make_dvc_yaml.py). Every job runs one `mwzrepro <phase>` command.
import sys

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

sys.path.insert(0, f"{workflow.basedir}/workflow/scripts")
from params_schema import SCHEMA, error_line


configfile: "params.yaml"


# `snakemake --report results/report.html`: workflow/report/, workflow/rules/report.smk.
report: "workflow/report/workflow.rst"


# params.yaml is checked against its generated schema (workflow/scripts/make_params_schema.py):
# a bad key or value stops here with one line naming the key.
try:
    validate(config, SCHEMA)
except WorkflowError as exc:
    raise WorkflowError(error_line(exc)) from None


# The console lists no package source files (workflow/scripts/console_listing.py).
from console_listing import collapse_source_files

collapse_source_files()


include: "workflow/rules/common.smk"
include: "workflow/rules/report_flags.smk"
include: "workflow/rules/download.smk"
include: "workflow/rules/prepare.smk"
include: "workflow/rules/bleu.smk"
include: "workflow/rules/standard.smk"
include: "workflow/rules/dst.smk"
include: "workflow/rules/consistency.smk"
include: "workflow/rules/unseen.smk"
include: "workflow/rules/tables.smk"
include: "workflow/rules/paper.smk"
include: "workflow/rules/stats.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/code.smk"


rule all:
    default_target: True
    input:
        ALL_TARGETS,

# The code-dependency listings (workflow/scripts/code_digest.py): one sha1sum listing per
# command of the import closure of `mwzrepro <command>`, written by one job that depends on
# every such source file. Each DVC stage depends on its command's listing only (one entry);
# Snakemake jobs keep their source files as inputs (common.smk, code()), so here the listings
# are a final target of their own. Included after every rule that calls code().

CODE_LISTED = sorted(CODE_COMMANDS)
# Snakemake: the union of the closures. dvc.yaml (template mode): the package directory, one
# entry (.dvcignore leaves __pycache__ out); an edit of any file there reruns this cheap job,
# and only the listings that change rerun stages.
CODE_SOURCES = (
    ["src/mwzrepro"]
    if TEMPLATE
    else sorted({f for command in CODE_LISTED for f in code_files(command)})
)


rule code_digests:
    input:
        CODE_SOURCES,
        "workflow/scripts/code_deps.py",
        "workflow/scripts/import_graph.py",
        "workflow/scripts/code_digest.py",
    output:
        [digest_path(command) for command in CODE_LISTED],
    log:
        "logs/code-digests.log",
    conda:
        ENV
    params:
        out_dir=lambda wildcards, output: os.path.dirname(output[0]),
        commands=" ".join(CODE_LISTED),
    shell:
        "python workflow/scripts/code_digest.py --out-dir {params.out_dir} --log {log}"
        " {params.commands}"


ALL_TARGETS.extend(rules.code_digests.output)

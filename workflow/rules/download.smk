# download: one job per pinned source (workflow/resources/sources.yaml, section `sources`).
# The registry is an ancient() input: editing one entry reruns only that job (through its
# params), never the whole pipeline.
import re

SOURCES_BY_PATH = {s["path"]: s for s in SOURCES.values()}


rule download:
    input:
        registry=ancient(REGISTRY),
        code=code("core/sources.py", "cli/prepare.py"),
    output:
        "data/raw/{path}",
    log:
        "logs/download/{path}.log",
    wildcard_constraints:
        path="|".join(re.escape(p) for p in SOURCES_BY_PATH),
    conda:
        ENV
    params:
        url=lambda w: SOURCES_BY_PATH[w.path]["url"],
        sha1=lambda w: SOURCES_BY_PATH[w.path]["sha1"],
        mirror=config["download"]["mirror"],
    shell:
        "mwzrepro download --url {params.url} --sha1 {params.sha1} --out {output}"
        " --mirror '{params.mirror}' --log {log}"


ALL_TARGETS.extend(f"data/raw/{p}" for p in SOURCES_BY_PATH)

# download: one job per source group of the shipped registry (the first component of the
# local path: mwz20, mwz21, multiwoz, mwzeval, fga, sgd, hdsa, damd, uniconv;
# src/mwzrepro/resources/sources.yaml, section `sources`), and one job per file of the user's
# own submissions.yaml (registering a system adds a job, and reruns only the jobs that read
# its file: a lexicalized system reruns tables-grounded alone). Each group job fetches its
# group's files in one process and writes one file per registry entry.
# The registries are ancient() inputs (a group job reads the shipped one, a submission's job
# both, its entry being in submissions.yaml): editing an entry reruns only its group's job
# (through its params), never the whole pipeline.
DOWNLOAD_GROUPS = {}
for _sid, _entry in SOURCES.items():
    if _sid not in SUBMITTED:
        DOWNLOAD_GROUPS.setdefault(_entry["path"].split("/", 1)[0], []).append(_entry)

for _group, _entries in sorted(DOWNLOAD_GROUPS.items()):

    rule:
        name:
            f"download_{_group}"
        input:
            registry=ancient(REGISTRY),
            code=code("download"),
        output:
            [f"data/raw/{e['path']}" for e in _entries],
        log:
            f"logs/download/{_group}.log",
        conda:
            ENV
        params:
            group=_group,
            sources=sources_args([REGISTRY]),
            pinned=sorted((e["path"], e["url"], e["sha1"]) for e in _entries),
            mirror=param("download.mirror"),
        shell:
            "mwzrepro download {params.sources} --group {params.group}"
            " --out-dir data/raw --mirror {params.mirror} --log {log}"

    ALL_TARGETS.extend(f"data/raw/{e['path']}" for e in _entries)


for _sid, _entry in sorted(SUBMITTED.items()):

    rule:
        name:
            f"download_{_sid}"
        input:
            registry=ancient([REGISTRY, SUBMISSIONS]),
            code=code("download"),
        output:
            f"data/raw/{_entry['path']}",
        log:
            f"logs/download/{_sid}.log",
        conda:
            ENV
        params:
            sid=_sid,
            sources=sources_args([REGISTRY, SUBMISSIONS]),
            pinned=(_entry["path"], _entry["url"], _entry["sha1"]),
            mirror=param("download.mirror"),
        shell:
            "mwzrepro download {params.sources} --id {params.sid} --out {output}"
            " --mirror {params.mirror} --log {log}"

    ALL_TARGETS.append(f"data/raw/{_entry['path']}")

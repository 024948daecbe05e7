"""Regenerate src/mwzrepro/resources/sources.yaml from a mirror MANIFEST.tsv (maintainer tool).

Usage: python workflow/scripts/make_sources.py ../shared/mirror/MANIFEST.tsv

Every pinned upstream file gets a short id and a local path under data/raw/. Files the
default pipeline uses (present in the mirror and needed by a stage) go under ``sources:``
(DVC and Snakemake create one download job per entry); every other pinned file goes under
``extra:`` (downloadable with ``mwzrepro download --id``; move it to ``sources:`` to use it).
"""

import csv
import re
import sys

import yaml

REPO_PREFIX = {
    ("ConvLab", "ConvLab"): "mwz20",
    ("thu-coai", "ConvLab-2"): "mwz21",
    ("budzianowski", "multiwoz"): "multiwoz",
    ("Tomiinek", "MultiWOZ_Evaluation"): "mwzeval",
    ("SuvodipDey", "FGA"): "fga",
    ("google-research-datasets", "dstc8-schema-guided-dialogue"): "sgd",
    ("qbetterk", "multiwoz"): "mwz22plus",
    ("smartyfh", "MultiWOZ2.4"): "mwz24",
    ("lexmen318", "MultiWOZ-coref"): "mwz23",
    ("wenhuchen", "HDSA-Dialog"): "hdsa",
    ("thu-spmi", "damd-multiwoz"): "damd",
    ("henryhungle", "UniConv"): "uniconv",
}
DEFAULT_ROLES = {
    "mwz20-test", "mwz20-val", "mwz21-test", "mwz21-val", "db", "ontology", "split-list",
    "prediction", "eval-booked-domains", "dst-prediction", "dst-config", "dst-human-eval",
    "sgd-schema", "sgd-dialogues", "schema", "delex-reference-hdsa",
    # DAMD's and UniConv's mapping.pair, applied by default (bleu_styles.word_pairs: true)
    "delex-word-pairs",
}


def local_path(owner: str, repo: str, path: str) -> str:
    prefix = REPO_PREFIX[(owner, repo)]
    path = re.sub(r"^data/multiwoz/", "", path)
    path = re.sub(r"^mwzeval/data/", "", path)
    path = re.sub(r"^data/MultiWOZ_2\.2\+?/", "", path)
    path = re.sub(r"^data/", "", path)
    return f"{prefix}/{path}"


def source_id(local: str) -> str:
    stem = re.sub(r"\.(json\.txt|json\.zip|json|zip|txt|md)$", "", local)
    return re.sub(r"[^A-Za-z0-9]+", "-", stem).strip("-").lower()


def main(manifest: str) -> None:
    used, extra = {}, {}
    with open(manifest, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row["role"] in ("license", "readme"):
                continue
            local = local_path(row["owner"], row["repo"], row["path"])
            entry = {
                "path": local,
                "url": row["url"],
                "sha1": row["git_blob_sha1"],
                "role": row["role"],
            }
            sid = source_id(local)
            target = used if (row["present"] == "yes" and row["role"] in DEFAULT_ROLES) else extra
            assert sid not in used and sid not in extra, sid
            target[sid] = entry
    header = open(__file__.replace("scripts/make_sources.py", "resources/sources.header.txt")).read()
    with open("src/mwzrepro/resources/sources.yaml", "w", encoding="utf-8") as out:
        out.write(header)
        yaml.safe_dump({"sources": used, "extra": extra}, out, sort_keys=False, width=200)


if __name__ == "__main__":
    main(sys.argv[1])

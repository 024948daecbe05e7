"""``bleu_styles.word_pairs`` switches the DAMD and UniConv reference styles between their
``mapping.pair`` word pairs (default, issue 20) and none (the no-pairs variant), in the jobs
Snakemake runs: the ``redelex_style_<style>`` job takes the downloaded file as input and passes
it as ``--word-pairs``, or neither. The figures of both variants are checked on the mirror in
``tests/integration/test_delex_styles_real.py`` (13/13 and 13/13 within ±0.3 BLEU with the pairs;
4/13 and 6/13 without).
"""

from __future__ import annotations

import pytest
import yaml

from tests.workflow.dags import REPO, copy_workflow, snakemake_jobs

#: The downloaded word-pair file of each style (sources.yaml, role delex-word-pairs).
PAIRS = {"damd": "data/raw/damd/multi-woz/mapping.pair",
         "uniconv": "data/raw/uniconv/utils/mapping.pair"}
TARGETS = ("data/interim/mwz20/test/references_damd.parquet",
           "data/interim/mwz21/test/references_uniconv.parquet")


def test_word_pairs_are_the_default():
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    assert params["bleu_styles"]["word_pairs"] is True
    registry = yaml.safe_load(
        (REPO / "src/mwzrepro/resources/sources.yaml").read_text(encoding="utf-8"))
    pinned = {e["path"]: e["sha1"] for e in registry["sources"].values()
              if e["role"] == "delex-word-pairs"}
    assert pinned == {"damd/multi-woz/mapping.pair": "015630d41e10a691125da2be23d1a7c5ac3e734e",
                      "uniconv/utils/mapping.pair": "34df41d01e93ce27039e721e1ffb55bf9267e5a2"}
    assert not any(e["role"] == "delex-word-pairs" for e in registry["extra"].values())


@pytest.mark.parametrize("word_pairs", [True, False], ids=["pairs", "no-pairs"])
def test_redelex_style_jobs_follow_the_switch(tmp_path, word_pairs):
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["bleu_styles"]["word_pairs"] = word_pairs
    ws = copy_workflow(tmp_path / "ws", params=params)
    jobs = {j["rule"]: j for j in snakemake_jobs(ws, TARGETS)}
    for style, path in PAIRS.items():
        job = jobs[f"redelex_style_{style}"]
        assert (path in job["input"]) is word_pairs, (style, job["input"])
        assert (f"--word-pairs {path}" in job["shellcmd"]) is word_pairs, job["shellcmd"]
        assert ("--word-pairs" in job["shellcmd"]) is word_pairs
        # the file is downloaded only when a job needs it
        assert (f"download_{style}" in jobs) is word_pairs, sorted(jobs)

"""The grounding tables' copy in the per-user cache (:mod:`mwzrepro.scorer.lexicalized.grounding`)
keeps the order built: a turn's venue domains are read in order by the round trip's fill (the
last one heard is the venue in focus), so a run on a warm cache must read what a run on a cold
one built."""

from __future__ import annotations

from pathlib import Path

from mwzrepro.scorer.lexicalized import grounding


class Resources:
    version = "mwz21"

    def __init__(self, root: Path) -> None:
        self.directory = root / "resources" / "mwz21" / "abc"
        self.directory.mkdir(parents=True)


def test_a_warm_cache_reads_the_order_built(tmp_path, monkeypatch):
    built = {"user_named": {"d1": [{"restaurant": ["3"], "attraction": ["1"]}]},
             "reference_values": {"d1": [[["area", "centre"]]]}}
    monkeypatch.setattr(grounding, "_build_tables", lambda resources: built)
    resources = Resources(tmp_path)
    grounding._stored_tables.cache_clear()
    cold = grounding._stored_tables(resources)
    grounding._stored_tables.cache_clear()
    warm = grounding._stored_tables(resources)      # read from <cache>/grounding/
    grounding._stored_tables.cache_clear()
    assert list((tmp_path / "grounding").iterdir())
    assert list(warm["user_named"]["d1"][0]) == list(cold["user_named"]["d1"][0]) == [
        "restaurant", "attraction"]
    assert warm == cold

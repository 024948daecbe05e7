"""The memo file of ``tables-grounded`` (:mod:`mwzrepro.scorer.lexicalized.grounded_memo`): the
Delexicalizer reads it behind its own memo and keeps what it links anew; a run adds a segment
of what it added, and every few runs the segments become one; a segment of other code, of
another resource set, or damaged is left out (the run recomputes) and replaced."""

from __future__ import annotations

import logging
import pickle
from pathlib import Path

from mwzrepro.prepare.delex.delexicalize_responses import Delexicalizer
from mwzrepro.prepare.delex.value_lexicon import ValueLexicon
from mwzrepro.scorer.lexicalized.grounded_memo import (
    MAX_SEGMENTS,
    GroundedMemo,
    LinkStore,
    load_memo,
    save_memo,
)
from mwzrepro.scorer.resources.stored_results import code_digest


class Resources:
    version = "mwz21"

    def __init__(self, key: str) -> None:
        self.directory = Path("/cache/resources/mwz21") / key


def delexicalizer() -> Delexicalizer:
    return Delexicalizer(ValueLexicon.from_entities({"hotel": [
        {"id": "7", "name": "the lensfield hotel", "phone": "01223355017"}]}))


def test_the_store_is_read_behind_the_memo_and_keeps_new_links():
    store = LinkStore()
    first = delexicalizer()
    first.use_store(store)
    text = "the lensfield hotel , call 01223 355017 ."
    linked = first.link(text, {"hotel": {"area": "south"}})
    assert linked.text == "[name] , call [phone] ." and len(store.added) == 1
    second = delexicalizer()
    second.use_store(LinkStore(dict(store.entries)))
    assert second.link(text, {"hotel": {"area": "south"}}) is linked   # read, not linked again
    assert second.store.added == {}
    assert second.link(text, {"hotel": {"area": "north"}}) == linked   # another key: linked
    assert len(second.store.added) == 1


def test_a_memo_round_trips_and_another_key_starts_afresh(tmp_path, caplog):
    directory = tmp_path / "memo"
    memo = load_memo(directory, Resources("abc"))
    assert memo.key.endswith("|mwz21/abc") and code_digest() in memo.key
    assert save_memo(memo, directory) is None           # nothing new: nothing written
    memo.merge(({b"x": "linked"}, {"d1": ((("hotel", (("area", "south"),), ("7",)),), ("t",))}))
    assert save_memo(memo, directory) == directory / "0000.pickle"
    back = load_memo(directory, Resources("abc"))
    assert back.links.entries == memo.links.entries and back.fills.entries == memo.fills.entries
    back.merge(({b"y": "linked too"}, {}))
    assert save_memo(back, directory) == directory / "0001.pickle"   # only what is new
    again = load_memo(directory, Resources("abc"))
    assert again.links.entries == {b"x": "linked", b"y": "linked too"}
    assert len(again.segments) == 2
    with caplog.at_level(logging.INFO):
        other = load_memo(directory, Resources("other"))
    assert other.links.entries == {} and len(other.stale) == 2
    assert "of other code or resources" in caplog.text
    assert save_memo(other, directory) == directory / "0002.pickle"  # the stale ones go
    assert sorted(p.name for p in directory.iterdir()) == ["0002.pickle"]


def test_segments_are_written_into_one_at_the_limit(tmp_path):
    directory = tmp_path / "memo"
    for i in range(MAX_SEGMENTS + 1):
        memo = load_memo(directory, Resources("abc"))
        memo.merge(({bytes([i]): i}, {}))
        save_memo(memo, directory)
    assert [p.name for p in sorted(directory.iterdir())] == [f"{MAX_SEGMENTS:04d}.pickle"]
    assert load_memo(directory, Resources("abc")).links.entries == {
        bytes([i]): i for i in range(MAX_SEGMENTS + 1)}


def test_a_damaged_segment_is_left_out(tmp_path, caplog):
    directory = tmp_path / "memo"
    directory.mkdir()
    (directory / "0000.pickle").write_bytes(b"not a pickle")
    good = load_memo(directory, Resources("abc"))
    (directory / "0001.pickle").write_bytes(pickle.dumps(
        {"key": good.key, "links": {b"x": "linked"}, "fills": {}}))
    with caplog.at_level(logging.WARNING):
        memo = load_memo(directory, Resources("abc"))
    assert isinstance(memo, GroundedMemo) and memo.links.entries == {b"x": "linked"}
    assert "unreadable" in caplog.text and [p.name for p in memo.stale] == ["0000.pickle"]


def test_take_added_hands_back_once():
    memo = GroundedMemo("k")
    memo.links.put(("x", "null"), "linked")
    memo.fills.store("d1", [], ["text"])
    added = memo.take_added()
    assert [len(part) for part in added] == [1, 1] and memo.take_added() == ({}, {})
    other = GroundedMemo("k")
    other.merge(added)
    assert other.links.get(("x", "null")) == "linked" and other.fills.entries == added[1]

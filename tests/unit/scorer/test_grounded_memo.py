"""The memo file of ``tables-grounded`` (:mod:`mwzrepro.scorer.lexicalized.grounded_memo`): the
Delexicalizer reads it behind its own memo and keeps what it links anew; a file of other code,
of another resource set, damaged or missing gives an empty memo (the run recomputes); the
file is replaced whole."""

from __future__ import annotations

import logging
import pickle
from pathlib import Path

from mwzrepro.prepare.delex.delexicalize_responses import Delexicalizer
from mwzrepro.prepare.delex.value_lexicon import ValueLexicon
from mwzrepro.scorer.lexicalized.grounded_memo import GroundedMemo, LinkStore, load_memo, save_memo
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
    path = tmp_path / "memo" / "grounded.pickle"
    memo = load_memo(path, Resources("abc"))
    assert memo.key.endswith("|mwz21/abc") and code_digest() in memo.key
    memo.links.put(("x", "null"), "linked")
    memo.fills.store("d1", [("hotel", (("area", "south"),), ("7",))], ["text"])
    save_memo(memo, path)
    back = load_memo(path, Resources("abc"))
    assert back.links.entries == memo.links.entries and back.fills.entries == memo.fills.entries
    with caplog.at_level(logging.INFO):
        assert load_memo(path, Resources("other")).links.entries == {}
    assert "of other code or resources" in caplog.text
    assert list(path.parent.iterdir()) == [path]    # no temporary file left


def test_a_damaged_memo_gives_an_empty_one(tmp_path, caplog):
    path = tmp_path / "grounded.pickle"
    path.write_bytes(b"not a pickle")
    with caplog.at_level(logging.WARNING):
        memo = load_memo(path, Resources("abc"))
    assert isinstance(memo, GroundedMemo) and memo.fills.entries == {}
    assert "unreadable" in caplog.text
    path.write_bytes(pickle.dumps({"key": "1|other|mwz21/abc", "links": {}, "fills": {}}))
    assert load_memo(path, Resources("abc")).links.entries == {}


def test_take_added_hands_back_once():
    memo = GroundedMemo("k")
    memo.links.put(("x", "null"), "linked")
    memo.fills.store("d1", [], ["text"])
    added = memo.take_added()
    assert [len(part) for part in added] == [1, 1] and memo.take_added() == ({}, {})
    other = GroundedMemo("k")
    other.merge(added)
    assert other.links.get(("x", "null")) == "linked" and other.fills.entries == added[1]

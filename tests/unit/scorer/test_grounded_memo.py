"""The memo directory of ``tables-grounded`` (:mod:`mwzrepro.scorer.lexicalized.grounded_memo`):
each row's part is one file, read back only under its key (of this code and resource set);
a file of another key or damaged is left out (the row recomputes it); opening the memo
deletes the segments of the layout before."""

from __future__ import annotations

import logging
import pickle
from pathlib import Path

from mwzrepro.core.venue_database import VenueDatabase
from mwzrepro.prepare.delex.fill_memo import FillMemo
from mwzrepro.scorer.lexicalized.grounded_memo import (
    memo_key,
    open_memo,
    read_row,
    row_path,
    write_row,
)
from mwzrepro.scorer.resources.stored_results import code_digest


class Resources:
    version = "mwz21"

    def __init__(self, key: str) -> None:
        self.directory = Path("/cache/resources/mwz21") / key


def test_a_row_file_round_trips_under_its_key_only(tmp_path, caplog):
    memo = open_memo(tmp_path / "memo", Resources("abc"))
    assert memo.key == memo_key(Resources("abc")) and memo.key.endswith("|mwz21/abc")
    assert code_digest() in memo.key and memo_key(Resources("other")) != memo.key
    fills = FillMemo()
    fills.store("d1", [("hotel", (("area", "south"),), ("7",))], ["the acorn is south ."])
    write_row(memo.directory, "fills", "augpt, filled", memo.key, fills.used)
    assert row_path(memo.directory, "fills", "augpt, filled").is_file()
    back = FillMemo(read_row(memo.directory, "fills", "augpt, filled", memo.key))
    assert back.entries == fills.entries and back.used == {}
    assert read_row(memo.directory, "fills", "augpt, filled", "another key") is None
    assert read_row(memo.directory, "scores", "augpt, filled", memo.key) is None
    row_path(memo.directory, "fills", "augpt, filled").write_bytes(b"not a pickle")
    with caplog.at_level(logging.WARNING):
        assert read_row(memo.directory, "fills", "augpt, filled", memo.key) is None
    assert "unreadable" in caplog.text


def test_opening_deletes_the_segments_of_the_layout_before(tmp_path, caplog):
    directory = tmp_path / "memo"
    (directory / "prepared").mkdir(parents=True)
    (directory / "0000.pickle").write_bytes(pickle.dumps({"key": "1|x", "links": {}}))
    (directory / "0001.pickle").write_bytes(b"")
    (directory / "prepared" / "augpt.pickle").write_bytes(b"")
    with caplog.at_level(logging.INFO):
        open_memo(directory, Resources("abc"))
    assert sorted(p.name for p in directory.iterdir()) == ["prepared"]
    assert [p.name for p in (directory / "prepared").iterdir()] == ["augpt.pickle"]
    assert "layout before" in caplog.text


def test_a_fill_memo_keeps_what_it_used():
    db = VenueDatabase({"hotel": [{"id": "7", "name": "acorn", "area": "south"}]})
    south = (("hotel", (("area", "south"),), ("7",)),)
    fills = FillMemo({"old": (south, ("x",)), "kept": (south, ("y",))})
    assert fills.lookup("kept", db) == ["y"]
    fills.store("new", [], ["z"])
    assert set(fills.used) == {"kept", "new"} and set(fills.added) == {"new"}

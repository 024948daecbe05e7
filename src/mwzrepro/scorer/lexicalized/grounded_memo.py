"""What ``tables-grounded`` keeps between its runs (``--memo DIR``), so that a change of
``inform.fuzzy_threshold`` redoes only the work that the threshold changes.

The step fills 13 systems' outputs (:mod:`.round_trip`) and links every text of its rows
(lex:1, :meth:`~mwzrepro.prepare.delex.delexicalize_responses.Delexicalizer.link`). Both are
exact functions of their inputs: the links of a text depend on the text, the turn's state and
the venue lexicon (no matching setting); the fill of a dialogue depends on its turns and on
the answers of the database queries it makes (:mod:`mwzrepro.prepare.delex.fill_memo`, which
replays those queries before it reuses a fill). The memo keeps both, the links keyed by a
digest of ``(text, state JSON)`` and the fills by a digest of the dialogue's inputs, under a
key made of this package's code (every module's source and the versions of the libraries that
compute, :func:`~mwzrepro.scorer.resources.stored_results.code_digest`, as the scorer's stored
results) and the resource set (its build key): another version of the code, or another
resource set, starts from an empty memo. The scores are then computed as always, at the
threshold given; the numbers and every byte written are the same with or without the memo
(``tests/integration/test_grounded_table_real.py`` holds it).

The memo is a directory of pickles written by this package into the workspace
(``data/memo/`` in the pipeline, ignored by Git and DVC): each run that adds to it writes
what it added as a new segment (a threshold change adds the few fills and texts it changes),
and every :data:`MAX_SEGMENTS` runs the segments are written into one. Beside them,
``prepared/<row>.pickle`` holds each row's preparations of its text, dialogue by dialogue
(:mod:`.prepared_memo`), and ``scores/<row>.pickle`` each dialogue's scores with the queries
they made (:mod:`.dialogue_score_memo`), both read and written by the row's worker. Delete it
at will: the next run recomputes it.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mwzrepro.prepare.delex.fill_memo import FillMemo
from mwzrepro.scorer.resources.stored_results import code_digest

__all__ = ["GroundedMemo", "LinkStore", "load_memo", "save_memo"]

log = logging.getLogger(__name__)

#: The layout of the memo file (part of its key).
MEMO_FORMAT = "1"


class LinkStore:
    """The lex:1 links kept between runs: the :attr:`~mwzrepro.prepare.delex.
    delexicalize_responses.Delexicalizer.store` of the Delexicalizer, keyed by a 16-byte
    BLAKE2b digest of the Delexicalizer's own key ``(text, state JSON)``.

    Attributes:
        entries: ``{digest: LinkedResponse}``; added: what this process linked anew (what a
            worker hands back to be kept).

    >>> store = LinkStore()
    >>> store.put(("call [phone]", "null"), "linked")
    >>> store.get(("call [phone]", "null")), store.get(("call [phone]", "{}")), len(store.added)
    ('linked', None, 1)
    """

    def __init__(self, entries: dict[bytes, Any] | None = None) -> None:
        self.entries: dict[bytes, Any] = entries if entries is not None else {}
        self.added: dict[bytes, Any] = {}

    @staticmethod
    def digest(key: tuple[str, str]) -> bytes:
        """The digest of a Delexicalizer key."""
        text, state = key
        return hashlib.blake2b(f"{text}\0{state}".encode("utf-8", "surrogatepass"),
                               digest_size=16).digest()

    def get(self, key: tuple[str, str]) -> Any:
        """The stored result of ``key``, or None."""
        return self.entries.get(self.digest(key))

    def put(self, key: tuple[str, str], result: Any) -> None:
        """Keep the result of ``key``."""
        d = self.digest(key)
        self.entries[d] = self.added[d] = result


#: Segments a memo directory may hold before :func:`save_memo` writes them into one.
MAX_SEGMENTS = 8


@dataclass
class GroundedMemo:
    """The memo of one resource set (module docstring).

    Attributes:
        key: ``<format>|<code digest>|<resource set key>``.
        links: the links (:class:`LinkStore`).
        fills: the fill memo (:class:`~mwzrepro.prepare.delex.fill_memo.FillMemo`).
        segments: the files it was read from; stale: files of the directory of another key
            or unreadable (replaced by the next save).
        new: ``(links, fills)`` kept since it was read (:meth:`merge`): what a save adds.
        directory: where it was read from (None: held in memory only); the rows keep their
            preparations there too (:mod:`.prepared_memo`).
    """

    key: str
    links: LinkStore = field(default_factory=LinkStore)
    fills: FillMemo = field(default_factory=FillMemo)
    segments: list[Path] = field(default_factory=list)
    stale: list[Path] = field(default_factory=list)
    new: tuple[dict[bytes, Any], dict[str, Any]] = field(default_factory=lambda: ({}, {}))
    directory: Path | None = None

    def take_added(self) -> tuple[dict[bytes, Any], dict[str, Any]]:
        """``(links, fills)`` added since the last call (emptied): a worker's hand-back."""
        out = (dict(self.links.added), dict(self.fills.added))
        self.links.added.clear()
        self.fills.added.clear()
        return out

    def merge(self, added: tuple[dict[bytes, Any], dict[str, Any]]) -> None:
        """Keep what a worker handed back (:meth:`take_added`)."""
        self.links.entries.update(added[0])
        self.fills.entries.update(added[1])
        self.new[0].update(added[0])
        self.new[1].update(added[1])


def memo_key(resources: Any) -> str:
    """The key of ``resources`` (a :class:`~mwzrepro.scorer.resources.resource_set.
    VersionResources`, its directory named by its build key) under this package's code."""
    return f"{MEMO_FORMAT}|{code_digest()}|{resources.version}/{resources.directory.name}"


def load_memo(directory: Path, resources: Any) -> GroundedMemo:
    """The memo kept in ``directory`` (its segments ``NNNN.pickle``, oldest first) for
    ``resources``; segments of another key or unreadable are left out (logged: what they held
    is recomputed) and replaced by the next :func:`save_memo`."""
    from mwzrepro.core.gc_pause import paused_gc

    memo = GroundedMemo(memo_key(resources), directory=directory)
    for path in sorted(directory.glob("*.pickle")):
        try:
            with path.open("rb") as f, paused_gc(freeze=True):
                data = pickle.load(f)  # noqa: S301 (this package's own file in the workspace)
            if data.get("key") != memo.key:
                log.info("memo %s is of other code or resources: left out", path)
                memo.stale.append(path)
                continue
            memo.links.entries.update(data["links"])
            memo.fills.entries.update(data["fills"])
            memo.segments.append(path)
        except Exception as e:  # noqa: BLE001 (a damaged memo costs time, never a result)
            log.warning("memo %s unreadable (%s): left out", path, e)
            memo.stale.append(path)
    return memo


def save_memo(memo: GroundedMemo, directory: Path) -> Path | None:
    """Keep what ``memo`` gained since it was read (:attr:`GroundedMemo.new`) as a new segment
    of ``directory``; everything in one segment instead (the others deleted) when the
    directory held :data:`MAX_SEGMENTS` segments or stale ones. Each segment is written
    atomically. Returns the segment written (None: nothing new).
    """
    from mwzrepro.core.io import atomic_path

    if not any(memo.new) and not memo.stale:
        return None
    whole = len(memo.segments) >= MAX_SEGMENTS or bool(memo.stale)
    links, fills = (memo.links.entries, memo.fills.entries) if whole else memo.new
    names = [int(p.stem) for p in directory.glob("*.pickle") if p.stem.isdigit()]
    path = directory / f"{max(names, default=-1) + 1:04d}.pickle"
    with atomic_path(path) as tmp, tmp.open("wb") as f:
        pickle.dump({"key": memo.key, "links": links, "fills": fills}, f,
                    protocol=pickle.HIGHEST_PROTOCOL)
    if whole:
        for old in (*memo.segments, *memo.stale):
            old.unlink(missing_ok=True)
        memo.segments, memo.stale = [path], []
    else:
        memo.segments.append(path)
    memo.new = ({}, {})
    return path

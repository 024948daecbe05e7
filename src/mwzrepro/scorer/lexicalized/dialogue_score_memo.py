"""The scores of a ``tables-grounded`` row kept between runs, dialogue by dialogue, so that a
change of ``inform.fuzzy_threshold`` scores again only the dialogues whose figures it can
change.

**The rule.** A row's Inform/Success (each setting, :func:`~mwzrepro.standard.inform_success.
dialogue_rows`), its grounded Inform/Success (:func:`~mwzrepro.standard.grounded.
grounded_dialogue_rows`) and its grounding figures (:func:`~mwzrepro.standard.
grounding_metrics.corpus_grounding`: attribute checks, unknown venues, entity F1 counts) are
sums over its dialogues of what each dialogue gives. What a dialogue gives is a function of its
prepared dialogue and links, its text, the version's resources (goals, booked domains, the
venues users name, the corpus's own entity values, the venue lexicon) and of the answers of the
venue-database queries it makes: the database enters only through :meth:`VenueDatabase.query
<mwzrepro.core.venue_database.VenueDatabase.query>`, the one place the matching setting is
read (:mod:`mwzrepro.core.query_log`). The dialogue's preparation is itself a function of the
digest :mod:`.prepared_memo` keys it by (its id, its turns, the settings). So
:class:`DialogueScoreMemo` keeps, per (digest, figure), the queries the dialogue made with
their answers and what it gave; an entry is used only when every one of its queries gets the
same answer from the database at hand (:func:`~mwzrepro.core.query_log.answers_hold`). The
figures are then summed over the dialogues in the row's order, by the same functions, so the
numbers are those of a run without the memo.

**Why.** After a threshold change ``tables-grounded`` scores 14 rows again; in each, the fill
of a few dialogues changes and a few fuzzy decisions flip; the other dialogues' figures are
those of the last run. Nothing of it enters a signature (``tests/unit/scorer/
test_dialogue_score_memo.py`` compares the figures at one threshold from a memo made at another
with those computed without one).

The memo of a row is one pickle (``scores/<row>.pickle`` in the grounded memo's directory,
:mod:`.grounded_memo`), read and written by the row's worker, under the grounded memo's key
and the evaluator's settings; it holds the entries the row used in its last run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mwzrepro.core.query_log import Query, QueryRecorder, answers_hold, replayable

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext

__all__ = ["DialogueScoreMemo", "load_scores", "save_scores"]

T = TypeVar("T")

#: One dialogue's figure: ``(the database queries it made, deduplicated, :data:`~mwzrepro.
#: core.query_log.Query`; what it gave)``.
Entry = tuple[tuple[Query, ...], Any]


class DialogueScoreMemo:
    """The memo of one row (module docstring).

    Attributes:
        entries: ``{(digest, figure): Entry}`` read from the last run.
        keys: ``{dialogue id: digest}`` of the row's dialogues in this run (the preparation's,
            :attr:`~.prepared_memo.PreparedMemo.keys`); a dialogue without one is computed.
        used: the entries this run read or made (what :func:`save_scores` keeps).
        anew: how many dialogue figures were computed.

    >>> from mwzrepro.core.venue_database import VenueDatabase
    >>> db = VenueDatabase({"hotel": [{"id": "1", "name": "acorn", "area": "north"}]})
    >>> memo = DialogueScoreMemo(keys={"d1": b"digest"})
    >>> memo.value(("rooms",), "d1", db, lambda d: d.query("hotel", {"area": "north"}))
    ['1']
    >>> again = DialogueScoreMemo(memo.used, {"d1": b"digest"})
    >>> again.value(("rooms",), "d1", db, lambda d: "not called"), again.anew
    (['1'], 0)
    >>> other = VenueDatabase({"hotel": [{"id": "2", "name": "acorn", "area": "south"}]})
    >>> again.value(("rooms",), "d1", other, lambda d: d.query("hotel", {"area": "north"}))
    []
    """

    def __init__(self, entries: Mapping[tuple[bytes, tuple], Entry] | None = None,
                 keys: Mapping[str, bytes] | None = None) -> None:
        self.entries: dict[tuple[bytes, tuple], Entry] = dict(entries or {})
        self.keys: dict[str, bytes] = dict(keys or {})
        self.used: dict[tuple[bytes, tuple], Entry] = {}
        self.anew = 0

    def value(self, figure: tuple, dialogue_id: str, database: Any,
              compute: Callable[[Any], T]) -> T:
        """``compute(database)``: what dialogue ``dialogue_id`` gives for ``figure`` (a tuple
        naming the figure and its setting), from the memo when its queries' answers hold on
        ``database``; else computed on a recorder of ``database`` and kept (when every query
        can be replayed). Raises what ``compute`` raises."""
        digest = self.keys.get(dialogue_id)
        if digest is None:
            return compute(database)
        key = (digest, figure)
        entry = self.entries.get(key)
        if entry is not None and answers_hold(database, entry[0]):
            self.used[key] = entry
            return entry[1]  # type: ignore[no-any-return]
        queries: list[Query] = []
        value = compute(QueryRecorder(database, queries))
        self.anew += 1
        if replayable(queries):
            self.used[key] = (tuple(dict.fromkeys(queries)), value)
        return value


def _key(key: str, evaluator: ScoringContext) -> tuple:
    from mwzrepro.scorer.lexicalized.prepared_memo import preparation_settings

    return (key, *preparation_settings(evaluator), tuple(evaluator.settings))


def load_scores(directory: Path, label: str, key: str, evaluator: ScoringContext,
                keys: Mapping[str, bytes]) -> DialogueScoreMemo:
    """The memo of row ``label`` in the grounded memo ``directory`` under ``key`` and the
    evaluator's settings, for the row's dialogues ``keys`` (``{dialogue id: digest}``); its
    entries are empty when there is none, it is of another key, or damaged."""
    from mwzrepro.scorer.lexicalized.grounded_memo import read_row

    return DialogueScoreMemo(read_row(directory, "scores", label, _key(key, evaluator)), keys)


def save_scores(memo: DialogueScoreMemo, directory: Path, label: str, key: str,
                evaluator: ScoringContext) -> None:
    """Keep the entries the row used (:attr:`DialogueScoreMemo.used`), atomically."""
    from mwzrepro.scorer.lexicalized.grounded_memo import write_row

    write_row(directory, "scores", label, _key(key, evaluator), memo.used)

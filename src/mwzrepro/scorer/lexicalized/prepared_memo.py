"""The preparation of a ``tables-grounded`` row kept between runs, dialogue by dialogue, so that
a change of ``inform.fuzzy_threshold`` prepares again only the dialogues whose text changed.

**The rule.** :func:`~mwzrepro.scorer.preparation.prepare_input` of a mapping in the reference
evaluator's shape works dialogue by dialogue: a dialogue's rows of the ``predictions`` table,
its prepared dialogue (Inform/Success), its lex:1 links and the placeholders its normalization
deleted are a function of its id and turns, given the evaluator's settings, the resource set,
this package's code, and three properties of the whole mapping: whether every turn has a state
(the state source of the links, :func:`~.delexicalize_pass.lex_state_source`, and of the
prepared states) and whether every turn has active domains (the ``auto`` domain source). So
:class:`PreparedMemo` keeps those four pieces per dialogue, keyed by a digest of the
dialogue's id, its turns and the properties, and assembles a mapping's preparation from them
in the mapping's own order; the dialogues it does not hold are prepared together by the very
functions of ``prepare_input`` (split dialogue by dialogue again where their normalization
deleted placeholders, so that each dialogue's count is its own). The coverage is computed on
the assembled table, as ``prepare_input`` does.

It is used only where that holds trivially: the mapping is in the reference evaluator's shape,
its dialogue ids are known, distinct and within their turn counts, either every turn or none
has a state, and either every turn or none has active domains (the properties are then those
of each dialogue), and coverage is not ``strict``; any other mapping, and any mapping the
functions refuse, is prepared by ``prepare_input`` whole (which gives its errors).

**Why.** After a threshold change ``tables-grounded`` scores 13 systems' filled text again; the
fill of about 2 % of the dialogues changes (:mod:`mwzrepro.prepare.delex.fill_memo`), the
preparation of the others is the same as in the last run. Nothing of it enters a signature:
the memo changes how fast a row is prepared, never what (``tests/unit/scorer/
test_prepared_memo.py`` compares it with ``prepare_input`` on random mappings).

The memo of a row is one pickle (``prepared/<row>.pickle`` in the grounded memo's directory,
:mod:`.grounded_memo`), read and written by the row's worker; it holds the entries the row
used in its last run, under the grounded memo's key and the evaluator's settings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mwzrepro.core.pickle_digest import pickle_digest

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext
    from mwzrepro.scorer.inputs import PreparedInput

__all__ = ["PreparedMemo", "load_prepared", "preparation_settings", "save_prepared"]

#: One dialogue's preparation: ``(its rows as one list per column of PREDICTION_COLUMNS,
#: its prepared dialogue or None without turns, its links, the deleted placeholders' counts,
#: (state source, domain source) of the preparation)``.
Entry = tuple[tuple[list, ...], "dict[str, list] | None", list, tuple, tuple[str, str]]


def preparation_settings(evaluator: ScoringContext) -> tuple[str, str, bool]:
    """The evaluator's settings that a preparation depends on: ``(placeholder dialect,
    domain source, whether missing turns are allowed)``; part of every memo file's key."""
    return (evaluator.standard.placeholders, evaluator.domain_source,
            evaluator.allow_missing_turns)


class PreparedMemo:
    """The memo of one row (module docstring).

    Attributes:
        entries: ``{digest: Entry}`` read from the last run; used: the entries this run's
            preparations read or made (what :func:`save_prepared` keeps); anew: how many
            dialogues were prepared anew; keys: ``{dialogue id: digest}`` of the last
            preparation's dialogues (empty when it was ``prepare_input``'s whole).
    """

    def __init__(self, entries: Mapping[bytes, Entry] | None = None) -> None:
        self.entries: dict[bytes, Entry] = dict(entries or {})
        self.used: dict[bytes, Entry] = {}
        self.anew = 0
        self.keys: dict[str, bytes] = {}

    def prepare(self, evaluator: ScoringContext, data: Mapping[str, Any], source: str
                ) -> PreparedInput:
        """``evaluator._prepare(data, source)``, from the memo where the rule allows (module
        docstring). Raises as ``prepare_input`` (a mapping it refuses is handed to it whole,
        so the message is its own)."""
        from mwzrepro.core.errors import InputError

        try:
            return self._prepare(evaluator, data, source)
        except (InputError, RecursionError):
            return evaluator._prepare(data, source)

    def _prepare(self, evaluator: ScoringContext, data: Mapping[str, Any], source: str
                 ) -> PreparedInput:
        from mwzrepro.core.ids import canonical_dialogue_id
        from mwzrepro.scorer.inputs import check_turns, read_shape
        from mwzrepro.scorer.lexicalized.delexicalize_pass import lex_state_source

        self.keys = {}
        shaped, shape = read_shape(data, source)
        expected = evaluator.resources.expected
        truncated = check_turns(shaped, expected, source, evaluator.allow_missing_turns)
        turns = [t for v in shaped.values() for t in v]
        states = {"state" in t for t in turns if type(t) is dict}
        domains = {"active_domains" in t for t in turns if type(t) is dict}
        ids = [canonical_dialogue_id(raw) for raw in shaped]
        if (shape != "mwzeval" or evaluator.strict or not all(type(t) is dict for t in turns)
                or len(states) != 1 or len(domains) != 1
                or len(set(ids)) != len(ids) or any(d not in expected for d in ids)
                or any(len(v) > expected[d] for d, v in zip(ids, shaped.values()))):
            return evaluator._prepare(data, source)
        lex = lex_state_source(shaped)
        context = (preparation_settings(evaluator), states.pop(), domains.pop(), lex)
        keys = {raw: _digest(raw, v, context) for raw, v in shaped.items()}
        missing = {raw: v for raw, v in shaped.items()
                   if keys[raw] is None or keys[raw] not in self.entries}
        made = _prepare_apart(evaluator, missing, source, lex) if missing else {}
        self.anew += len(missing)
        pieces = {}
        for raw in shaped:
            entry = made[raw] if raw in missing else self.entries[keys[raw]]
            if keys[raw] is not None:
                self.used[keys[raw]] = entry
            pieces[raw] = entry
        prepared = _assembled(pieces, ids, expected, truncated)
        self.keys = {did: keys[raw] for did, raw in zip(ids, shaped) if keys[raw] is not None}
        return prepared


def _digest(raw: Any, turns: list, context: Any) -> bytes | None:
    """The digest of one dialogue's id, turns and ``context``
    (:func:`~mwzrepro.core.pickle_digest.pickle_digest`); None: not picklable."""
    return pickle_digest((str(raw), turns, context), 16)


def _prepare_apart(evaluator: ScoringContext, data: dict[str, list], source: str, lex: str
                   ) -> dict[str, Entry]:
    """``{raw id: Entry}`` of ``data``'s dialogues, prepared together by ``prepare_input``'s
    functions (``lex``: the whole mapping's state source of the links); where the
    normalization deleted placeholders, each dialogue's count is its own (the table's
    columns of that dialogue made again: its normalizations are memoized)."""
    from mwzrepro.core.ids import canonical_dialogue_id
    from mwzrepro.prepare.predictions import PREDICTION_COLUMNS, prediction_columns
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalize_predictions
    from mwzrepro.standard.inputs import prepare_predictions

    res = evaluator.resources
    links: dict[str, list] = {}
    delexed, _ = delexicalize_predictions(data, res, lex, links=links)
    unknown: Counter[str] = Counter()
    preds, _ = prediction_columns(dict(delexed), res.expected, source,
                                  allow_missing_turns=True, unknown_placeholders=unknown,
                                  placeholders=evaluator.standard.placeholders)
    order = list(dict.fromkeys(preds["dialogue_id"]))
    prep = prepare_predictions(preds, res.eval.gold, evaluator.domain_source,
                               res.eval.turn_domains, order, where=source)
    sources = (prep.state_source, prep.domain_source)
    out, start = {}, 0
    for raw, turns in data.items():
        did, end = canonical_dialogue_id(raw), start + len(turns)
        rows = tuple(preds[c][start:end] for c in PREDICTION_COLUMNS)
        deleted = unknown
        if unknown and len(data) > 1:
            deleted = Counter()
            prediction_columns({raw: delexed[raw]}, res.expected, source,
                               allow_missing_turns=True, unknown_placeholders=deleted,
                               placeholders=evaluator.standard.placeholders)
        out[raw] = (rows, prep.dialogues.get(did) if turns else None, links[did],
                    tuple(deleted.items()), sources)
        start = end
    return out


def _assembled(pieces: dict[str, Entry], ids: list[str], expected: Mapping[str, int],
               truncated: list[str]) -> PreparedInput:
    """The :class:`~mwzrepro.scorer.inputs.PreparedInput` of the dialogues' entries in the
    mapping's order (as ``prepare_input`` builds it)."""
    from mwzrepro.prepare.predictions import PREDICTION_COLUMNS
    from mwzrepro.scorer.inputs import PreparedInput, coverage_of
    from mwzrepro.standard.inputs import PreparedDialogues

    preds: dict[str, list] = {c: [] for c in PREDICTION_COLUMNS}
    unknown: Counter[str] = Counter()
    dialogues, links = {}, {}
    for did, (rows, dialogue, linked, deleted, _) in zip(ids, pieces.values()):
        for column, values in zip(PREDICTION_COLUMNS, rows):
            preds[column].extend(values)
        unknown.update(dict(deleted))
        links[did] = linked
        if dialogue is not None:
            dialogues[did] = dialogue
    counts = dict(Counter(preds["dialogue_id"]))
    coverage = coverage_of(counts, preds["response"], expected,
                           [d for d in truncated if d in counts])
    state_source, domain_source = next(e[4] for e in pieces.values() if e[1] is not None)
    return PreparedInput(preds, PreparedDialogues(dialogues, state_source, domain_source),
                         coverage, unknown, links)


def _key(key: str, evaluator: ScoringContext) -> tuple:
    return (key, preparation_settings(evaluator))


def load_prepared(directory: Path, label: str, key: str, evaluator: ScoringContext
                  ) -> PreparedMemo:
    """The memo of row ``label`` in the grounded memo ``directory`` under ``key`` and the
    evaluator's settings; empty when there is none, it is of another key, or damaged."""
    from mwzrepro.scorer.lexicalized.grounded_memo import read_row

    return PreparedMemo(read_row(directory, "prepared", label, _key(key, evaluator)))


def save_prepared(memo: PreparedMemo, directory: Path, label: str, key: str,
                  evaluator: ScoringContext) -> None:
    """Keep the entries the row used (:attr:`PreparedMemo.used`), atomically."""
    from mwzrepro.scorer.lexicalized.grounded_memo import write_row

    write_row(directory, "prepared", label, _key(key, evaluator), memo.used)

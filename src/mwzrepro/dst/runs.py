"""One DST scoring run: its settings, its signatures and its JSON record (spec-dst-metrics §10;
section numbers refer to that spec).

A run scores one source — an end-to-end system's predicted states (``states``), per-slot flag
vectors (``flags``), the human-evaluation logs (``log``) or a paired state file (``paired``) —
with the settings of :class:`~mwzrepro.dst.params.DSTParams`. The main figures use the
``matcher`` of the parameters, the additional fuzzy-JGA figures the ``fuzzy_matcher`` (not for
flag input, which has no values). The record (:meth:`DSTRun.record`) holds the corpus figures as
fractions, the settings, the signatures and the coverage; the ``tables-dst`` assembler reads it.

Example:
    >>> from mwzrepro.dst.params import DSTParams
    >>> run = DSTRun(DSTParams(), "states")
    >>> print(run.signature("augpt", "mwz21").replace("|", " "))  # doctest: +ELLIPSIS
    DST system:augpt ver:mwz21 input:states local:subset fga:scripts lambdas:0.25,0.5,0.75,1.0 match:exact norm:none excl:pmul1455 slots:30 v:...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mwzrepro.core.signature import Signature
from mwzrepro.dst.alignment import Coverage, align_flags, align_states, select_dialogues
from mwzrepro.dst.corpus import (
    CorpusScores,
    outcomes_frame,
    score_corpus_flags,
    score_corpus_two_matchers,
)
from mwzrepro.dst.matchers import Matcher, make_matcher
from mwzrepro.dst.metrics import TurnOutcome
from mwzrepro.dst.readers.predictions import predictions_from_table
from mwzrepro.dst.settings import excluded_ids, lambda_values
from mwzrepro.dst.state import DialogueStates, DSTError, GoldDialogue

if TYPE_CHECKING:
    import pandas as pd

    from mwzrepro.dst.params import DSTParams

__all__ = ["INPUT_KINDS", "DSTRun", "RunResult", "score_predictions", "score_flags",
           "score_paired"]

#: Input kind → local-match rule of FGA (§6.2 subset rule for states, §7.2 error set for flags).
INPUT_KINDS = {"flags": "error_set", "log": "subset", "paired": "subset", "states": "subset"}


@dataclass
class RunResult:
    """What one run produced.

    Attributes:
        scores: main figures (``None`` when the source has no predicted states).
        outcomes: per-turn outcomes of the main figures.
        fuzzy: fuzzy-JGA figures (``None`` for flag input or without states).
        coverage: what was scored and what was not (``None`` without states).
        notes: human-readable remarks (left-out dialogues, removed slots, ...).
        has_states: whether the source releases predicted states.
    """

    scores: CorpusScores | None
    outcomes: list[TurnOutcome] = field(default_factory=list)
    fuzzy: CorpusScores | None = None
    coverage: Coverage | None = None
    notes: list[str] = field(default_factory=list)
    has_states: bool = True


class DSTRun:
    """Settings of one scoring run of one input kind.

    Args:
        params: the ``dst`` parameter block (:class:`~mwzrepro.dst.params.DSTParams`, or
            its validated defaults from :func:`mwzrepro.core.params.defaults`).
        input_kind: ``states``, ``flags``, ``log`` or ``paired`` (:data:`INPUT_KINDS`).

    Raises:
        ConfigError: an invalid matcher threshold (from :func:`make_matcher`).
    """

    def __init__(self, params: DSTParams, input_kind: str) -> None:
        self.params = params
        self.input_kind = input_kind
        self.local_rule = INPUT_KINDS[input_kind]
        self.lambdas = lambda_values(params.lambdas, params.forget)
        self.variant = params.fga_variant
        self.excluded = list(excluded_ids(params.excluded_dialogues))
        self.norm = params.label_normalization
        theta = str(params.fuzzy_threshold)
        self.matcher: Matcher = make_matcher(params.matcher, theta)
        self.fuzzy: Matcher = make_matcher(params.fuzzy_matcher, theta)

    def signature(self, system: str, version: str, matcher: Matcher | None = None,
                  metric: str = "DST") -> str:
        """The signature of the figures of ``system`` on gold ``version`` with ``matcher``
        (default: the main matcher): system, version, input kind, local rule, FGA variant, λ
        values, matcher and θ, normalisation, excluded dialogues, number of slots."""
        matcher = matcher or self.matcher
        return Signature(metric, {
            "system": system,
            "ver": version,
            "input": self.input_kind,
            "local": self.local_rule,
            "fga": self.variant,
            "lambdas": ",".join(repr(x) for x in self.lambdas),
            "match": matcher.name,
            "theta": None if matcher.name == "exact" else str(float(matcher.threshold)),
            "norm": self.norm,
            "excl": ",".join(self.excluded) or "none",
            "slots": 30,
        }).format()

    def settings(self) -> dict[str, Any]:
        """The run's settings as a JSON-ready dict (θ as floats, λ values in order)."""
        return {
            "lambdas": self.lambdas,
            "fga_local_match": self.local_rule,
            "fga_variant": self.variant,
            "matcher": self.matcher.name,
            "matcher_threshold": None if self.matcher.threshold is None
            else float(self.matcher.threshold),
            "fuzzy_matcher": self.fuzzy.name,
            "fuzzy_threshold": float(self.fuzzy.threshold),
            "label_normalization": self.norm,
            "excluded_dialogues": self.excluded,
            "n_slots": 30,
        }

    def record(self, system: str, label: str, version: str, result: RunResult) -> dict[str, Any]:
        """The JSON record of one run: ``system``, ``label``, ``version``, ``input``,
        ``has_states``, ``signature``, ``settings``, ``scores`` (fractions, see
        :meth:`CorpusScores.as_dict`), ``fuzzy`` (``{signature, matcher, threshold, scores}``
        or ``None``), ``coverage`` (:meth:`Coverage.as_dict`) and ``notes``."""
        fz = result.fuzzy
        return {
            "system": system,
            "label": label,
            "version": version,
            "input": self.input_kind,
            "has_states": result.has_states,
            "signature": self.signature(system, version),
            "settings": self.settings(),
            "scores": result.scores.as_dict() if result.scores is not None else None,
            "fuzzy": None if fz is None else {
                "signature": self.signature(system, version, self.fuzzy, "DST-fuzzy"),
                "matcher": self.fuzzy.name,
                "threshold": float(self.fuzzy.threshold),
                "scores": fz.as_dict(),
            },
            "coverage": result.coverage.as_dict() if result.coverage is not None else None,
            "notes": result.notes,
        }

    def turns(self, record: Mapping[str, Any], result: RunResult) -> tuple[pd.DataFrame,
                                                                             dict[str, Any]]:
        """The ``dst_turns`` table of a run and its Parquet metadata (``{"dst": record
        without notes}``)."""
        return (outcomes_frame(result.outcomes),
                {"dst": {k: v for k, v in record.items() if k != "notes"}})


def _nothing_to_score(coverage: Coverage) -> None:
    if coverage.scored_turns == 0:
        raise DSTError(f"{coverage.source}: no turns to score ({coverage.gold_dialogues} "
                       f"dialogue(s), {len(coverage.excluded)} excluded, "
                       f"{len(coverage.missing_dialogues)} without predictions)")


def _score_states(run: DSTRun, dialogues: Iterable[DialogueStates], coverage: Coverage,
                  notes: list[str]) -> RunResult:
    """Main and fuzzy figures of state dialogues (subset rule)."""
    _nothing_to_score(coverage)
    scores, outcomes, fuzzy = score_corpus_two_matchers(dialogues, run.lambdas, run.matcher,
                                                        run.fuzzy, run.variant)
    return RunResult(scores, outcomes, fuzzy, coverage, notes)


def score_predictions(run: DSTRun, gold: Mapping[str, GoldDialogue], dropped_gold: Counter,
                      predictions: pd.DataFrame | Mapping[str, list], source: str
                      ) -> RunResult:
    """Score an end-to-end system's ``predictions`` table against gold states (§2.6).

    Args:
        run: settings (``missing`` and ``unknown_slots`` of its parameters apply).
        gold: from :func:`mwzrepro.dst.readers.gold.gold_from_tables`; dropped_gold: the gold
            values outside the 30 slots it counted (reported in the coverage).
        predictions: the system's ``predictions`` table (DataFrame or columns); source: its
            file name.

    Returns:
        the :class:`RunResult`; ``has_states`` false (nothing scored) when no turn carries a
        predicted state.

    Raises:
        DSTError: malformed predictions, or missing ones under ``missing: error`` (names the
            file, dialogue and turn); nothing left to score.
    """
    dropped_pred: Counter | None = Counter() if run.params.unknown_slots == "filter" else None
    pred = predictions_from_table(predictions, source, dropped_pred)
    if pred is None:
        return RunResult(None, has_states=False)
    dialogues, cov = align_states(gold, pred, run.excluded, run.params.missing, source)
    cov.dropped_pred_slots = dict(dropped_pred or {})
    cov.dropped_gold_slots = dict(dropped_gold)
    notes = []
    if cov.missing_dialogues or cov.missing_turns:
        notes.append(f"{len(cov.missing_dialogues)} gold dialogue(s) and "
                     f"{sum(map(len, cov.missing_turns.values()))} trailing turn(s) without "
                     f"predictions were left out (coverage)")
    if cov.dropped_pred_slots:
        notes.append(f"removed {sum(cov.dropped_pred_slots.values())} predicted value(s) "
                     f"outside the 30 slots: {cov.dropped_pred_slots}")
    return _score_states(run, dialogues, cov, notes)


def score_flags(run: DSTRun, flags: Mapping[str, Any], gold: Mapping[str, GoldDialogue] | None,
                dropped_gold: Counter, source: str) -> RunResult:
    """Score per-slot flag vectors (error-set local match, §7); AGA from ``gold``'s presence,
    not computed when ``gold`` is ``None``.

    Raises:
        DSTError: flags and gold disagree on dialogues or turns (names file, dialogue, turn);
            nothing left to score.
    """
    dialogues, cov = align_flags(flags, gold, run.excluded, source)
    cov.dropped_gold_slots = dict(dropped_gold)
    _nothing_to_score(cov)
    scores, outcomes = score_corpus_flags(dialogues, run.lambdas, run.variant, source)
    notes = [] if gold is not None else ["AGA not computed: no gold states given"]
    return RunResult(scores, outcomes, None, cov, notes)


def score_paired(run: DSTRun, dialogues: Mapping[str, DialogueStates], source: str,
                 notes: list[str] | None = None) -> RunResult:
    """Score paired gold/predicted dialogues (human-evaluation logs, paired state files;
    subset rule) minus the excluded ones.

    Raises:
        DSTError: nothing left to score (names ``source``).
    """
    selected, cov = select_dialogues(dialogues, run.excluded, source)
    return _score_states(run, selected, cov, list(notes or []))

"""Typed results of the scorer (:class:`mwzrepro.scorer.evaluator.Evaluator`).

Units: **percent (0–100) everywhere** — BLEU (sacrebleu's scale), Inform and Success (rounded
to one decimal as the reference evaluator rounds them, spec-standard-evaluation §9.3), the
state metrics of the reference evaluator (joint accuracy, slot F1, precision, recall; §13) and
the FGA paper's DST metrics (JGA, SA, AGA, FGA(λ), fuzzy JGA; spec-dst-metrics §3–§8).
Richness values are counts, bits and tokens, unrounded (§12). The one exception is
``to_dict(units="mwzeval")``, which reproduces the reference evaluator's own result object
byte for byte, where slot precision and recall are fractions.

:meth:`EvaluationResult.to_dict` has the reference evaluator's keys and nesting — ``bleu``
(``{reference set: score}``), ``success`` (``{"inform": {domain: rate, ..., "total": rate},
"success": {...}}``), ``richness``, ``dst`` — plus this package's additions: ``dst_fga``,
``success_optimistic`` (only with ``setting="both"``), ``combined`` ((Inform + Success) / 2 +
BLEU of the main setting, :mod:`mwzrepro.standard.combined_score`; None unless both are
computed), ``system``, ``version``, ``input``,
``units``, ``coverage``, ``sources``, ``signatures``, ``warnings``, ``unknown_placeholders``,
``placeholders`` (the vocabulary) and ``placeholders_extended`` (figures under ``extended``
when a ``reference`` run meets placeholders only ``extended`` maps; else None).

Signatures carry no system name (that is the ``system`` field) and record the coverage when
it is below 100 % (``cov:dialogues=944/1000,turns=6757/7372``).

Mapping access (``result["bleu"]``, ``dict(result)``) gives the reference evaluator's result
object exactly — its four keys, its units — for code written against it.

>>> r = BleuScore(17.35, "mwz21", "BLEU|ver:mwz21|v:0.1.0")
>>> r.to_dict()
{'mwz21': 17.35}
>>> s = StateMatchScores(38.4, 70.9, 0.717, 0.702, "")
>>> s.to_dict()["slot_precision"], s.to_dict("mwzeval")["slot_precision"]
(71.7, 0.717)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mwzrepro.scorer.inputs import Coverage
from mwzrepro.scorer.result_units import UNITS, with_units

__all__ = ["BleuScore", "SuccessScores", "RichnessScores", "StateMatchScores", "DSTScores",
           "EvaluationResult", "UNITS", "with_units"]


@dataclass(frozen=True)
class BleuScore:
    """Corpus BLEU (0–100, unrounded) against the ``reference`` set's references."""

    score: float
    reference: str
    signature: str
    turns: int = 0
    statistics: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def to_dict(self) -> dict[str, float]:
        """``{reference set: score}`` (the reference evaluator's ``bleu``)."""
        return {self.reference: self.score}


@dataclass(frozen=True)
class SuccessScores:
    """Inform and Success rates (percent, one decimal) in one setting.

    Attributes:
        setting: ``standard`` or ``optimistic``.
        inform, success: ``{goal domain: rate, ..., "total": rate}``.
        state_source: ``predicted`` or ``gold``; domain_source: where active domains came
            from (``provided``, ``estimated``, ``slot-names``, ``ground-truth``).
        signature: the settings behind the numbers.
    """

    setting: str
    inform: dict[str, float]
    success: dict[str, float]
    state_source: str
    domain_source: str
    signature: str
    #: the per-dialogue rows behind the rates (reused by a rescoring of a few dialogues)
    dialogue_rows: tuple[dict[str, Any], ...] = field(default=(), repr=False, compare=False)

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{"inform": {...}, "success": {...}}`` (the reference evaluator's ``success``)."""
        return {"inform": dict(self.inform), "success": dict(self.success)}


@dataclass(frozen=True)
class RichnessScores:
    """Lexical richness (spec-standard-evaluation §12): ``entropy``, ``cond_entropy`` (bits),
    ``avg_lengths`` (tokens), ``msttr`` (fraction, as the reference), ``num_unigrams``,
    ``num_bigrams``, ``num_trigrams`` (counts); unrounded."""

    values: dict[str, float | int]
    signature: str

    def to_dict(self) -> dict[str, float | int]:
        """The reference evaluator's ``richness``."""
        return dict(self.values)


@dataclass(frozen=True)
class StateMatchScores:
    """The reference evaluator's state metrics (spec-standard-evaluation §13).

    ``joint_accuracy`` and ``slot_f1`` are percent as computed there; ``precision`` and
    ``recall`` are kept as the fractions computed there, and :attr:`slot_precision` /
    :attr:`slot_recall` give them in percent (what every output of this package shows).
    """

    joint_accuracy: float
    slot_f1: float
    precision: float
    recall: float
    signature: str

    @property
    def slot_precision(self) -> float:
        """Slot precision in percent."""
        return 100 * self.precision

    @property
    def slot_recall(self) -> float:
        """Slot recall in percent."""
        return 100 * self.recall

    def to_dict(self, units: str = "percent") -> dict[str, float]:
        """``dst`` of the reference evaluator; with ``units="mwzeval"`` precision and recall
        are the fractions the reference evaluator reports."""
        raw = units == "mwzeval"
        return {"joint_accuracy": self.joint_accuracy, "slot_f1": self.slot_f1,
                "slot_precision": self.precision if raw else self.slot_precision,
                "slot_recall": self.recall if raw else self.slot_recall}


@dataclass(frozen=True)
class DSTScores:
    """The FGA paper's DST metrics (spec-dst-metrics), percent, unrounded.

    Attributes:
        jga, sa, aga, aga_relative: joint goal accuracy, slot accuracy, average goal accuracy
            (absolute, relative).
        fga: ``{λ as text: FGA(λ)}``.
        fuzzy_jga: JGA with the fuzzy matcher (normalised Levenshtein similarity ≥ θ).
        dialogues, turns: the scored corpus (excluded dialogues left out, §2.6).
        signature, fuzzy_signature: settings of the main and the fuzzy figures.
        notes: remarks (removed slots, left-out turns).
        rsa: Relative Slot Accuracy (:mod:`mwzrepro.dst.relative_slot_accuracy`).
        gca: Granular Change Accuracy (:mod:`mwzrepro.dst.granular_change_accuracy`).
        dropped_pred_slots: ``{"domain-slot": turns}`` of the predicted values outside the
            30 slots removed before scoring (spec-dst-metrics §2.2); not part of
            :meth:`to_dict`.
    """

    jga: float
    sa: float
    aga: float | None
    aga_relative: float | None
    fga: dict[str, float]
    fuzzy_jga: float | None
    dialogues: int
    turns: int
    signature: str
    fuzzy_signature: str | None = None
    notes: tuple[str, ...] = ()
    rsa: float | None = None
    gca: float | None = None
    dropped_pred_slots: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (percent)."""
        return {"jga": self.jga, "sa": self.sa, "aga": self.aga,
                "aga_relative": self.aga_relative, "fga": dict(self.fga),
                "fuzzy_jga": self.fuzzy_jga, "dialogues": self.dialogues, "turns": self.turns,
                "rsa": self.rsa, "gca": self.gca}


@dataclass(frozen=True)
class EvaluationResult:
    """Everything one evaluation produced (module docstring for keys and units).

    Attributes:
        system: the system label ("" if none was given).
        version: dataset version of the resources.
        source: file name or ``<predictions>``.
        coverage: :class:`~mwzrepro.scorer.inputs.Coverage`.
        bleu, richness, dst, dst_fga: the metric blocks, None when not requested (or, for
            the DST blocks, when the input has no state on every turn).
        success: ``{setting: SuccessScores}`` in the requested order (empty if not requested).
        warnings: warnings shown to the user (coverage, empty responses, skipped metrics).
        unknown_placeholders: ``{bracket content: count}`` deleted by normalization (§3).
        placeholders: the placeholder vocabulary (``reference`` or ``extended``).
        placeholders_extended: under ``reference``, when ``extended`` maps some placeholders
            of the file, the figures with ``extended``
            (:class:`mwzrepro.scorer.dialects.placeholder_pass.ExtendedFigures`), else None.
        dialogues: per-dialogue rows when asked for (``evaluate(..., per_dialogue=True)``;
            :func:`mwzrepro.standard.trace.dialogue_row`); not part of :meth:`to_dict`.
        grounding: the grounded setting's ``grounding`` block
            (:class:`mwzrepro.scorer.lexicalized.grounding.GroundingScores`), else None (and no
            key).
        dst_conventions: with ``Evaluator(dst_convention=...)``, JGA and SA under the DST
            scoring presets (:class:`mwzrepro.scorer.dst_conventions.DSTConventions`), else
            None (and no key).
        caveats: lines qualifying the figures, shown with them on stdout (key ``caveats``
            when there is one): a lexicalized-looking file scored without ``--lexicalized``,
            the oracle-state upper bound of ``lex:1-gold`` (spec-standard-evaluation §18.1).
        oracle_states: ``lex:1-gold``: ``sources`` lists grounded first, the others marked
            ``"upper_bound": "oracle states"``.
    """

    system: str
    version: str
    source: str
    coverage: Coverage
    bleu: BleuScore | None = None
    success: dict[str, SuccessScores] = field(default_factory=dict)
    richness: RichnessScores | None = None
    dst: StateMatchScores | None = None
    dst_fga: DSTScores | None = None
    warnings: tuple[str, ...] = ()
    unknown_placeholders: dict[str, int] = field(default_factory=dict)
    dialogues: tuple[dict[str, Any], ...] = ()
    placeholders: str = "reference"
    placeholders_extended: Any = None
    grounding: Any = None
    dst_conventions: Any = None
    caveats: tuple[str, ...] = ()
    oracle_states: bool = False

    #: Keys of the reference evaluator's result object (the mapping view below).
    MWZEVAL_KEYS = ("bleu", "success", "richness", "dst")

    def __getitem__(self, key: str) -> Any:
        """Mapping access is the reference evaluator's result object, in its units —
        ``result["success"]["inform"]["total"]``, ``result["dst"]["slot_precision"]`` (a
        fraction there) — so code written for it keeps working.

        Raises:
            KeyError: not one of :attr:`MWZEVAL_KEYS`.
        """
        if key not in self.MWZEVAL_KEYS:
            raise KeyError(key)
        return self.to_dict("mwzeval")[key]

    def keys(self) -> tuple[str, ...]:
        """:attr:`MWZEVAL_KEYS` (the mapping view)."""
        return self.MWZEVAL_KEYS

    def __iter__(self):
        return iter(self.MWZEVAL_KEYS)

    def __len__(self) -> int:
        return len(self.MWZEVAL_KEYS)

    def signatures(self) -> dict[str, str]:
        """``{block: signature}`` of every computed block."""
        out = {}
        if self.bleu is not None:
            out["bleu"] = self.bleu.signature
        for setting, s in self.success.items():
            out["success" if setting == self._main_setting() else f"success_{setting}"] = \
                s.signature
        if self.richness is not None:
            out["richness"] = self.richness.signature
        if self.dst is not None:
            out["dst"] = self.dst.signature
        if self.dst_fga is not None:
            out["dst_fga"] = self.dst_fga.signature
            if self.dst_fga.fuzzy_signature:
                out["dst_fga_fuzzy"] = self.dst_fga.fuzzy_signature
        if self.grounding is not None:
            out["grounding"] = self.grounding.signature
        return out

    @property
    def combined(self) -> float | None:
        """(Inform + Success) / 2 + BLEU of the main setting, None unless both are computed
        (:mod:`mwzrepro.standard.combined_score`: formula, units, source)."""
        from mwzrepro.standard.combined_score import combined_score

        main = self._main_setting()
        if main is None or self.bleu is None:
            return None
        s = self.success[main]
        return combined_score(s.inform["total"], s.success["total"], self.bleu.score)

    def _main_setting(self) -> str | None:
        return next(iter(self.success), None)

    def to_dict(self, units: str = "percent") -> dict[str, Any]:
        """The result as plain JSON-ready data (module docstring).

        Args:
            units: ``percent`` (every rate 0–100) or ``mwzeval`` (the reference evaluator's
                units: slot precision and recall as fractions); nothing else differs.

        Raises:
            ValueError: unknown ``units``.
        """
        if units not in UNITS:
            raise ValueError(f"units must be one of {UNITS}, got {units!r}")
        main = self._main_setting()
        out: dict[str, Any] = {
            "bleu": None if self.bleu is None else self.bleu.to_dict(),
            "success": None if main is None else self.success[main].to_dict(),
            "richness": None if self.richness is None else self.richness.to_dict(),
            "dst": None if self.dst is None else self.dst.to_dict("mwzeval"),
        }
        for setting, s in self.success.items():
            if setting != main:
                out[f"success_{setting}"] = s.to_dict()
        if self.grounding is not None:
            out["grounding"] = self.grounding.to_dict()
        if self.dst_conventions is not None:
            out["dst_conventions"] = self.dst_conventions.to_dict()
        out.update({
            "combined": self.combined,
            "dst_fga": None if self.dst_fga is None else self.dst_fga.to_dict(),
            "system": self.system, "version": self.version, "input": self.source,
            "units": "mwzeval", "coverage": self.coverage.as_dict(),
            "sources": self._sources(),
            "signatures": self.signatures(),
            "warnings": list(self.warnings),
            "unknown_placeholders": dict(self.unknown_placeholders),
            "placeholders": self.placeholders,
            "placeholders_extended": None if self.placeholders_extended is None
            else self.placeholders_extended.to_dict(),
        })
        out.update({"caveats": list(self.caveats)} if self.caveats else {})
        return with_units(out, units)

    def _sources(self) -> dict[str, dict[str, Any]]:
        oracle = {"upper_bound": "oracle states"} if self.oracle_states else {}
        out = {s: {"setting": s, "states": v.state_source, "domains": v.domain_source,
                   **(oracle if s != "grounded" else {})} for s, v in self.success.items()}
        return dict(sorted(out.items(), key=lambda kv: bool(oracle) and kv[0] != "grounded"))

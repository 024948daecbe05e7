"""The metric blocks of one evaluation, each computed by the library function the pipeline's
phase uses and turned into its typed result (:mod:`mwzrepro.scorer.results`, percent):

* :func:`bleu_block` — :func:`mwzrepro.bleu.score.corpus_bleu` (spec-standard-evaluation §11);
* :func:`success_block` — :func:`mwzrepro.standard.scores.success_rows` (§9, §10), per
  setting;
* :func:`richness_block` — :func:`mwzrepro.standard.scores.richness_rows` (§12);
* :func:`state_match_block` — :func:`mwzrepro.standard.scores.state_match_rows` (§13);
* :func:`dst_block` — :func:`mwzrepro.dst.runs.score_predictions` (spec-dst-metrics: JGA, SA,
  AGA, FGA(λ), fuzzy JGA).

Signatures lose the system name (it is the result's ``system`` field) and gain the coverage
when it is partial (:func:`public_signature`).

>>> from mwzrepro.scorer.inputs import Coverage
>>> public_signature("BLEU|system:ubar|ver:mwz21|v:0.1.0", Coverage(2, 2, 5, 5))
'BLEU|ver:mwz21|v:0.1.0'
>>> public_signature("BLEU|system:x|ver:mwz21|v:0.1.0", Coverage(1, 2, 3, 5))
'BLEU|ver:mwz21|cov:dialogues=1/2,turns=3/5|v:0.1.0'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mwzrepro.core.signature import Signature, add_fields
from mwzrepro.scorer.inputs import Coverage
from mwzrepro.scorer.results import (
    BleuScore,
    DSTScores,
    RichnessScores,
    StateMatchScores,
    SuccessScores,
)

if TYPE_CHECKING:
    from mwzrepro.dst.params import DSTParams
    from mwzrepro.standard.inputs import PreparedDialogues
    from mwzrepro.standard.scoring import EvalResources

__all__ = ["public_signature", "with_signature_fields", "bleu_block", "success_block", "richness_block",
           "state_match_block", "score_states", "dst_block"]


def public_signature(text: str, coverage: Coverage) -> str:
    """A library signature without the system name, with ``cov`` when coverage is partial."""
    sig = Signature.parse(text).without(["system"])
    cov = coverage.signature_value()
    if cov is None:
        return sig.format()
    return Signature(sig.metric, {**sig.fields, "cov": cov}, sig.version).format()


def with_signature_fields(block: Any, fields: Mapping[str, str],
                          before_coverage: bool = True) -> Any:
    """``block`` (a result dataclass with a ``signature`` and maybe a ``fuzzy_signature``, or
    ``{setting: block}``) with ``fields`` added to its signatures, before ``cov`` (settings of
    the scorer that the library's signatures do not know: ``ph:ext``, ``alt:any``), or after
    it with ``before_coverage=False`` (:func:`mwzrepro.core.signature.add_fields`). No
    fields: ``block`` itself.

    >>> b = with_signature_fields(BleuScore(1.0, "mwz21", "BLEU|ver:mwz21|cov:x|v:0.1.0"),
    ...                           {"ph": "ext"})
    >>> b.signature
    'BLEU|ver:mwz21|ph:ext|cov:x|v:0.1.0'
    """
    from dataclasses import replace

    if not fields or block is None:
        return block
    if isinstance(block, dict):
        return {k: with_signature_fields(v, fields, before_coverage)
                for k, v in block.items()}
    changes = {a: add_fields(getattr(block, a), fields, before_coverage)
               for a in ("signature", "fuzzy_signature") if getattr(block, a, None)}
    return replace(block, **changes)


def bleu_block(preds: Mapping[str, list], references: Mapping[str, list], version: str,
               label: str, coverage: Coverage) -> BleuScore:
    """Corpus BLEU of a ``predictions`` table against the version's references (both as
    columns or DataFrames, :mod:`mwzrepro.core.columns`)."""
    from mwzrepro.bleu.score import corpus_bleu

    r = corpus_bleu(preds, references, version, label)
    return BleuScore(r.score, version, public_signature(r.signature.format(), coverage),
                     r.turns, r.statistics)


def success_block(prep: PreparedDialogues, resources: EvalResources, database: Any,
                  settings: Sequence[str], version: str, label: str, matching: str,
                  threshold: float, coverage: Coverage, memo: Any = None
                  ) -> dict[str, SuccessScores]:
    """Inform/Success rates per setting (``standard`` with ``prep``'s domains, ``optimistic``
    with the ground-truth turn domains; ``grounded`` is left to :mod:`.grounding`); ``memo``:
    as :func:`~mwzrepro.standard.scores.success_rows`'."""
    from mwzrepro.standard.scores import success_rows

    prepared = {s: prep.for_setting(s, resources.turn_domains) for s in settings
                if s != "grounded"}
    scores, per_dialogue = success_rows(label, version, prepared, resources.goals,
                                        resources.booked, database, matching, threshold,
                                        memo)
    out = {}
    for s, p in prepared.items():
        sub = [r for r in scores if r["setting"] == s]
        rates = {m: {r["key"]: float(r["value"]) for r in sub if r["metric"] == m}
                 for m in ("inform", "success")}
        out[s] = SuccessScores(s, rates["inform"], rates["success"], p.state_source,
                               p.domain_source,
                               public_signature(sub[0]["signature"], coverage),
                               tuple(per_dialogue[s]))
    return out


def richness_block(responses: list[str], label: str, window: int,
                   coverage: Coverage) -> RichnessScores:
    """Lexical richness of the normalized responses in file order (MSTTR depends on it)."""
    from mwzrepro.standard.scores import richness_rows

    rows = richness_rows(label, responses, window=window)
    values = {r["key"]: int(r["value"]) if r["key"].startswith("num_") else float(r["value"])
              for r in rows}
    return RichnessScores(values, public_signature(rows[0]["signature"], coverage))


def state_match_block(prep: PreparedDialogues, gold: Mapping[str, Any], version: str,
                      label: str, matching: str, threshold: float,
                      coverage: Coverage) -> StateMatchScores:
    """The reference evaluator's state metrics of predicted states."""
    from mwzrepro.standard.scores import state_match_rows

    rows = state_match_rows(label, version, prep, gold, matching, threshold)
    v = {r["metric"]: float(r["value"]) for r in rows}
    return StateMatchScores(v["joint_accuracy"], v["slot_f1"], v["slot_precision"],
                            v["slot_recall"], public_signature(rows[0]["signature"], coverage))


def score_states(preds: Mapping[str, list], gold: tuple[Mapping[str, Any], Any],
                 params: DSTParams | None, source: str) -> tuple[Any, Any]:
    """``(DSTRun, RunResult)``: the predicted states of ``preds`` (a ``predictions`` table,
    columns or DataFrame) scored against ``gold`` (see :func:`dst_block`) with the ``dst``
    parameters (default: their validated defaults, :func:`mwzrepro.core.params.defaults`,
    no pydantic import), spec-dst-metrics §2.6. ``RunResult.scores`` is None without
    states.

    Raises:
        DSTError: malformed states (names the file ``source``, dialogue and turn).
    """
    from mwzrepro.core.params import defaults
    from mwzrepro.dst.runs import DSTRun, score_predictions

    run = DSTRun(params or defaults("mwzrepro.dst.params:DSTParams"), "states")
    return run, score_predictions(run, gold[0], gold[1], preds, source)


def dst_block(preds: Mapping[str, list], gold: tuple[Mapping[str, Any], Any], version: str,
              label: str, source: str, params: DSTParams | None,
              coverage: Coverage) -> DSTScores | None:
    """The FGA paper's DST metrics (percent) of predicted states, with Relative Slot Accuracy
    and Granular Change Accuracy; None without states.

    Args:
        gold: ``(gold dialogues, dropped gold slot counts)`` of
            :func:`mwzrepro.dst.readers.gold.gold_from_tables`.
        params: the ``dst`` parameters (default: their defaults, as params.yaml).
    """
    run, result = score_states(preds, gold, params, source)
    if result.scores is None:
        return None
    s, fuzzy = result.scores, result.fuzzy

    def pct(x: float | None) -> float | None:
        return None if x is None else 100 * x

    return DSTScores(
        jga=100 * s.jga, sa=100 * s.sa, aga=pct(s.aga), aga_relative=pct(s.aga_relative),
        fga={repr(float(lam)): 100 * v for lam, v in s.fga.items()},
        fuzzy_jga=None if fuzzy is None else 100 * fuzzy.jga,
        dialogues=s.dialogues, turns=s.turns,
        signature=public_signature(run.signature(label, version), coverage),
        fuzzy_signature=None if fuzzy is None else public_signature(
            run.signature(label, version, run.fuzzy, "DST-fuzzy"), coverage),
        notes=tuple(result.notes), rsa=pct(s.rsa), gca=pct(s.gca),
        dropped_pred_slots=dict(result.coverage.dropped_pred_slots or {}))

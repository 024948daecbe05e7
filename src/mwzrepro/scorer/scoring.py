"""The scoring step of an evaluation: the metric blocks of one prepared input, the passes that
add to them (dialects, lexicalized text, grounding) and the typed result.

:func:`score_prepared` is what :meth:`Evaluator.evaluate
<mwzrepro.scorer.evaluator.Evaluator.evaluate>` runs after
:func:`~mwzrepro.scorer.preparation.prepare_input`, in this order: the coverage and
placeholder warnings, the dialect scan (:mod:`mwzrepro.scorer.dialects.warning_lines`), BLEU,
Inform/Success (and the grounded setting, :mod:`mwzrepro.scorer.lexicalized.grounding`),
richness, the state metrics (§13 and the FGA paper's DST metrics), the
normalization and state signature fields, the extended-placeholder pass
(:mod:`mwzrepro.scorer.dialects.placeholder_pass`) and the lex:1 signatures. Sections:
spec-standard-evaluation.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mwzrepro.core.alternatives import SIGNATURE_FIELD, has_alternatives
from mwzrepro.core.placeholders import signature_fields
from mwzrepro.scorer.blocks import (
    bleu_block,
    dst_block,
    richness_block,
    state_match_block,
    success_block,
    with_signature_fields,
)
from mwzrepro.scorer.dialects.placeholder_pass import extended_pass
from mwzrepro.scorer.dialects.warning_lines import dialect_warnings
from mwzrepro.scorer.input_drops import dropped_slots_line, placeholder_line
from mwzrepro.scorer.lexicalized.grounding import grounded_blocks
from mwzrepro.scorer.results import EvaluationResult

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext
    from mwzrepro.scorer.inputs import Coverage
    from mwzrepro.scorer.inputs import PreparedInput
    from mwzrepro.standard.inputs import PreparedDialogues

__all__ = ["score_prepared", "metric_blocks"]

log = logging.getLogger("mwzrepro")

#: Label used inside the library when no system name is given (never shown).
ANONYMOUS = "system"


def _has_alternatives(preds: Mapping[str, list]) -> bool:
    """Whether a ``predictions`` table's columns have a list-valued slot
    (:mod:`mwzrepro.core.alternatives`; its signature field)."""
    return any(isinstance(sj, str) and "[" in sj and has_alternatives(json.loads(sj))
               for sj in preds["state_json"])


def metric_blocks(ctx: ScoringContext, data: Mapping[str, Any], preds: dict[str, list],
                  prep: PreparedDialogues, label: str, coverage: Coverage,
                  source: str, links: dict[str, list] | None = None, memo: Any = None
                  ) -> dict[str, Any]:
    """The blocks of the metrics ``ctx.metrics`` asks for: ``{"bleu": ..., "success":
    {setting: InformSuccess}, "grounding": ..., "richness": ..., "dst": StateMatch,
    "dst_fga": DSTMetrics, "dst_conventions": DSTConventions}`` (percent; a block is absent
    when its metric is off, and the DST blocks when a turn has no predicted state).
    ``links``: the lex:1 links of the preparation (:class:`~mwzrepro.scorer.inputs.
    PreparedInput`), read by the grounding; ``memo``: the dialogues' Inform/Success and
    grounding figures of an earlier run, reused where they hold
    (:mod:`~mwzrepro.scorer.lexicalized.dialogue_score_memo`), or None.

    Raises:
        InputError: ``ctx.dst_conventions`` is set and a turn has no predicted state."""
    blocks: dict[str, Any] = {}
    res, cov, version = ctx.resources, coverage, ctx.version
    if ctx.metrics["bleu"]:
        blocks["bleu"] = bleu_block(preds, res.reference_columns, version, label, cov)
    if ctx.metrics["success"]:
        blocks["success"] = success_block(prep, res.eval, ctx._database(), ctx.settings,
                                          version, label, ctx.inform.matching,
                                          ctx.inform.fuzzy_threshold, cov, memo)
        if "grounded" in ctx.settings:
            blocks.update(grounded_blocks(ctx, blocks, data, prep, label, cov, source,
                                          links, memo))
    if ctx.metrics["richness"]:
        blocks["richness"] = richness_block(preds["response_norm"], label,
                                            ctx.richness_params.msttr_window, cov)
    names = getattr(ctx, "dst_conventions", None)
    if names:
        from mwzrepro.scorer.dst_conventions import conventions_block, needs_states

        if prep.state_source != "predicted":
            raise needs_states(source)
        blocks["dst_conventions"] = conventions_block(preds, res.dst_raw_gold, names, source,
                                                       cov, version)
    if ctx.metrics["dst"]:
        if prep.state_source != "predicted":
            log.info("%s: DST metrics not computed: they need a predicted state on every "
                     "turn", source)
        else:
            blocks["dst"] = state_match_block(prep, res.eval.gold, version, label,
                                              ctx.inform.matching,
                                              ctx.standard.state_match_threshold, cov)
            blocks["dst_fga"] = dst_block(preds, res.dst_gold, version, label, source,
                                          ctx._dst_params, cov)
    return blocks


def _signed(blocks: dict[str, Any], placeholders: str, preds: Mapping[str, list],
            state_fields: Mapping[str, str]) -> dict[str, Any]:
    """The blocks with the normalization's (``ph:``) and the states' signature fields."""
    norm = signature_fields(placeholders)
    states = SIGNATURE_FIELD if _has_alternatives(preds) else {}
    dst_fields = {**state_fields, **states}
    for name, fields in (("bleu", norm), ("richness", norm), ("success", {**norm, **states}),
                         ("dst", dst_fields), ("dst_fga", dst_fields)):
        if name in blocks:
            blocks[name] = with_signature_fields(blocks[name], fields)
    return blocks


def score_prepared(ctx: ScoringContext, data: Mapping[str, Any], prepared: PreparedInput,
                   system: str | None, source: str,
                   dialogue_rows: tuple[dict[str, Any], ...] | None = None,
                   memo: Any = None) -> EvaluationResult:
    """Score one prepared input into an :class:`~mwzrepro.scorer.results.EvaluationResult`
    (percent everywhere); every warning is logged once and kept in ``result.warnings``.

    ``dialogue_rows`` (one per dialogue, :meth:`Evaluator.per_dialogue
    <mwzrepro.scorer.evaluator.Evaluator.per_dialogue>`) fills ``result.dialogues``;
    ``memo``: as :func:`metric_blocks`'."""
    label = system or ANONYMOUS
    oracle = False
    preds, prep, coverage, unknown, _ = prepared
    reads_responses = any(ctx.metrics[m] for m in ("bleu", "success", "richness"))
    warnings = coverage.warnings(source, responses=reads_responses)
    deleted = placeholder_line(source, unknown)
    if deleted:
        warnings.append(deleted)
    dialect = dialect_warnings(ctx, data, preds, source)  # one scan of the input
    warnings += dialect.lines
    blocks = metric_blocks(ctx, data, preds, prep, label, coverage, source, prepared.links,
                           memo)
    blocks = _signed(blocks, ctx.standard.placeholders, preds, dialect.state_fields)
    caveats = [] if dialect.lexicalized is None else [
        f"NOT THE FILE'S SCORE: its responses look lexicalized and are scored here as "
        f"delexicalized text (see the line on stderr): {dialect.lexicalized}"]
    extended = None
    if ctx.standard.placeholders == "reference" and (ctx.metrics["bleu"]
                                                     or ctx.metrics["success"]):
        extended = extended_pass(ctx, preds, prep, label, coverage, blocks, dialect.has_unknown)
        if extended is not None:
            warnings.append(extended.line(source))
    if ctx.lexicalized:
        from mwzrepro.scorer.lexicalized.delexicalize_pass import (
            lex_state_source,
            lex_value,
            lex_warnings,
            oracle_line,
            with_lex_signatures,
        )

        state_source = lex_state_source(data)
        blocks = with_lex_signatures(blocks, lex_value(state_source))
        warnings += lex_warnings(ctx.domain_source, source)
        settings = blocks.get("success", {})
        oracle = state_source == "gold" and any(s != "grounded" for s in settings)
        if oracle:
            caveats.append(oracle_line(source, "grounded" in settings))
    dropped = blocks.get("dst_fga") and dropped_slots_line(source,
                                                           blocks["dst_fga"].dropped_pred_slots)
    if dropped:
        warnings.append(dropped)
    if dialogue_rows is not None:
        blocks["dialogues"] = dialogue_rows
    for w in warnings:
        log.warning("%s", w)
    return EvaluationResult(system or "", ctx.version, source, coverage,
                            warnings=tuple(warnings), caveats=tuple(caveats),
                            oracle_states=oracle,
                            unknown_placeholders=dict(sorted(unknown.items())),
                            placeholders=ctx.standard.placeholders,
                            placeholders_extended=extended, **blocks)

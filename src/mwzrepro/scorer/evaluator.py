"""The Python API of the scorer: :class:`Evaluator`, the reference evaluator's interface
(``Evaluator(bleu, success, richness, dst).evaluate(predictions)``) over this package's
library — the same functions the workflow's ``score-*`` phases call, so the numbers are the
workflow's.

Example (needs the data, fetched and cached on first use; see :mod:`mwzrepro.scorer.resources`)::

    from mwzrepro import Evaluator
    e = Evaluator(bleu=True, success=True, richness=True, dst=True)
    result = e.evaluate(predictions)          # {dialogue id: [{"response": ..., ...}, ...]}
    result.to_dict()["success"]["inform"]["total"]

What differs from the reference evaluator's API: the input is never modified; ids may be
upper-case or end in ``.json``; unknown ids, extra turns and malformed turns are one-line
errors (:class:`~mwzrepro.core.errors.InputError`); missing dialogues are scored on the rest
and dialogues with fewer turns on their prefix, with a loud warning and the coverage in the
signatures (an error with ``strict``); results are typed (:mod:`mwzrepro.scorer.results`), in
percent everywhere — mapping access (``result["success"]``) and ``to_dict(units="mwzeval")``
give the reference's own object and units; ``dst`` also gives the FGA paper's DST metrics;
with ``dst`` and no states the DST blocks are None (the reference returns zeros); BLEU is
keyed by the version (``{"mwz21": ...}``; ``{"mwz22": ...}`` as the reference with
``version="mwz22"``).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.gc_pause import paused_gc
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
from mwzrepro.scorer.dialect_warnings import dialect_warnings
from mwzrepro.scorer.inputs import (
    ACCEPTED_SHAPES,
    Coverage,
    check_turns,
    coverage_of,
    read_shape,
)
from mwzrepro.scorer.grounding import grounded_blocks, settings_of
from mwzrepro.scorer.placeholder_pass import extended_pass
from mwzrepro.scorer.prediction_file import read_predictions
from mwzrepro.scorer.results import EvaluationResult

if TYPE_CHECKING:
    from mwzrepro.dst.params import DSTParams
    from mwzrepro.standard.inputs import PreparedDialogues
    from mwzrepro.standard.trace import DialogueTrace

__all__ = ["Evaluator", "SETTINGS", "read_predictions"]

log = logging.getLogger("mwzrepro")

#: Inform/Success settings of :class:`Evaluator` (``both`` = standard and optimistic).
SETTINGS = ("standard", "optimistic", "both", "grounded", "all")

#: Label used inside the library when no system name is given (never shown).
_ANONYMOUS = "system"


def _has_alternatives(preds: Mapping[str, list]) -> bool:
    """Whether a ``predictions`` table's columns have a list-valued slot
    (:mod:`mwzrepro.core.alternatives`; its signature field)."""
    return any(isinstance(sj, str) and "[" in sj and has_alternatives(json.loads(sj))
               for sj in preds["state_json"])


class Evaluator:
    """Score prediction files of the MultiWOZ test set (spec-standard-evaluation).

    Args:
        bleu, success, richness, dst: which metrics to compute (the reference evaluator's
            flags; ``dst`` adds its state metrics and the FGA paper's, when every turn has a
            state).
        version: dataset version of the references, goals and gold states (``mwz20``,
            ``mwz21``, ``mwz22``).
        setting: ``standard``, ``optimistic``, ``both``, ``grounded`` or ``all`` (Inform/Success).
        domain_source: active domains of the standard setting: ``auto`` (the reference
            evaluator's rule), ``provided``, ``estimated``, ``slot-names`` (spec §8).
        matching, fuzzy_threshold: database fuzzy matching (params block ``inform``).
        state_match_threshold: threshold of the reference's state metrics (block
            ``standard``).
        msttr_window: MSTTR window of the richness metrics (block ``richness``).
        dst_params: settings of the FGA-paper metrics (block ``dst``; default: its defaults).
        placeholders: placeholder vocabulary of the response normalization (block
            ``standard``): ``reference`` (§3.2) or ``extended``
            (:mod:`mwzrepro.core.placeholders`; signature field ``ph:ext``). Under
            ``reference``, placeholders only ``extended`` maps give a second pass
            (:mod:`mwzrepro.scorer.placeholder_pass`, ``result.placeholders_extended``).
        allow_missing_turns: score dialogues with fewer turns than the test set on their
            prefix, with a loud warning and the coverage in the signatures, as the reference
            evaluator scores them (default); False makes them an error.
        strict: anything below full coverage (missing dialogues or turns) is an error.
        lexicalized: delexicalize every response first (:mod:`mwzrepro.scorer.lexicalized`;
            signatures gain ``lex:<version>-<pred|gold>``).
        cache_dir, mirror, registry: where resources are cached and fetched from
            (:func:`mwzrepro.scorer.resources.load_resources`).
        progress: progress bars while building resources (None: only on a terminal).

    Construction loads (on first use: fetches and builds) the version's resources; settings
    are checked before that:

    >>> Evaluator(setting="lenient")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mwzrepro.core.errors.ConfigError: setting must be one of standard, ..., got 'lenient'

    Raises:
        ConfigError: an invalid setting (names it).
        DownloadError, IngestError: resources cannot be fetched or built.
    """

    def __init__(self, bleu: bool = True, success: bool = True, richness: bool = True,
                 dst: bool = False, version: str = "mwz21", setting: str = "standard", *,
                 domain_source: str = "auto", matching: str = "reference",
                 fuzzy_threshold: float = 90, state_match_threshold: float = 95,
                 msttr_window: int = 50, dst_params: DSTParams | None = None,
                 placeholders: str = "reference",
                 allow_missing_turns: bool = True, strict: bool = False,
                 lexicalized: bool = False,
                 cache_dir: str | Path | None = None, mirror: str | Path | None = None,
                 registry: str | Path | None = None, progress: bool | None = None) -> None:
        from mwzrepro.core.params import checked
        from mwzrepro.scorer.resources import load_resources
        from mwzrepro.standard.active_domains import SYSTEM_DOMAIN_SOURCES

        params = "mwzrepro.standard.params:"  # by name: defaults without pydantic (checked)

        if setting not in SETTINGS:
            raise ConfigError(f"setting must be one of {', '.join(SETTINGS)}, got {setting!r}")
        if domain_source not in SYSTEM_DOMAIN_SOURCES:
            raise ConfigError(f"domain_source must be one of {', '.join(SYSTEM_DOMAIN_SOURCES)}"
                              f", got {domain_source!r}")
        self.inform = checked(params + "InformParams", {"matching": matching,
                                                        "fuzzy_threshold": fuzzy_threshold},
                              "inform")
        self.standard = checked(params + "StandardParams",
                                {"state_match_threshold": state_match_threshold,
                                 "placeholders": placeholders}, "standard")
        self.richness_params = checked(params + "RichnessParams",
                                       {"msttr_window": msttr_window}, "richness")
        self._dst_params = dst_params
        self.metrics = {"bleu": bleu, "success": success, "richness": richness, "dst": dst}
        self.version = version
        self.settings = settings_of(setting, lexicalized)
        self.domain_source = domain_source
        self.allow_missing_turns = allow_missing_turns
        self.strict = strict
        self.lexicalized = lexicalized
        self.resources = load_resources(version, cache_dir, mirror, registry, progress)

    # -- public API ---------------------------------------------------------------------

    def evaluate(self, predictions: Mapping[str, Any], system: str | None = None,
                 source: str = "<predictions>", per_dialogue: bool = False
                 ) -> EvaluationResult:
        """Score one system's predictions (the reference evaluator's input format, spec §2).

        Args:
            predictions: ``{dialogue id: [{"response": str, "state": {...} (optional),
                "active_domains": [...] (optional)}, ...]}``; never modified.
            system: label of the system (the ``system`` field; not in the signatures).
            source: file label for messages.
            per_dialogue: also fill ``result.dialogues`` with one row per dialogue
                (:meth:`per_dialogue`).

        Returns:
            :class:`~mwzrepro.scorer.results.EvaluationResult`.

        Raises:
            InputError: degenerate input, unknown ids, wrong turn counts, malformed turns,
                partial coverage under ``strict`` (one line naming the file and dialogues).
        """
        with paused_gc():
            return self._run(predictions, system, source, per_dialogue)

    def evaluate_file(self, path: str | Path, system: str | None = None) -> EvaluationResult:
        """:meth:`evaluate` on a JSON file; ``system`` defaults to the file's stem."""
        p = Path(path)
        with paused_gc():
            return self.evaluate(read_predictions(p), system or p.stem, p.name)

    def per_dialogue(self, predictions: Mapping[str, Any], setting: str | None = None,
                     source: str = "<predictions>") -> list[dict[str, Any]]:
        """One row per scored dialogue (:func:`mwzrepro.standard.trace.dialogue_row`):
        Inform and Success per goal domain, offered and goal venue ids, requested and
        provided slots, in ``setting`` (default: the first of the evaluator's settings).

        Raises:
            InputError: as :meth:`evaluate`.
        """
        return self._dialogue_rows(self._prepare(predictions, source)[1], setting)

    def explain(self, predictions: Mapping[str, Any], dialogue_id: str,
                setting: str | None = None, source: str = "<predictions>") -> DialogueTrace:
        """The Inform/Success trace of one dialogue (the paper's Appendix A, Table 7):
        :class:`mwzrepro.standard.trace.DialogueTrace` with user utterances and the
        ground-truth responses.

        Raises:
            InputError: as :meth:`evaluate`; the dialogue is not in the predictions.
        """
        from mwzrepro.core.ids import canonical_dialogue_id

        prep = self._prepare(predictions, source)[1]
        did = canonical_dialogue_id(dialogue_id)
        if did not in prep.dialogues:
            raise InputError(f"{source}: dialogue {dialogue_id} is not in the predictions")
        return self._trace(prep, did, setting, context=True)

    def compare(self, a: Mapping[str, Any], b: Mapping[str, Any], params: Any = None,
                names: tuple[str, str] = ("A", "B")) -> list[Any]:
        """Compare two systems (A − B) on Inform, Success (first setting), BLEU and, with
        ``dst=True`` and a state on every turn of both, JGA and FGA(λ), with a paired bootstrap
        over the test dialogues (:func:`mwzrepro.stats.compare.compare`; ``mwzrepro compare``
        from a shell).

        ``a``, ``b``: prediction mappings; ``params``: :class:`mwzrepro.stats.params.StatsParams`
        (default: its defaults); ``names``: labels for messages. Returns ``[MetricComparison,
        ...]`` (``.as_dict()`` gives JSON-ready rows)."""
        from mwzrepro.scorer.compare import compare_predictions

        return compare_predictions(self, a, b, params, names)

    def evaluate_many(self, systems: Mapping[str, Any], **options: Any) -> Any:
        """Score ``{name: predictions or file path}`` in one call (the first is the baseline):
        :func:`mwzrepro.scorer.leaderboard.evaluate_many` (options, the table's columns and
        units, errors) gives a ``Leaderboard`` (``.table`` DataFrame, ``.results`` per row)."""
        from mwzrepro.scorer.leaderboard import evaluate_many

        return evaluate_many(self, systems, **options)

    # -- steps ----------------------------------------------------------------------------

    def _prepare(self, data: Mapping[str, Any], source: str
                 ) -> tuple[dict[str, list], PreparedDialogues, Coverage, Counter]:
        """Validate, normalize and prepare the scorer input; never modifies ``data``. The
        ``predictions`` table comes as columns (:func:`mwzrepro.prepare.predictions.
        prediction_columns`)."""
        try:
            with paused_gc():
                return self._prepare_checked(data, source)
        except RecursionError:
            raise InputError(f"{source}: nested too deeply to be a prediction file; "
                             f"{ACCEPTED_SHAPES}") from None

    def _prepare_checked(self, data: Mapping[str, Any], source: str
                         ) -> tuple[dict[str, list], PreparedDialogues, Coverage, Counter]:
        from mwzrepro.prepare.predictions import prediction_columns
        from mwzrepro.standard.inputs import prepare_predictions

        data, shape = read_shape(data, source)
        if shape == "legacy":
            log.info("%s: legacy generation file {\"ID.json\": [\"response\", ...]}: %d "
                     "dialogue(s) read as responses without states", source, len(data))
        expected = self.resources.expected
        truncated = check_turns(data, expected, source, self.allow_missing_turns)
        if self.lexicalized:
            from mwzrepro.scorer.lexicalized import delexicalize_predictions

            data, _ = delexicalize_predictions(data, self.resources)
        unknown: Counter[str] = Counter()
        preds, _ = prediction_columns(dict(data), expected, source, allow_missing_turns=True,
                                      unknown_placeholders=unknown,
                                      placeholders=self.standard.placeholders)
        counts = dict(Counter(preds["dialogue_id"]))  # first-appearance order
        coverage = coverage_of(counts, preds["response"], expected,
                               [d for d in truncated if d in counts])
        if self.strict and not coverage.complete:
            short = (f" (fewer turns: {', '.join(coverage.truncated_dialogues[:10])})"
                     if coverage.truncated_dialogues else "")
            raise InputError(f"{source}: coverage is {coverage.signature_value()}{short} and "
                             "--strict (strict=True) requires every test dialogue and turn")
        order = list(counts)
        ev = self.resources.eval
        prep = prepare_predictions(preds, ev.gold, self.domain_source, ev.turn_domains, order,
                                   where=source)
        return preds, prep, coverage, unknown

    def _dialogue_rows(self, prep: PreparedDialogues,
                       setting: str | None) -> list[dict[str, Any]]:
        from mwzrepro.standard.trace import dialogue_row

        return [dialogue_row(self._trace(prep, did, setting)) for did in prep.dialogues]

    def _run(self, data: Mapping[str, Any], system: str | None, source: str,
             per_dialogue: bool = False) -> EvaluationResult:
        label = system or _ANONYMOUS
        preds, prep, coverage, unknown = self._prepare(data, source)
        warnings = coverage.warnings(source)
        if unknown:
            warnings.append(f"{source}: unknown placeholders deleted by normalization "
                            f"(spec §3): {dict(sorted(unknown.items()))}")
        dialect = dialect_warnings(self, data, preds, source)  # issue 28: one scan
        warnings += dialect.lines
        blocks: dict[str, Any] = {}
        res, cov, version = self.resources, coverage, self.version
        if self.metrics["bleu"]:
            blocks["bleu"] = bleu_block(preds, res.reference_columns, version, label, cov)
        if self.metrics["success"]:
            blocks["success"] = success_block(prep, res.eval, self._database(), self.settings,
                                              version, label, self.inform.matching,
                                              self.inform.fuzzy_threshold, cov)
            if "grounded" in self.settings:
                blocks.update(grounded_blocks(self, blocks, data, prep, label, cov, source))
        if self.metrics["richness"]:
            blocks["richness"] = richness_block(preds["response_norm"], label,
                                                self.richness_params.msttr_window, cov)
        if self.metrics["dst"]:
            if prep.state_source != "predicted":
                log.info("%s: DST metrics not computed: they need a predicted state on every "
                         "turn", source)
            else:
                blocks["dst"] = state_match_block(prep, res.eval.gold, version, label,
                                                  self.inform.matching,
                                                  self.standard.state_match_threshold, cov)
                blocks["dst_fga"] = dst_block(preds, res.dst_gold, version, label, source,
                                              self._dst_params, cov)
        norm = signature_fields(self.standard.placeholders)
        states = SIGNATURE_FIELD if _has_alternatives(preds) else {}
        dst_fields = {**dialect.state_fields, **states}
        for name, fields in (("bleu", norm), ("richness", norm), ("success", {**norm, **states}),
                             ("dst", dst_fields), ("dst_fga", dst_fields)):
            if name in blocks:
                blocks[name] = with_signature_fields(blocks[name], fields)
        extended = None
        if self.standard.placeholders == "reference" and (self.metrics["bleu"]
                                                          or self.metrics["success"]):
            extended = extended_pass(self, preds, prep, label, coverage, blocks,
                                     dialect.has_unknown)
            if extended is not None:
                warnings.append(extended.line(source))
        if self.lexicalized:
            from mwzrepro.scorer.lexicalized import (
                lex_state_source,
                lex_value,
                lex_warnings,
                with_lex_signatures,
            )

            blocks = with_lex_signatures(blocks, lex_value(lex_state_source(data)))
            warnings += lex_warnings(self.domain_source, source)
        if per_dialogue:
            blocks["dialogues"] = tuple(self._dialogue_rows(prep, None))
        for w in warnings:
            log.warning("%s", w)
        return EvaluationResult(system or "", self.version, source, coverage,
                                warnings=tuple(warnings),
                                unknown_placeholders=dict(sorted(unknown.items())),
                                placeholders=self.standard.placeholders,
                                placeholders_extended=extended, **blocks)

    def _database(self):
        return self.resources.database(self.inform.matching, self.inform.fuzzy_threshold)

    def _trace(self, prep: PreparedDialogues, did: str, setting: str | None,
               context: bool = False) -> DialogueTrace:
        from mwzrepro.standard.trace import trace_dialogue

        setting = setting or self.settings[0]
        if setting not in ("standard", "optimistic"):
            raise ConfigError(f"setting must be standard or optimistic, got {setting!r}")
        ev = self.resources.eval
        d = prep.for_setting(setting, ev.turn_domains).dialogues[did]
        user = refs = None
        if context:
            user = self.resources.user_utterances(did)
            r = self.resources.reference_columns
            refs = [ref for _, ref in sorted(
                (turn, ref) for d, turn, ref in zip(r["dialogue_id"], r["turn"], r["reference"])
                if d == did)]
        return trace_dialogue(did, ev.goals[did], ev.booked[did], d["responses"], d["states"],
                              d["active_domains"], self._database(), setting, user, refs)

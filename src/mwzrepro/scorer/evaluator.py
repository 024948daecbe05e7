"""The Python API of the scorer: :class:`Evaluator`, the reference evaluator's interface
(``Evaluator(bleu, success, richness, dst).evaluate(predictions)``) over this package's
library — the same functions the workflow's ``score-*`` phases call, so the numbers are the
workflow's.

Example (needs the data, fetched and cached on first use; see
:mod:`mwzrepro.scorer.resources.load`)::

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

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.gc_pause import paused_gc
from mwzrepro.scorer.dialogue_traces import dialogue_rows, trace_of
from mwzrepro.scorer.lexicalized.grounding import settings_of
from mwzrepro.scorer.prediction_file import read_predictions
from mwzrepro.scorer.preparation import PreparedInput, prepare_input
from mwzrepro.scorer.results import EvaluationResult
from mwzrepro.scorer.scoring import score_prepared

if TYPE_CHECKING:
    from mwzrepro.dst.params import DSTParams
    from mwzrepro.standard.inputs import PreparedDialogues
    from mwzrepro.standard.trace import DialogueTrace

__all__ = ["Evaluator", "SETTINGS", "read_predictions"]

log = logging.getLogger("mwzrepro")

#: Inform/Success settings of :class:`Evaluator` (``both`` = standard and optimistic).
SETTINGS = ("standard", "optimistic", "both", "grounded", "all")

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
            (:mod:`mwzrepro.scorer.dialects.placeholder_pass`, ``result.placeholders_extended``).
        allow_missing_turns: score dialogues with fewer turns than the test set on their
            prefix, with a loud warning and the coverage in the signatures, as the reference
            evaluator scores them (default); False makes them an error.
        strict: anything below full coverage (missing dialogues or turns) is an error.
        lexicalized: delexicalize every response first
            (:mod:`mwzrepro.scorer.lexicalized.delexicalize_pass`;
            signatures gain ``lex:<version>-<pred|gold>``).
        dst_convention: a DST scoring preset (``fga``, ``mwzeval``, ``simpletod``,
            ``simpletod-original``, ``trade``, ``convlab3``;
            :mod:`mwzrepro.dst.conventions.presets`) or
            ``all``: the result gains a ``dst_conventions`` block (JGA, SA and signature per
            preset); the input must have a predicted state on every turn (else an
            :class:`InputError`).
        cache_dir, mirror, registry: where resources are cached and fetched from
            (:func:`mwzrepro.scorer.resources.load.load_resources`).
        progress: progress bars while building resources (None: only on a terminal).

    Construction loads (on first use: fetches and builds) the version's resources; settings
    are checked before that:

    >>> Evaluator(setting="lenient")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mwzrepro.core.errors.ConfigError: setting must be one of standard, ..., got 'lenient'

    Raises:
        ConfigError: an invalid setting or DST convention (names it).
        DownloadError, IngestError: resources cannot be fetched or built.
    """

    def __init__(self, bleu: bool = True, success: bool = True, richness: bool = True,
                 dst: bool = False, version: str = "mwz21", setting: str = "standard", *,
                 domain_source: str = "auto", matching: str = "reference",
                 fuzzy_threshold: float = 90, state_match_threshold: float = 95,
                 msttr_window: int = 50, dst_params: DSTParams | None = None,
                 placeholders: str = "reference",
                 allow_missing_turns: bool = True, strict: bool = False,
                 lexicalized: bool = False, dst_convention: str | None = None,
                 cache_dir: str | Path | None = None, mirror: str | Path | None = None,
                 registry: str | Path | None = None, progress: bool | None = None) -> None:
        from mwzrepro.core.params import checked
        from mwzrepro.scorer.resources.load import load_resources
        from mwzrepro.standard.active_domains import SYSTEM_DOMAIN_SOURCES

        params = "mwzrepro.standard.params:"  # by name: defaults without pydantic (checked)

        if setting not in SETTINGS:
            raise ConfigError(f"setting must be one of {', '.join(SETTINGS)}, got {setting!r}")
        if domain_source not in SYSTEM_DOMAIN_SOURCES:
            raise ConfigError(f"domain_source must be one of {', '.join(SYSTEM_DOMAIN_SOURCES)}"
                              f", got {domain_source!r}")
        from mwzrepro.scorer.dst_conventions import convention_names

        self.dst_conventions = convention_names(dst_convention) if dst_convention else None
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

    def evaluate_conversations(self, conversations: Any, source: str = "<conversations>",
                               conversation_format: str = "multiwoz", ci: bool = False,
                               traces: dict[str, Any] | None = None) -> Any:
        """Score conversations of any length against their goals (the conversation setting,
        :mod:`mwzrepro.standard.conversation`; input form :mod:`mwzrepro.scorer.lexicalized.
        conversation_input`: a parsed list of records, one record, or a file path).

        Args:
            conversations: ``[{"dialogue_id", "turns": [{"user", "system"}, ...], "goal"
                (optional)}, ...]``, one such record, or the path of a JSON / JSON Lines file.
            source: file label for messages.
            conversation_format: ``multiwoz`` (the form above) or ``autotod`` (AutoTOD's
                records).
            ci: bootstrap intervals (percent) over conversations.
            traces: when given, filled with each conversation's turn-by-turn record
                (``{dialogue id: {"outcome", "users", "systems", ...}}``, what ``mwzrepro
                explain`` prints; :func:`~mwzrepro.scorer.lexicalized.conversations.
                score_conversations`).

        Returns:
            :class:`~mwzrepro.scorer.lexicalized.conversations.ConversationScores` (with
            ``ci``: bootstrap intervals over conversations).

        Raises:
            InputError: a malformed record, turn or goal, or an unknown dialogue id without
                goal (one line naming the record and turn), before any scoring.
        """
        from mwzrepro.scorer.lexicalized.conversations import run_conversations

        return run_conversations(self, conversations, source, conversation_format, ci, traces)

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
        from mwzrepro.scorer.leaderboard.compare import compare_predictions

        return compare_predictions(self, a, b, params, names)

    def evaluate_many(self, systems: Mapping[str, Any], **options: Any) -> Any:
        """Score ``{name: predictions or file path}`` in one call (the first is the baseline):
        :func:`mwzrepro.scorer.leaderboard.evaluate_many.evaluate_many` (options, the table's
        columns and units, errors) gives a ``Leaderboard`` (``.table`` DataFrame, ``.results`` per
        row)."""
        from mwzrepro.scorer.leaderboard.evaluate_many import evaluate_many

        return evaluate_many(self, systems, **options)

    # -- steps (the modules that do the work) ------------------------------------------

    def _prepare(self, data: Mapping[str, Any], source: str) -> PreparedInput:
        """:func:`mwzrepro.scorer.preparation.prepare_input` with this evaluator's settings."""
        return prepare_input(data, source, self.resources,
                             allow_missing_turns=self.allow_missing_turns, strict=self.strict,
                             lexicalized=self.lexicalized,
                             placeholders=self.standard.placeholders,
                             domain_source=self.domain_source)

    def _dialogue_rows(self, prep: PreparedDialogues,
                       setting: str | None) -> list[dict[str, Any]]:
        return dialogue_rows(self, prep, setting)

    def _run(self, data: Mapping[str, Any], system: str | None, source: str,
             per_dialogue: bool = False) -> EvaluationResult:
        prepared = self._prepare(data, source)
        rows = tuple(dialogue_rows(self, prepared.prep, None)) if per_dialogue else None
        return score_prepared(self, data, prepared, system, source, rows)

    def _database(self):
        return self.resources.database(self.inform.matching, self.inform.fuzzy_threshold)

    def _trace(self, prep: PreparedDialogues, did: str, setting: str | None,
               context: bool = False) -> DialogueTrace:
        return trace_of(self, prep, did, setting, context)

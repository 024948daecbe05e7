"""The grounded setting in the scorer: ``Evaluator(lexicalized=True,
setting="grounded")`` and ``mwzrepro score --lexicalized --setting grounded`` add the
``grounded`` Inform/Success block (:mod:`mwzrepro.standard.grounded`) and the ``grounding``
block (:mod:`mwzrepro.standard.grounding_metrics`): attribute accuracy (total and per slot,
with counts), unknown venues (with examples) and entity F1 against the corpus's own
lexicalized responses.

Settings: ``grounded`` alone, or ``all`` (standard, optimistic, grounded). Both need
lexicalized text: without ``lexicalized=True`` the evaluator refuses the setting
(:func:`settings_of`), and a file whose responses hold more placeholders than linked values
(a delexicalized file) is refused before anything is written (:func:`check_lexicalized`).

The grounding block's signature: ``Grounding|ver:mwz21|split:test|ref:db+corpus-text|state:
<pred|gold>|match:<mode>|thr:<threshold>|lex:<rule>-<pred|gold>|v:<version>``.

>>> settings_of("all", True)
('standard', 'optimistic', 'grounded')
>>> settings_of("grounded", False)
Traceback (most recent call last):
...
mwzrepro.core.errors.ConfigError: setting grounded needs lexicalized text: grounding checks the venues and values the responses give; pass lexicalized=True (mwzrepro score --lexicalized)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.core.signature import Signature

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext
    from mwzrepro.scorer.inputs import Coverage
    from mwzrepro.standard.inputs import PreparedDialogues

__all__ = ["GroundingScores", "GROUNDING_FILE", "settings_of", "check_lexicalized",
           "link_predictions", "user_named", "reference_values", "grounding_tables_of",
           "grounded_blocks"]

log = logging.getLogger("mwzrepro")

#: ``setting`` values of the evaluator → the settings scored, in order.
SETTING_GROUPS = {"both": ("standard", "optimistic"),
                  "all": ("standard", "optimistic", "grounded")}


@dataclass(frozen=True)
class GroundingScores:
    """The ``grounding`` block (percent; counts as integers).

    Attributes:
        attribute_accuracy: ``{"total": percent or None, "correct": n, "count": n,
            "per_slot": {slot: {"accuracy", "correct", "count"}}}``.
        unknown_venues: ``{"count": n, "examples": [phrase, ...] (first 10)}``.
        entity_f1: ``{"f1", "precision", "recall" (percent), "tp", "fp", "fn"}``.
        signature: the settings behind the numbers.
    """

    attribute_accuracy: dict[str, Any]
    unknown_venues: dict[str, Any]
    entity_f1: dict[str, Any]
    signature: str
    #: The attribute checks behind ``attribute_accuracy`` (``(dialogue id, turn, check)``,
    #: :func:`mwzrepro.standard.grounding_metrics.corpus_attribute_checks`; not in
    #: :meth:`to_dict`): the round trip's filled attribute accuracy reads them.
    checks: tuple[tuple[str, int, dict[str, Any]], ...] = field(default=(), repr=False,
                                                                compare=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {"attribute_accuracy": self.attribute_accuracy,
                "unknown_venues": self.unknown_venues, "entity_f1": self.entity_f1}


def settings_of(setting: str, lexicalized: bool) -> tuple[str, ...]:
    """The settings an evaluator scores for its ``setting`` argument (module docstring).

    Raises:
        ConfigError: ``grounded`` (or ``all``) without lexicalized text.
    """
    settings = SETTING_GROUPS.get(setting, (setting,))
    if "grounded" in settings and not lexicalized:
        raise ConfigError("setting grounded needs lexicalized text: grounding checks the "
                          "venues and values the responses give; pass lexicalized=True "
                          "(mwzrepro score --lexicalized)")
    return settings


def link_predictions(data: Mapping[str, Any], resources: Any, source: str | None = None
                     ) -> dict[str, list[Any]]:
    """``{canonical dialogue id: [LinkedResponse per turn]}`` of a prediction mapping, linked
    by lex:1 with the states of ``source`` (``pred``/``gold``; default: the state source of
    :func:`mwzrepro.scorer.lexicalized.delexicalize_pass.lex_state_source` for ``data``)."""
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalize_predictions

    links: dict[str, list[Any]] = {}
    delexicalize_predictions(data, resources, source, links=links)
    return links


def check_lexicalized(links: Mapping[str, list[Any]], source: str) -> None:
    """Refuse a delexicalized file under the grounded setting.

    Raises:
        InputError: the responses hold more placeholders (``[restaurant_name]``) than values
            the rule linked or read (counts excluded; rule 3 of
            :mod:`mwzrepro.scorer.lexicalized.form_measure`) — one line naming the file.
    """
    from mwzrepro.scorer.lexicalized.form_measure import (
        measure_form,
        too_few_values_for_grounding,
    )

    measure = measure_form((), links=[r for turns in links.values() for r in turns])
    if too_few_values_for_grounding(measure):
        raise InputError(f"{source}: setting grounded needs lexicalized text, but the responses "
                         f"hold {measure.placeholders} placeholders and "
                         f"{measure.linked_values} values (a delexicalized file): score it "
                         "without --setting grounded")


#: The grounding tables inside a resource set prepared by the pipeline (``grounded-inputs``;
#: not in the set's manifest): the per-user cache keeps its own copy under ``grounding/``.
GROUNDING_FILE = "grounding.json"


@lru_cache(maxsize=2)
def _stored_tables(resources: Any) -> dict[str, Any]:
    """``{"user_named", "reference_values"}`` of a resource set as stored: read from the set
    (:data:`GROUNDING_FILE`) or the cache, else built and stored in the cache."""
    import json

    from mwzrepro.core.io import write_text
    from mwzrepro.scorer.resources.stored_results import code_digest

    directory = resources.directory
    path = directory / GROUNDING_FILE
    if not path.is_file():
        path = (directory.parents[2] / "grounding"
                / f"{resources.version}-{directory.name}-{code_digest()[:16]}.json")
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    stored = _build_tables(resources)
    try:
        write_text(json.dumps(stored), path)    # in the order built (grounding_tables_of)
    except OSError as exc:      # a read-only cache: computed each time
        log.info("grounding tables not stored (%s)", exc)
    return stored


@lru_cache(maxsize=2)
def _grounding_tables(resources: Any
                      ) -> tuple[dict[str, list], dict[tuple[str, int], set]]:
    """``(user_named, reference_values)`` of a resource set (:func:`user_named`)."""
    stored = _stored_tables(resources)
    values = {(did, t): {tuple(v) for v in turn}
              for did, turns in stored["reference_values"].items()
              for t, turn in enumerate(turns)}
    return stored["user_named"], values


def grounding_tables_of(resources: Any) -> str:
    """The JSON text of :func:`user_named` and :func:`reference_values` of a resource set
    (``{"user_named": {dialogue id: [{domain: [entity id, ...]} per turn]},
    "reference_values": {dialogue id: [[[slot, value], ...] per turn]}}``, in the order
    built: the order of a turn's domains is the order the round trip's fill reads them), as
    the pipeline's ``grounded-inputs`` step stores it in the set it prepares
    (:data:`GROUNDING_FILE`, read before the per-user cache's copy)."""
    import json

    return json.dumps(_stored_tables(resources), ensure_ascii=False)


def _build_tables(resources: Any) -> dict[str, Any]:
    from mwzrepro.scorer.lexicalized.grounded_table import corpus_text
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalizer_of
    from mwzrepro.standard.grounded import named_venues
    from mwzrepro.standard.grounding_metrics import entity_values

    delex = delexicalizer_of(resources)
    users = {did: [named_venues(delex.link(text).spans) for text in
                   resources.user_utterances(did)] for did in resources.eval.goals}
    links = link_predictions(corpus_text(resources), resources, "gold")
    values = {did: [sorted(entity_values(r.spans)) for r in turns]
              for did, turns in links.items()}
    return {"user_named": users, "reference_values": values}


def user_named(resources: Any) -> dict[str, list[dict[str, list[str]]]]:
    """``{dialogue id: [{domain: [entity id, ...]} per turn]}``: the venues each user
    utterance of the test set names (lex:1 links, no state). Built once per resource set and
    package code, and stored beside the resources (``<cache>/grounding/``), with
    :func:`reference_values`."""
    return _grounding_tables(resources)[0]


def reference_values(resources: Any) -> dict[tuple[str, int], set]:
    """``{(dialogue id, turn): entity values}`` of the corpus's own lexicalized responses
    (linked with the gold state; stored as :func:`user_named`)."""
    return _grounding_tables(resources)[1]


def grounded_blocks(ctx: ScoringContext, blocks: Mapping[str, Any], data: Mapping[str, Any],
                    prep: PreparedDialogues, label: str, coverage: Coverage, source: str,
                    links: Mapping[str, list[Any]] | None = None, memo: Any = None
                    ) -> dict[str, Any]:
    """``{"success": the success blocks with "grounded" in the evaluator's order,
    "grounding": GroundingScores}`` of one evaluation (signatures without ``lex``; the
    evaluator adds it to every block). ``links``: :func:`link_predictions` of ``data`` when
    the preparation already linked it (linked here otherwise); ``memo``: each dialogue's
    figures of an earlier run where they hold (:mod:`.dialogue_score_memo`), or None.

    Raises:
        InputError: a delexicalized file (:func:`check_lexicalized`).
    """
    from mwzrepro.scorer.blocks import public_signature
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalizer_of, lex_state_source
    from mwzrepro.scorer.results import SuccessScores
    from mwzrepro.standard.grounded import grounded_dialogue_rows
    from mwzrepro.standard.grounding_metrics import corpus_grounding
    from mwzrepro.standard.inform_success import rates_of_rows
    from mwzrepro.standard.scores import success_signature

    links = links if links is not None else link_predictions(data, ctx.resources)
    check_lexicalized(links, source)
    spans = {did: [r.spans for r in links[did]] for did in prep.dialogues}
    ev, db = ctx.resources.eval, ctx._database()
    matching, threshold = ctx.inform.matching, ctx.inform.fuzzy_threshold
    users = user_named(ctx.resources)
    rates = rates_of_rows(grounded_dialogue_rows(prep.dialogues, spans, ev.goals, ev.booked,
                                                 db, users, memo))
    sig = success_signature(label, ctx.version, prep.state_source, prep.domain_source,
                            "grounded", matching, threshold).format()
    grounded = SuccessScores("grounded", rates["inform"], rates["success"], prep.state_source,
                             prep.domain_source, public_signature(sig, coverage))
    success = {s: grounded if s == "grounded" else blocks["success"][s] for s in ctx.settings}
    raw = {canonical_dialogue_id(k): [t.get("response", "") if isinstance(t, Mapping) else ""
                                      for t in v]
           for k, v in data.items() if isinstance(v, list)}
    checks: list[tuple[str, int, dict[str, Any]]] = []
    figures, unknown = corpus_grounding(prep.dialogues, links, raw, db,
                                        delexicalizer_of(ctx.resources).lexicon,
                                        reference_values(ctx.resources), users, checks,
                                        memo)
    for phrase in unknown[:10]:
        log.info("%s: unknown venue (no database venue of that name): %s", source, phrase)
    gsig = Signature("Grounding", {"ver": ctx.version, "split": "test",
                                   "ref": "db+corpus-text", "state": lex_state_source(data),
                                   "match": matching,
                                   "thr": f"{threshold:g}"}).format()
    return {"success": success,
            "grounding": GroundingScores(figures["attribute_accuracy"],
                                         figures["unknown_venues"], figures["entity_f1"],
                                         public_signature(gsig, coverage), tuple(checks))}

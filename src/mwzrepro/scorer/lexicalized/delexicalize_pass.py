"""Scoring lexicalized responses (``Evaluator(lexicalized=True)``, ``mwzrepro score
--lexicalized``): every response of a prediction mapping is delexicalized by
:mod:`mwzrepro.prepare.delex.delexicalize_responses` before the usual normalization and scoring, and
every signature gains the field ``lex:<rule version>-<state source>``.

The state source follows the Inform/Success rule (spec-standard-evaluation §9.1): ``pred``
when every turn has a ``state`` object, else ``gold`` (the test set's gold state of the
turn).

>>> from mwzrepro.core.signature import add_fields
>>> add_fields("BLEU|ver:mwz21|v:0.1.0", {"lex": lex_value("gold")}, before_coverage=False)
'BLEU|ver:mwz21|lex:1-gold|v:0.1.0'
>>> lex_state_source({"d": [{"response": "hi", "state": {}}]})
'pred'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.prepare.delex.delexicalize_responses import (
    LEX_VERSION,
    Delexicalizer,
    LinkedResponse,
)
from mwzrepro.prepare.delex.value_lexicon import ValueLexicon

if TYPE_CHECKING:
    from mwzrepro.scorer.resources.resource_set import VersionResources

__all__ = ["delexicalizer_of", "lex_state_source", "delexicalize_predictions", "lex_value",
           "lex_warnings", "oracle_line", "with_lex_signatures", "lexicalized_pairs",
           "format_pairs"]


@lru_cache(maxsize=4)
def _delexicalizer(db_dir: str) -> Delexicalizer:
    from mwzrepro.core.venue_database import DB_DOMAINS
    from mwzrepro.core.venue_database_files import read_database_files

    # The raw entities (the lexicon reads every field as written); no checksum check here
    # (VersionResources.database does it where the scoring reads the database).
    dbs = read_database_files({d: Path(db_dir) / f"{d}_db.json" for d in DB_DOMAINS},
                              expected_sha256=None)
    return Delexicalizer(ValueLexicon.from_entities(dbs))


def delexicalizer_of(resources: VersionResources) -> Delexicalizer:
    """The :class:`~mwzrepro.prepare.delex.delexicalize_responses.Delexicalizer` of a resource set's
    venue database (its lexicon built once per process)."""
    return _delexicalizer(str(resources.directory / "db"))


def _is_mapping(value: Any) -> bool:
    """``isinstance(value, Mapping)``, a dict answered without the ABC check (per turn, three
    times per scoring of a file)."""
    return type(value) is dict or isinstance(value, Mapping)


def lex_state_source(data: Mapping[str, Any]) -> str:
    """``pred`` when every turn of ``data`` has a ``state`` object, else ``gold``."""
    every = all(_is_mapping(t) and _is_mapping(t.get("state"))
                for turns in data.values() if isinstance(turns, list) for t in turns)
    return "pred" if every else "gold"


def delexicalize_predictions(data: Mapping[str, Any], resources: VersionResources,
                             source: str | None = None, links: dict[str, list] | None = None
                             ) -> tuple[dict[str, Any], str]:
    """``(a copy of data with every response delexicalized, state source)``.

    ``source`` (``pred``/``gold``) defaults to :func:`lex_state_source` of ``data``. ``data``
    is never modified; turns that are not objects with a string ``response`` are copied as
    they are (the validation that follows names them). With ``links`` (a dict), it also
    receives ``{canonical dialogue id: [LinkedResponse per turn]}`` (the entity-linked
    spans, :meth:`~mwzrepro.prepare.delex.delexicalize_responses.Delexicalizer.link`; an
    empty one for a turn without a string response).
    """
    source = source or lex_state_source(data)
    delex = delexicalizer_of(resources)
    gold = resources.eval.gold if source == "gold" else None
    out: dict[str, Any] = {}
    for raw_id, turns in data.items():
        if not isinstance(turns, list):
            out[raw_id] = turns
            continue
        states = gold.get(canonical_dialogue_id(raw_id), []) if gold is not None else None
        new = []
        linked = None if links is None else links.setdefault(canonical_dialogue_id(raw_id), [])
        for i, turn in enumerate(turns):
            if isinstance(turn, Mapping) and isinstance(turn.get("response"), str):
                if states is None:
                    state = turn.get("state")
                else:
                    state = states[i] if i < len(states) else None
                done = delex.link(turn["response"], state)  # memoized: one pass for both
                if linked is not None:
                    linked.append(done)
                turn = {**turn, "response": done.text}
            elif linked is not None:
                linked.append(LinkedResponse("", (), 0))
            new.append(turn)
        out[raw_id] = new
    return out, source


def lex_warnings(domain_source: str, source: str) -> list[str]:
    """Warnings of a lexicalized run: ``slot-names`` domains (spec §8.3) read the domain
    prefixes of placeholders, which lexicalized responses do not have (lex:1 writes the span
    references' unprefixed names).

    >>> lex_warnings("auto", "x.json")
    []
    """
    if domain_source != "slot-names":
        return []
    return [f"{source}: --domain-source slot-names reads the domain prefixes of placeholders; "
            "delexicalized lexicalized responses have none (lex:1 writes unprefixed span "
            "names), so only placeholders the file already had give active domains; use "
            "auto, provided or estimated"]


def oracle_line(source: str, grounded: bool) -> str:
    """The caveat of a lexicalized file without states (``lex:1-gold``): its standard and
    optimistic Inform/Success read the gold states, an upper bound (spec-standard-evaluation
    §18.1); ``grounded``: the grounded setting was scored too (and is shown first).

    >>> print(oracle_line("llm.json", False))
    llm.json: ORACLE-STATE UPPER BOUND: the file has no states, so standard Inform/Success reads the gold states (lex:1-gold), an upper bound, not the system's score; --setting grounded scores the venues the text names (spec-standard-evaluation §18.1, §18.3)
    """
    grounded_part = ("the grounded block (first) scores the venues the text names" if grounded
                     else "--setting grounded scores the venues the text names")
    return (f"{source}: ORACLE-STATE UPPER BOUND: the file has no states, so standard "
            "Inform/Success reads the gold states (lex:1-gold), an upper bound, not the "
            f"system's score; {grounded_part} (spec-standard-evaluation §18.1, §18.3)")


def lex_value(source: str) -> str:
    """The signature value ``<rule version>-<state source>`` (``1-pred``)."""
    return f"{LEX_VERSION}-{source}"


def with_lex_signatures(blocks: dict[str, Any], value: str) -> dict[str, Any]:
    """The result blocks of one evaluation with ``lex:<value>`` at the end of every
    signature's fields (after ``cov``; :func:`~mwzrepro.scorer.blocks.with_signature_fields`).
    """
    from mwzrepro.scorer.blocks import with_signature_fields

    return {k: (v if k == "dialogues"
                else with_signature_fields(v, {"lex": value}, before_coverage=False))
            for k, v in blocks.items()}


def lexicalized_pairs(evaluator: Any, data: Mapping[str, Any], dialogue_id: str
                      ) -> list[tuple[str, str]]:
    """``[(response as given, delexicalized), ...]`` of one dialogue of ``data``, as
    ``evaluator`` (an :class:`~mwzrepro.scorer.evaluator.Evaluator`) delexicalizes it.

    Raises:
        InputError: the dialogue is not in ``data``.
    """
    from mwzrepro.core.errors import InputError

    did = canonical_dialogue_id(dialogue_id)
    raw = next((k for k in data if canonical_dialogue_id(k) == did), None)
    if raw is None:
        raise InputError(f"dialogue {dialogue_id} is not in the predictions")
    delex, _ = delexicalize_predictions({raw: data[raw]}, evaluator.resources,
                                        lex_state_source(data))
    return [(t.get("response", ""), d.get("response", ""))
            for t, d in zip(data[raw], delex[raw]) if isinstance(t, Mapping)]


def format_pairs(dialogue_id: str, pairs: list[tuple[str, str]], source: str) -> str:
    """The text block of ``explain --lexicalized``: each response before and after.

    >>> print(format_pairs("sng01", [("Try Nandos .", "Try [name] .")], "gold"), end="")
    dialogue sng01 — lexicalized responses, delexicalized (lex:1-gold)
    turn 0
      given:           Try Nandos .
      delexicalized:   Try [name] .
    """
    out = [f"dialogue {dialogue_id} — lexicalized responses, delexicalized "
           f"(lex:{lex_value(source)})"]
    for i, (before, after) in enumerate(pairs):
        out += [f"turn {i}", f"  given:           {before}", f"  delexicalized:   {after}"]
    return "\n".join(out) + "\n"

"""Checks of a prediction file before scoring, and what it covers (spec-standard-evaluation
§2): one-line errors for degenerate input, loud warnings for partial coverage and empty
responses, and the legacy shape ``{"SNG0073.json": ["response", ...]}`` (:func:`read_shape`;
an addendum to §2.1: read as the reference format without states, logged as such).

Errors (:class:`~mwzrepro.core.errors.InputError`, the message names the file and, where
known, the dialogues):

* the top level is not an object, or has no dialogue, or no turn at all;
* a dialogue's value is not a list; turns that mix legacy strings and objects (these
  messages end with the accepted shapes, :data:`ACCEPTED_SHAPES`);
* dialogue ids that are not test dialogues (after lowercasing and dropping ``.json``);
* dialogues with **more** turns than the test set (the reference evaluator crashes on them):
  their own message — no option makes them scorable;
* dialogues with fewer turns than the test set when ``allow_missing_turns`` is off (by
  default they are scored on their prefix, as the reference evaluator does, and reported);
* with ``strict``, anything below full coverage.

Field types of every turn are checked by :func:`mwzrepro.prepare.predictions.parse_predictions`.

>>> check_structure({}, "mine.json")
Traceback (most recent call last):
...
mwzrepro.core.errors.InputError: mine.json: no dialogues (the object is empty)
>>> check_structure([], "mine.json")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mwzrepro.core.errors.InputError: mine.json: top level must be an object ..., got a list; accepted shapes: ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from mwzrepro.core.errors import InputError
from mwzrepro.core.ids import canonical_dialogue_id

if TYPE_CHECKING:
    from mwzrepro.standard.inputs import PreparedDialogues

__all__ = ["ACCEPTED_SHAPES", "Coverage", "check_structure", "read_shape", "check_turns",
           "coverage_of", "PreparedInput"]

_LIST_MAX = 10


def _listing(items: list[str]) -> str:
    """Up to :data:`_LIST_MAX` ids, comma-separated; an id with a line break or another
    unprintable character as its ``repr`` (messages stay one line)."""
    more = f" (+{len(items) - _LIST_MAX} more)" if len(items) > _LIST_MAX else ""
    return ", ".join(i if i.isprintable() else repr(i) for i in items[:_LIST_MAX]) + more


#: The shapes a prediction file may have (the end of every shape error).
ACCEPTED_SHAPES = ('accepted shapes: {"<dialogue id>": [{"response": "...", "state": {...} '
                   '(optional), "active_domains": [...] (optional)}, ...]} (the reference '
                   'evaluator\'s) or {"<ID>.json": ["response", ...]} (legacy generation '
                   'files)')


def check_structure(data: Any, source: str) -> None:
    """Reject input that cannot be a prediction file, before any resource is loaded.

    Raises:
        InputError: not an object; no dialogue; a dialogue that is not a list of turns; no
            turn at all (the shape errors end with :data:`ACCEPTED_SHAPES`).
    """
    if not isinstance(data, Mapping):
        raise InputError(f"{source}: top level must be an object {{dialogue id: [turns]}}, "
                         f"got {_kind(data)}; {ACCEPTED_SHAPES}")
    if not data:
        raise InputError(f"{source}: no dialogues (the object is empty)")
    bad = [str(k) for k, v in data.items() if not isinstance(v, list)]
    if bad:
        raise InputError(f"{source}: the value of every dialogue must be a list of turns; "
                         f"not a list: {_listing(bad)}; {ACCEPTED_SHAPES}")
    if not any(data.values()):
        raise InputError(f"{source}: {len(data)} dialogue(s) but no turn at all")


def read_shape(data: Any, source: str) -> tuple[Mapping[str, list], str]:
    """Check the structure (:func:`check_structure`) and recognize the file's shape:
    ``mwzeval`` (the reference evaluator's, returned as it is) or ``legacy`` — the
    generation files of the original MultiWOZ baseline and its descendants,
    ``{"SNG0073.json": ["response", ...]}``, returned as ``{id: [{"response": ...}, ...]}``
    (no states, no active domains). The input is never modified.

    >>> read_shape({"SNG0073.json": ["hi", "bye"]}, "old.json")
    ({'SNG0073.json': [{'response': 'hi'}, {'response': 'bye'}]}, 'legacy')
    >>> read_shape({"sng0073": ["hi", {"response": "bye"}]}, "mixed.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mwzrepro.core.errors.InputError: mixed.json: dialogue sng0073 mixes plain strings ...

    Raises:
        InputError: as :func:`check_structure`; a dialogue whose turns mix strings and
            other values (one line naming it, with :data:`ACCEPTED_SHAPES`).
    """
    check_structure(data, source)
    if not any(isinstance(t, str) for v in data.values() for t in v):
        return data, "mwzeval"
    mixed = [str(k) for k, v in data.items() if not all(isinstance(t, str) for t in v)]
    if mixed:
        raise InputError(f"{source}: dialogue {mixed[0]} mixes plain strings (legacy "
                         f"responses) and other turns; {ACCEPTED_SHAPES}")
    return {k: [{"response": t} for t in v] for k, v in data.items()}, "legacy"


def _kind(value: Any) -> str:
    names = {list: "a list", str: "a string", type(None): "null", bool: "a boolean"}
    return names.get(type(value), f"a {type(value).__name__}")


def check_turns(data: Mapping[str, list], expected: Mapping[str, int], source: str,
                allow_missing_turns: bool) -> list[str]:
    """Check dialogue ids and turn counts against the test set.

    Args:
        data: a prediction mapping that passed :func:`check_structure`.
        expected: ``{dialogue_id: system turns}`` of the test set.
        source: file label for messages.
        allow_missing_turns: accept dialogues with fewer turns (scored on their prefix).

    Returns:
        The canonical ids of dialogues with fewer turns than the test set (when allowed).

    Raises:
        InputError: unknown dialogue ids; dialogues with more turns (their own message);
            dialogues with fewer turns unless allowed (with the option's name).
    """
    unknown, extra, short = [], [], []
    for raw_id, turns in data.items():
        did = canonical_dialogue_id(raw_id)
        if did not in expected:
            unknown.append(str(raw_id))
        elif len(turns) > expected[did]:
            extra.append(f"{raw_id} ({len(turns)} turns, test set {expected[did]})")
        elif len(turns) < expected[did]:
            short.append((str(raw_id), did, len(turns), expected[did]))
    if unknown:
        raise InputError(f"{source}: {len(unknown)} dialogue id(s) not in the test set: "
                         f"{_listing(unknown)}")
    if extra:
        raise InputError(
            f"{source}: {len(extra)} dialogue(s) with more turns than the test set has system "
            f"turns: {_listing(extra)}; every turn is scored against the reference turn at "
            "its position, so extra turns cannot be scored — give one entry per system turn "
            "(no user turns)")
    if short and not allow_missing_turns:
        listed = [f"{r} ({n} turns, expected {e})" for r, _, n, e in short]
        raise InputError(
            f"{source}: {len(short)} dialogue(s) with fewer turns than the test set: "
            f"{_listing(listed)} (use --allow-missing-turns, or allow_missing_turns=True, to "
            "score truncated dialogues on their prefix)")
    return [did for _, did, _, _ in short]


@dataclass(frozen=True)
class Coverage:
    """What a prediction file covers of the test set.

    Attributes:
        dialogues, expected_dialogues: scored and test-set dialogues.
        turns, expected_turns: scored turns and the test set's system turns.
        missing_dialogues: test dialogues absent from the file (sorted ids).
        truncated_dialogues: dialogues with fewer turns than the test set (sorted ids).
        empty_responses: turns whose response is empty or only whitespace.
    """

    dialogues: int
    expected_dialogues: int
    turns: int
    expected_turns: int
    missing_dialogues: tuple[str, ...] = ()
    truncated_dialogues: tuple[str, ...] = ()
    empty_responses: int = 0

    @property
    def complete(self) -> bool:
        """Every test dialogue with every turn.

        >>> Coverage(2, 2, 5, 5).complete, Coverage(1, 2, 3, 5).complete
        (True, False)
        """
        return self.dialogues == self.expected_dialogues and self.turns == self.expected_turns

    def signature_value(self) -> str | None:
        """The ``cov`` field of the signatures when coverage is partial, else None.

        >>> Coverage(944, 1000, 6757, 7372).signature_value()
        'dialogues=944/1000,turns=6757/7372'
        """
        if self.complete:
            return None
        return (f"dialogues={self.dialogues}/{self.expected_dialogues},"
                f"turns={self.turns}/{self.expected_turns}")

    def warnings(self, source: str, responses: bool = True) -> list[str]:
        """Loud one-line warnings: partial coverage (with counts) and, when ``responses`` (a
        metric that reads the responses is computed), empty responses; a states-only file
        scored with ``--metrics dst`` gets no empty-response line.

        >>> w = Coverage(944, 1000, 6757, 7372, ("mul0001",)).warnings("labes.json")[0]
        >>> for part in w.split("; "): print(part)
        labes.json: PARTIAL COVERAGE: 944 of 1000 test dialogues (94.4 %)
        6757 of 7372 turns (91.7 %)
        56 dialogue(s) missing (e.g. mul0001)
        every number below is computed on this subset only (the signatures record it)
        """
        out = []
        if not self.complete:
            parts = [f"{self.dialogues} of {self.expected_dialogues} test dialogues "
                     f"({100 * self.dialogues / self.expected_dialogues:.1f} %)",
                     f"{self.turns} of {self.expected_turns} turns "
                     f"({100 * self.turns / self.expected_turns:.1f} %)"]
            missing = self.expected_dialogues - self.dialogues
            if missing:
                parts.append(f"{missing} dialogue(s) missing (e.g. "
                             f"{', '.join(self.missing_dialogues[:3])})")
            if self.truncated_dialogues:
                parts.append(f"{len(self.truncated_dialogues)} dialogue(s) truncated (e.g. "
                             f"{', '.join(self.truncated_dialogues[:3])})")
            out.append(f"{source}: PARTIAL COVERAGE: {'; '.join(parts)}; every number below "
                       "is computed on this subset only (the signatures record it)")
        if self.empty_responses and responses:
            what = ("ALL responses are empty (is 'response' the right field?)"
                    if self.empty_responses == self.turns else
                    f"{self.empty_responses} of {self.turns} responses are empty")
            out.append(f"{source}: {what}; empty responses are scored as they are")
        return out

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict (lists for the id tuples, ``complete`` added)."""
        return {"dialogues": self.dialogues, "expected_dialogues": self.expected_dialogues,
                "turns": self.turns, "expected_turns": self.expected_turns,
                "complete": self.complete, "missing_dialogues": list(self.missing_dialogues),
                "truncated_dialogues": list(self.truncated_dialogues),
                "empty_responses": self.empty_responses}


def coverage_of(dialogue_turns: Mapping[str, int], responses: list[str],
                expected: Mapping[str, int], truncated: list[str]) -> Coverage:
    """The :class:`Coverage` of scored ``{dialogue_id: turns}`` with their raw ``responses``.

    >>> coverage_of({"a": 2}, ["hi", " "], {"a": 2, "b": 1}, []).as_dict()["missing_dialogues"]
    ['b']
    """
    return Coverage(
        dialogues=len(dialogue_turns), expected_dialogues=len(expected),
        turns=sum(dialogue_turns.values()), expected_turns=sum(expected.values()),
        missing_dialogues=tuple(sorted(set(expected) - set(dialogue_turns))),
        truncated_dialogues=tuple(sorted(truncated)),
        empty_responses=sum(1 for r in responses if not r.strip()),
    )


class PreparedInput(NamedTuple):
    """What :func:`mwzrepro.scorer.preparation.prepare_input` returns (``preds, prep, coverage,
    unknown, links``).

    Attributes:
        preds: the ``predictions`` table as columns ``{column: list}`` (``dialogue_id``,
            ``turn``, ``response``, ``response_norm``, ``state_json``, ...).
        prep: the dialogues of Inform/Success (:class:`~mwzrepro.standard.inputs.
            PreparedDialogues`).
        coverage: dialogues and turns scored against the test set.
        unknown: placeholders deleted by the normalization, with counts.
        links: of lexicalized text in the reference evaluator's shape, the lex:1 links of the
            responses (``{canonical dialogue id: [LinkedResponse per turn]}``, as
            :func:`mwzrepro.scorer.lexicalized.grounding.link_predictions` gives them: the
            grounding reads them instead of linking again); else None.
    """

    preds: dict[str, list]
    prep: PreparedDialogues
    coverage: Coverage
    unknown: Counter
    links: dict[str, list] | None = None

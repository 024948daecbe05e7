"""One measure of a prediction file's form, and the three decisions that read it.

Whether a file's responses are lexicalized (values written out) or delexicalized (``[slot]``
placeholders) is asked in three places; each reads the same :class:`FormMeasure`
(:func:`measure_form`) with its own documented threshold:

1. **Kept delexicalized under ``--lexicalized``** (:func:`carries_placeholders`; the ``--form``
   rules of :mod:`mwzrepro.scorer.lexicalized.file_form`, ``add-system``'s ``auto`` form): at
   least :data:`DELEXICALIZED_MIN_SHARE` (0.1) of the responses carry a placeholder. The 19
   public delexicalized files have at least 0.61, the corpus text 0.
2. **The lexicalized hint** (:mod:`mwzrepro.scorer.lexicalized.detect`): a file scored without
   ``--lexicalized`` that rule 1 does not keep (fewer than 0.1 of its responses carry a
   placeholder: a file ``--lexicalized`` would delexicalize, so the hint's figures are what the
   option gives) and in which lex:1 writes a venue name, a phone
   number or a booking reference where the response had none (``[name]``, ``[phone]``,
   ``[ref]``) in at least :data:`HINT_MIN_NAMING` (0.15) of the responses (the MultiWOZ 2.1 test
   corpus text: 0.35).
3. **Refused by the grounded setting** (:func:`too_few_values_for_grounding`,
   :mod:`mwzrepro.scorer.lexicalized.grounding`): the responses hold more placeholders than
   values that lex:1 linked (counts excluded).

A placeholder is, in every rule, a bracketed token of :data:`PLACEHOLDER_RE`: the extended
vocabulary's shape (:data:`mwzrepro.core.slot_map.EXTENDED_PLACEHOLDER_RE`: ``[value_name]``,
``[leave at]``, ``[train_arriveBy]``) starting with a lower-case letter, so that a venue name an
LLM writes in brackets (``[Dojo Noodle Bar]``) is text, not a placeholder. On the 19 public
files it counts exactly the responses the extended shape counts. The measure is
built in steps, each only when a decision needs it: the text alone (rules 1 and 2's first
step, one regular-expression scan per response), then the text lex:1 wrote (rule 2's second
step), then lex:1's entity links (rule 3).

>>> m = measure_form(["[value_name] is in the [value_area].", "Anything else?"])
>>> (m.responses, m.with_placeholder, m.placeholder_share, carries_placeholders(m))
(2, 1, 0.5, True)
>>> carries_placeholders(measure_form(["[Curry Garden] is in the centre."]))
False
>>> measure_form(["Nandos, 01223 327908.", "Bye"], ["[name], [phone].", "Bye"]).naming_share
0.5
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["FormMeasure", "measure_form", "responses_of", "carries_placeholders",
           "may_be_lexicalized", "names_values", "too_few_values_for_grounding",
           "PLACEHOLDER_RE", "DELEXICALIZED_MIN_SHARE", "HINT_MIN_NAMING"]

#: Rule 1: least share (fraction) of responses with a placeholder for a delexicalized file.
DELEXICALIZED_MIN_SHARE = 0.1
#: Rule 2, second step: least share (fraction) of responses naming a venue, phone or reference.
HINT_MIN_NAMING = 0.15

#: A placeholder in a response (module docstring).
PLACEHOLDER_RE = re.compile(r"\[[a-z][\w\s-]*\]")
#: What lex:1 writes for a venue name, a phone number or a booking reference.
_NAMED = re.compile(r"\[(?:name|phone|ref)\]")


@dataclass(frozen=True)
class FormMeasure:
    """Counts (responses) behind every decision about a file's form.

    Attributes:
        responses: string responses measured.
        with_placeholder: responses with at least one placeholder.
        naming: responses in which lex:1 wrote ``[name]``, ``[phone]`` or ``[ref]`` where
            the response had none (None: lex:1's text not measured).
        placeholders: placeholders the responses held, as lex:1 read them (None: no links).
        linked_values: values lex:1 linked, counts (``choice``) excluded (None: no links).
        with_linked_value: responses with at least one such value (None: no links).
    """

    responses: int
    with_placeholder: int
    naming: int | None = None
    placeholders: int | None = None
    linked_values: int | None = None
    with_linked_value: int | None = None

    @property
    def placeholder_share(self) -> float:
        """Share (fraction) of responses with a placeholder; 0 for no response."""
        return self.with_placeholder / self.responses if self.responses else 0.0

    @property
    def without_placeholder_share(self) -> float:
        """Share (fraction) of responses without any placeholder; 0 for no response."""
        if not self.responses:
            return 0.0
        return (self.responses - self.with_placeholder) / self.responses

    @property
    def naming_share(self) -> float | None:
        """Share (fraction) of responses in which lex:1 names a venue, phone or reference."""
        if self.naming is None:
            return None
        return self.naming / self.responses if self.responses else 0.0


def responses_of(data: Mapping[str, Any]) -> list[str]:
    """The string responses of a prediction mapping, in file order: ``{id: [{"response":
    str, ...}, ...]}`` or the legacy ``{"ID.json": ["response", ...]}``; other values and
    turns without a string response are skipped.

    >>> responses_of({"a": [{"response": "hi"}, {"state": {}}], "b": ["bye"], "c": 3})
    ['hi', 'bye']
    """
    out = []
    for turns in data.values():
        if not isinstance(turns, list):
            continue
        for t in turns:
            text = t.get("response") if isinstance(t, Mapping) else t
            if isinstance(text, str):
                out.append(text)
    return out


def measure_form(responses: Iterable[str], delexicalized: Sequence[str] | None = None,
                 links: Iterable[Any] | None = None) -> FormMeasure:
    """The :class:`FormMeasure` of ``responses`` (file order).

    Args:
        responses: the responses as given.
        delexicalized: the same responses as lex:1 wrote them (rule 2's second step).
        links: lex:1's :class:`~mwzrepro.prepare.delex.delexicalize_responses.LinkedResponse`
            of each response (attributes ``spans`` with ``.slot``, and ``placeholders``).

    Raises:
        ValueError: ``delexicalized`` of another length than ``responses``.
    """
    texts = list(responses)
    with_placeholder = sum(1 for r in texts if PLACEHOLDER_RE.search(r))
    naming = None
    if delexicalized is not None:
        if len(delexicalized) != len(texts):
            raise ValueError(f"{len(delexicalized)} delexicalized responses for {len(texts)}")
        naming = sum(1 for before, after in zip(texts, delexicalized)
                     if _NAMED.search(after) and not _NAMED.search(before.lower()))
    placeholders = values = with_value = None
    if links is not None:
        placeholders = values = with_value = 0
        for r in links:
            n = sum(s.slot != "choice" for s in r.spans)
            placeholders += r.placeholders
            values += n
            with_value += n > 0
    return FormMeasure(len(texts), with_placeholder, naming, placeholders, values, with_value)


def carries_placeholders(measure: FormMeasure,
                        share: float = DELEXICALIZED_MIN_SHARE) -> bool:
    """Rule 1: at least ``share`` of the responses carry a placeholder (no response: False)."""
    return measure.responses > 0 and measure.with_placeholder >= share * measure.responses


def may_be_lexicalized(measure: FormMeasure) -> bool:
    """Rule 2, first step: rule 1 does not keep the file, i.e. more than 0.9 of its responses
    carry no placeholder (no response: False)."""
    return measure.responses > 0 and not carries_placeholders(measure)


def names_values(measure: FormMeasure) -> bool:
    """Rule 2, second step: lex:1 names a venue, phone or reference in at least
    :data:`HINT_MIN_NAMING` of the responses (needs ``delexicalized`` in the measure).

    Raises:
        ValueError: a measure without lex:1's text.
    """
    if measure.naming_share is None:
        raise ValueError("names_values needs the measure of lex:1's text")
    return measure.naming_share >= HINT_MIN_NAMING


def too_few_values_for_grounding(measure: FormMeasure) -> bool:
    """Rule 3: more placeholders than linked values (needs ``links`` in the measure).

    Raises:
        ValueError: a measure without lex:1's links.
    """
    if measure.placeholders is None or measure.linked_values is None:
        raise ValueError("too_few_values_for_grounding needs the measure of lex:1's links")
    return measure.placeholders > measure.linked_values

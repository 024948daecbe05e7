"""The form of one prediction file — lexicalized or delexicalized responses, placeholder
vocabulary — given per file when several files are scored or compared in one call
(``mwzrepro score A B --form A=lexicalized``, ``mwzrepro compare A B --lexicalized``).

Rules (addendum to spec-standard-evaluation §2 for files scored together; signature fields:
the existing ``lex:`` and ``ph:``):

* ``--form NAME=VALUE[,VALUE]`` sets the form of the file whose row is NAME: ``lexicalized``,
  ``delexicalized``, ``placeholders=reference`` or ``placeholders=extended``; files without
  one take the command's ``--lexicalized`` / ``--placeholders``.
* A delexicalized file is never lexicalized: under ``--lexicalized`` a file whose responses
  already carry placeholders (at least one response in ten with a ``[slot]`` token,
  :func:`looks_delexicalized`: rule 1 of :mod:`mwzrepro.scorer.lexicalized.form_measure`) is
  scored as it is, with a warning naming it. Delexicalizing it again would rewrite values
  left in its template responses (it moved one delexicalized file's Inform from 83.4 to
  83.5). An explicit ``NAME=lexicalized`` is obeyed. ``mwzrepro score FILE --lexicalized``
  follows the same rule.
* The mixed case, a lexicalized file in which fewer than one response in ten carries a
  placeholder (an LLM that wrote ``[booking_reference]`` where it had no reference): it is a
  lexicalized file, every response is delexicalized by lex:1 (spec-standard-evaluation §18.1),
  the placeholders read by their names. Either way one line gives the counts
  (:func:`lexicalized_form`).

>>> looks_delexicalized({"d": [{"response": "[value_name] is in the [value_area]."},
...                            {"response": "Anything else?"}]})
True
>>> looks_delexicalized({"d": [{"response": "Curry Garden is in the centre."}]})
False
>>> parse_forms(["ubar=lexicalized,placeholders=extended"], ["ubar", "augpt"])
{'ubar': {'lexicalized': True, 'placeholders': 'extended'}}
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from mwzrepro.core.errors import ConfigError
from mwzrepro.scorer.lexicalized.form_measure import (
    DELEXICALIZED_MIN_SHARE,
    carries_placeholders,
    measure_form,
    responses_of,
)

__all__ = ["looks_delexicalized", "parse_forms", "with_form", "lexicalized_form",
           "FORM_VALUES"]

#: Values of ``--form NAME=...``.
FORM_VALUES = ("lexicalized", "delexicalized", "placeholders=reference",
               "placeholders=extended")


def looks_delexicalized(data: Mapping[str, Any], share: float = DELEXICALIZED_MIN_SHARE
                        ) -> bool:
    """Whether at least ``share`` of the responses of a prediction mapping carry a
    placeholder (module docstring); turns without a string response are skipped, legacy
    ``{"ID.json": ["response", ...]}`` lists are read too."""
    return carries_placeholders(measure_form(responses_of(data)), share)


def lexicalized_form(evaluator: Any, form: Mapping[str, Any] | None, data: Mapping[str, Any],
                     source: str, verb: str = "scored"
                     ) -> tuple[Mapping[str, Any] | None, str | None]:
    """``(the form to score data with, the line to show or None)`` under the module
    docstring's rules, when ``evaluator`` lexicalizes and ``form`` does not say: a
    delexicalized file (rule 1 of :mod:`~mwzrepro.scorer.lexicalized.form_measure`, as
    :func:`looks_delexicalized`) gets ``form`` with ``lexicalized`` False, kept as it is; a
    lexicalized file with some placeholders is delexicalized whole (``form`` unchanged); the
    line gives the counts (responses with a placeholder, of all; ``verb``: "scored",
    "compared"). ``form`` is not modified.

    >>> class E: lexicalized = True
    >>> data = {"d": [{"response": "Nandos , ref [booking_reference] ."}]
    ...               + [{"response": "Nandos is nice ."}] * 19}
    >>> form, line = lexicalized_form(E(), None, data, "llm.json")
    >>> form is None
    True
    >>> print(line)
    llm.json: --lexicalized: 1 of 20 responses (5.0 %) carry a placeholder, fewer than 10 % (a lexicalized file): every response delexicalized, its placeholders read by their names (spec-standard-evaluation §18.1)
    >>> print(lexicalized_form(E(), None, {"d": [{"response": "[value_name] ."}]}, "b.json")[1])
    b.json: responses carry placeholders (delexicalized): scored as they are, not delexicalized again (1 of 1 responses (100.0 %) carry a placeholder, at least 10 %; --form NAME=lexicalized forces it)
    """
    if not evaluator.lexicalized or "lexicalized" in (form or {}):
        return form, None
    m = measure_form(responses_of(data))
    counts = (f"{m.with_placeholder} of {m.responses} responses "
              f"({100 * m.placeholder_share:.1f} %) carry a placeholder")
    least = f"{100 * DELEXICALIZED_MIN_SHARE:g} %"
    if carries_placeholders(m):
        return ({**(form or {}), "lexicalized": False},
                f"{source}: responses carry placeholders (delexicalized): {verb} as they are, "
                f"not delexicalized again ({counts}, at least {least}; --form "
                "NAME=lexicalized forces it)")
    if not m.with_placeholder:
        return form, None
    return form, (f"{source}: --lexicalized: {counts}, fewer than {least} (a lexicalized "
                  "file): every response delexicalized, its placeholders read by their names "
                  "(spec-standard-evaluation §18.1)")


def parse_forms(values: Iterable[str], names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``{row name: {"lexicalized": bool, "placeholders": str}}`` from ``--form`` values
    (module docstring); only the keys given are set.

    Raises:
        ConfigError: a value that is not ``NAME=FORM[,FORM]``, an unknown name or form.
    """
    known = list(names)
    out: dict[str, dict[str, Any]] = {}
    for value in values:
        name, sep, forms = value.partition("=")
        if not sep or not forms:
            raise ConfigError(f"--form {value!r}: expected NAME=FORM[,FORM] with FORM one of "
                              f"{', '.join(FORM_VALUES)}")
        if name not in known:
            raise ConfigError(f"--form {value!r}: no row named {name!r} (rows: "
                              f"{', '.join(known)})")
        for form in forms.split(","):
            if form not in FORM_VALUES:
                raise ConfigError(f"--form {value!r}: unknown form {form!r}; expected "
                                  f"{', '.join(FORM_VALUES)}")
            if form.startswith("placeholders="):
                vocab = form.partition("=")[2]  # pragma: no mutate (equivalent: one "=" per form)
                out.setdefault(name, {})["placeholders"] = vocab
            else:
                out.setdefault(name, {})["lexicalized"] = form == "lexicalized"
    return out


def with_form(evaluator: Any, form: Mapping[str, Any] | None) -> Any:
    """``evaluator`` itself when ``form`` changes nothing, else a shallow copy (sharing its
    resources) with ``lexicalized`` and/or the ``placeholders`` vocabulary replaced.

    Raises:
        ConfigError: an invalid placeholder vocabulary.
    """
    if not form:
        return evaluator
    lex = form.get("lexicalized", evaluator.lexicalized)
    ph = form.get("placeholders", evaluator.standard.placeholders)
    if lex == evaluator.lexicalized and ph == evaluator.standard.placeholders:
        return evaluator
    from mwzrepro.core.params import checked

    out = copy.copy(evaluator)
    out.lexicalized = lex
    if ph != evaluator.standard.placeholders:
        out.standard = checked("mwzrepro.standard.params:StandardParams",
                               {"state_match_threshold":
                                evaluator.standard.state_match_threshold,
                                "placeholders": ph}, "standard")
    return out

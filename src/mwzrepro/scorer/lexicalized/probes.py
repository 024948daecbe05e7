"""Probes of the grounded setting: lexicalized prediction mappings with their venues
or values made wrong on purpose, from lex:1's entity-linked spans, so that a score can show it
sees the difference (``standard`` cannot: the delexicalized text is the same).

* :func:`venue_name_probe` — every linked venue name replaced by another venue of the same
  domain (seeded);
* :func:`contact_value_probe` — every phone number and postcode replaced by a wrong one of
  the same shape (``01223 ######``, ``cb# #xx``; seeded).

Both return ``(probe data, number of turns changed)``; responses are rewritten left to right,
each span's surface text at its next occurrence; other turn fields are dropped (the probes are
responses only, like the corpus text they are made from).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["swap_spans", "venue_name_probe", "contact_value_probe"]


def swap_spans(data: Mapping[str, Any], links: Mapping[str, list[Any]],
               new_value: Callable[[Any], str | None]) -> tuple[dict[str, Any], int]:
    """``data`` with each linked span's text replaced by ``new_value(span)`` (None: kept);
    ``links`` as :func:`mwzrepro.scorer.lexicalized.grounding.link_predictions` gives them.

    >>> from mwzrepro.prepare.delex.delexicalize_responses import LinkedResponse, Span
    >>> links = {"d1": [LinkedResponse("[name] .", (Span("name", "Nandos", 0, 6),), 0)]}
    >>> swap_spans({"d1": [{"response": "Nandos ."}]}, links, lambda s: "Ask")
    ({'d1': [{'response': 'Ask .'}]}, 1)
    """
    out, changed = {}, 0
    for did, turns in data.items():
        new_turns = []
        for turn, linked in zip(turns, links[did]):
            text, pos, parts = turn["response"], 0, []
            for span in linked.spans:
                value = new_value(span)
                at = text.find(span.text, pos)
                if value is None or at < 0:
                    continue
                parts += [text[pos:at], value]
                pos = at + len(span.text)
            new = "".join(parts) + text[pos:]
            changed += new != text
            new_turns.append({"response": new})
        out[did] = new_turns
    return out, changed


def venue_name_probe(data: Mapping[str, Any], links: Mapping[str, list[Any]], database: Any,
                     seed: int = 27) -> tuple[dict[str, Any], int]:
    """Every venue name linked to one restaurant, hotel or attraction replaced by the name of
    another venue of that domain (``random.Random(seed)``)."""
    venues = {d: sorted((str(e["id"]), e["name"]) for e in database.entities(d))
              for d in ("restaurant", "hotel", "attraction")}
    rng = random.Random(seed)

    def other_venue(span: Any) -> str | None:
        domains = {d for d, _ in span.entities}
        if span.slot != "name" or len(domains) != 1 or not domains <= set(venues):
            return None
        domain, own = domains.pop(), {i for _, i in span.entities}
        return rng.choice([name for i, name in venues[domain] if i not in own])

    return swap_spans(data, links, other_venue)


def contact_value_probe(data: Mapping[str, Any], links: Mapping[str, list[Any]],
                        seed: int = 27) -> tuple[dict[str, Any], int]:
    """Every phone number and postcode replaced by a random one of the same shape
    (``random.Random(seed)``)."""
    rng = random.Random(seed)

    def wrong(span: Any) -> str | None:
        if span.slot == "phone":
            return "01223 " + "".join(rng.choice("0123456789") for _ in range(6))
        if span.slot == "postcode":
            return f"cb{rng.randint(1, 9)} {rng.randint(1, 9)}" + "".join(
                rng.choice("abdefghjlnpqrstuwxyz") for _ in range(2))
        return None

    return swap_spans(data, links, wrong)

"""Turn context of the annotation-consistency rules (spec-annotation-consistency §2.1-2.2,
§7 intro): what a detector may read at user turn t, and the :class:`Hit` it returns.

:class:`TurnContext` holds U_t, S_t (original case and lowercased), the windows W_t and
W_{t-1}, the normalised forms N(U_t) and N(S_t), the masked S*_t of §7.3, and the visible
*original* state V_t (:class:`VisibleState`). Detectors never see other detectors' output
(§4.5).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from mwzrepro.consistency.lexicons import Inventories
from mwzrepro.consistency.settings import CorrectionSettings
from mwzrepro.consistency.text import Mapped, lower, normalize_entity, nword_matches

__all__ = ["Hit", "TurnContext", "VisibleState", "USER_SEP", "first_span", "has_any"]


#: Separator between S_t and U_t in the window W_t (§2.1).
USER_SEP = " <user> "


@dataclass(frozen=True)
class Hit:
    """One value found by a rule.

    Attributes:
        value: canonical value (before respelling, §2.3) or the label to write.
        rule: rule id (module docstring).
        side: ``user`` or ``system`` (which rule set fired, §4.5).
        where: the utterance holding the evidence, ``user`` (U_t) or ``system`` (S_t).
        start, end: character offsets of the matched surface in that utterance (original
            case); ``-1`` when the evidence is not a located surface.
        order: position of the evidence in W_t (for ordering alternatives, §4.6).
    """

    value: str
    rule: str
    side: str
    where: str
    start: int
    end: int
    order: int


@dataclass(frozen=True)
class VisibleState:
    """V_t of §2.2: the original state after U_t without ``dontcare`` slots.

    Attributes:
        values: lowercased primary values of every slot (all domains).
        names: ``{domain: raw name value}`` for domains with a name slot.
        domains: domains with at least one visible slot.
    """

    values: tuple[str, ...] = ()
    names: dict[str, str] = field(default_factory=dict)
    domains: frozenset[str] = frozenset()

    def value_in_state(self, x: str) -> bool:
        """value-in-state(t, x): ``x`` is a substring of at least one value (§2.2)."""
        return any(x in v for v in self.values)

    def name(self, domain: str) -> str:
        """name(t, d), lowercased ('' if none)."""
        return self.names.get(domain, "").lower()

    def other_names(self, domain: str) -> list[str]:
        """other-names(t, d), lowercased."""
        return [v.lower() for d, v in self.names.items() if d != domain]

    @property
    def name_count(self) -> int:
        """name-count(t)."""
        return len(self.names)


class TurnContext:
    """Everything the rules may read at user turn t of one dialogue (§2.1–2.2, §7 intro).

    Args:
        t: user-turn index.
        user: U_t (original case). system: S_t ('' at t = 0).
        state: V_t. previous: the context of turn t−1 (for W_{t−1}), or None.
        inv: inventories; params: correction parameters.
    """

    def __init__(self, t: int, user: str, system: str, state: VisibleState,
                 previous: TurnContext | None, inv: Inventories, params: CorrectionSettings):
        self.t = t
        self.U, self.S = user, system
        self.u, self.s = lower(user), lower(system)
        self.w = self.s + USER_SEP + self.u
        self.wp = previous.w if previous is not None else ""
        self.previous = previous
        self.state = state
        self.inv = inv
        self.params = params

    # --- lazily derived forms -------------------------------------------------------------
    @cached_property
    def nu(self) -> Mapped:
        """N(U_t)."""
        return normalize_entity(self.U)

    @cached_property
    def ns(self) -> Mapped:
        """N(S_t)."""
        return normalize_entity(self.S)

    @cached_property
    def s_masked(self) -> str:
        """S*_t of §7.3: lower(S) with entity names, street phrases (and optionally addresses)
        replaced by same-length placeholders, so offsets still index S."""
        return _mask(self.s, self.ns, self.inv, self.params)

    @cached_property
    def u_masked(self) -> str:
        """U*_t, the same masking applied to U_t (only for the ``area_user_side`` extension)."""
        return _mask(self.u, self.nu, self.inv, self.params)

    # --- helpers --------------------------------------------------------------------------
    def user_hit(self, value: str, rule: str, start: int, end: int, side: str = "user") -> Hit:
        """A hit whose evidence is at ``[start, end)`` of U_t."""
        order = len(self.s) + len(USER_SEP) + max(start, 0)
        return Hit(value, rule, side, "user", start, end, order)

    def system_hit(self, value: str, rule: str, start: int, end: int) -> Hit:
        """A hit whose evidence is at ``[start, end)`` of S_t."""
        return Hit(value, rule, "system", "system", start, end, max(start, 0))

    def surface_hits(self, surfaces: Iterable[tuple[str, str]], rule: str, side: str,
                     unless: Callable[[str], bool] | None = None) -> list[Hit]:
        """One hit of ``rule`` per ``(surface, value)`` of ``surfaces`` found in U_t (``side``
        "user") or S_t ("system"), at its first occurrence, with that value; a surface for
        which ``unless(surface)`` holds is passed over (the lexicon rules of §7.2 and §7.4)."""
        text, hit = (self.u, self.user_hit) if side == "user" else (self.s, self.system_hit)
        out = []
        for surface, value in surfaces:
            i = text.find(surface)
            if i >= 0 and not (unless and unless(surface)):
                out.append(hit(value, rule, i, i + len(surface)))
        return out

    def other_names_in_s(self, domain: str) -> bool:
        """"other-names occur in S" (§2.2)."""
        return any(o and o in self.s for o in self.state.other_names(domain))


_STREET = re.compile(r"(?:centre|west|east|south|north)(?:ampton)? (?:road|street|lane|avenue)")


def _blank(chars: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        chars[i] = "#"


def _mask(text: str, norm: Mapped, inv: Inventories, params: CorrectionSettings) -> str:
    chars = list(text)
    if params.mask_entity_names:
        for alias in inv.mask_names:
            if alias in norm.text:
                for a, b in nword_matches(norm, alias):
                    _blank(chars, a, b)
    masked = "".join(chars)
    if params.mask_street_phrases:
        for m in _STREET.finditer(masked):
            _blank(chars, *m.span())
        masked = "".join(chars)
    if params.mask_addresses:
        for addr in inv.mask_addresses:
            i = masked.find(addr)
            while i >= 0:
                _blank(chars, i, i + len(addr))
                masked = "".join(chars)
                i = masked.find(addr, i + 1)
    return masked


def first_span(text: str, keys: Sequence[str]) -> tuple[int, int]:
    """Span of the earliest occurrence of any key in text."""
    best = (-1, -1)
    for k in keys:
        i = text.find(k)
        if i >= 0 and (best[0] < 0 or i < best[0]):
            best = (i, i + len(k))
    return best


def has_any(text: str, keys: Sequence[str]) -> bool:
    """True iff any of ``keys`` occurs in ``text`` as a plain substring (the cue-word tests of
    spec-annotation-consistency §7)."""
    return any(k in text for k in keys)

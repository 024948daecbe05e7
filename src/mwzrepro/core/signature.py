"""Signatures: a short string recording every setting behind a number (design.md).

In the spirit of sacrebleu's ``BLEU|nrefs:1|case:mixed|...|version:2.6.0``: the metric name
first, then ``key:value`` fields in a fixed order, the package version last. Two numbers may
share a table column only if their signatures agree on every field except the ones a table is
allowed to vary (usually ``system``).

Example:
    >>> s = Signature("BLEU", {"ver": "mwz21", "ref": "span", "tok": "13a"})
    >>> s.format()
    'BLEU|ver:mwz21|ref:span|tok:13a|v:0.1.0'
    >>> Signature.parse(s.format()) == s
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from mwzrepro.core.version import __version__
from mwzrepro.core.errors import InputError, MwzreproError

__all__ = ["Signature", "SignatureMismatch", "check_compatible", "add_fields",
           "table_signature", "PER_ROW", "NORMALIZATION_VERSION"]

#: A table note's value of a field that differs between the rows of one column; each row
#: shows its own value (the ``states`` and ``domains`` columns of Table 5, say).
PER_ROW = "<row>"

#: Version of the response/state normalization rules (spec-standard-evaluation §3–4 as of the
#: reference evaluator's 2022-06-10 behaviour). Bump it whenever a rule changes.
NORMALIZATION_VERSION = "mwzeval-2022-06-10"


class SignatureMismatch(MwzreproError, ValueError):
    """Numbers with different settings were about to be put into one table column."""


@dataclass(frozen=True)
class Signature:
    """A metric name and its ordered settings; ``v`` (package version) is appended last.

    Args:
        metric: metric name, e.g. ``"BLEU"``, ``"Inform"``, ``"JGA"``.
        fields: ordered ``{key: value}``; values are rendered with ``str`` (booleans as
            ``yes``/``no``); ``None`` values are omitted.
    """

    metric: str
    fields: Mapping[str, object] = field(default_factory=dict)
    version: str = __version__

    def items(self) -> list[tuple[str, str]]:
        """The rendered ``(key, value)`` pairs, in order, ``v`` last."""
        out = []
        for k, v in self.fields.items():
            if v is None:
                continue
            if isinstance(v, bool):
                v = "yes" if v else "no"
            out.append((k, str(v)))
        out.append(("v", self.version))
        return out

    def format(self) -> str:
        """``METRIC|key:value|...|v:VERSION``."""
        return "|".join([self.metric] + [f"{k}:{v}" for k, v in self.items()])

    __str__ = format

    @classmethod
    def parse(cls, text: str) -> Signature:
        """Inverse of :meth:`format` (all values come back as strings).

        Raises:
            InputError: a field is not ``key:value`` (a corrupt score file).

        >>> Signature.parse("BLEU|nokey")
        Traceback (most recent call last):
        ...
        mwzrepro.core.errors.InputError: malformed signature field 'nokey' in 'BLEU|nokey'
        """
        metric, *parts = text.split("|")
        fields: dict[str, object] = {}
        version = __version__
        for part in parts:
            key, sep, value = part.partition(":")
            if not sep:
                raise InputError(f"malformed signature field {part!r} in {text!r}")
            if key == "v":
                version = value
            else:
                fields[key] = value
        return cls(metric, fields, version)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Signature) and self.format() == other.format()

    def __hash__(self) -> int:
        return hash(self.format())

    def without(self, keys: Iterable[str]) -> Signature:
        """The same signature with the fields ``keys`` removed."""
        drop = set(keys)
        return Signature(
            self.metric, {k: v for k, v in self.fields.items() if k not in drop}, self.version
        )


def check_compatible(signatures: Iterable[str | Signature], vary: Iterable[str] = ("system",),
                     where: str = "") -> None:
    """Raise unless all signatures agree on every field outside ``vary``.

    >>> check_compatible(["BLEU|system:a|ver:mwz21", "BLEU|system:b|ver:mwz21"])
    >>> check_compatible(["BLEU|system:a|ver:mwz21", "BLEU|system:b|ver:mwz20"], where="col")
    Traceback (most recent call last):
    ...
    mwzrepro.core.signature.SignatureMismatch: col: cannot put numbers with different settings in one column: BLEU|system:a|ver:mwz21|v:0.1.0 vs BLEU|system:b|ver:mwz20|v:0.1.0

    Raises:
        SignatureMismatch: naming ``where`` and the two disagreeing signatures.
        InputError: a malformed signature string.
    """
    vary = tuple(vary)
    first: Signature | None = None
    for sig in signatures:
        s = Signature.parse(sig) if isinstance(sig, str) else sig
        if first is None:
            first = s
        elif s.without(vary) != first.without(vary):
            raise SignatureMismatch(
                f"{where + ': ' if where else ''}cannot put numbers with different settings "
                f"in one column: {first.format()} vs {s.format()}"
            )


def add_fields(text: str, fields: Mapping[str, object], before_coverage: bool = True) -> str:
    """A formatted signature with ``fields`` added after its own fields, before ``cov`` (the
    coverage stays next to the version): settings recorded outside the function that made
    the signature (``ph:ext``, ``alt:any``). ``before_coverage=False`` appends them after
    ``cov`` (the scorer's ``lex:`` field, which describes the input as read).

    >>> add_fields("BLEU|ver:mwz21|cov:x|v:0.1.0", {"ph": "ext"})
    'BLEU|ver:mwz21|ph:ext|cov:x|v:0.1.0'
    >>> add_fields("BLEU|ver:mwz21|cov:x|v:0.1.0", {"lex": "1-pred"}, before_coverage=False)
    'BLEU|ver:mwz21|cov:x|lex:1-pred|v:0.1.0'
    >>> add_fields("BLEU|ver:mwz21|v:0.1.0", {})
    'BLEU|ver:mwz21|v:0.1.0'
    """
    if not fields:
        return text
    sig = Signature.parse(text)
    if not before_coverage:
        return Signature(sig.metric, {**sig.fields, **fields}, sig.version).format()
    head = {k: v for k, v in sig.fields.items() if k != "cov"}
    tail = {"cov": sig.fields["cov"]} if "cov" in sig.fields else {}
    return Signature(sig.metric, {**head, **fields, **tail}, sig.version).format()


def table_signature(signatures: Iterable[str | Signature], per_row: Iterable[str] = ()) -> str:
    """The signature a table note gives for one column of rows: never the ``system`` field
    (signatures do not name systems); a field of ``per_row`` whose value differs between the
    rows — or that only some rows have — reads :data:`PER_ROW` (the rows show their own
    values), in the place the first row having it gives it; every other field as the rows
    share it, in the first row's order (check them first with :func:`check_compatible`).

    >>> table_signature(["I|system:a|dom:x|thr:90|v:1", "I|system:b|dom:y|thr:90|v:1"],
    ...                 per_row=("dom",))
    'I|dom:<row>|thr:90|v:1'
    >>> table_signature(["I|system:a|dom:x|v:1", "I|system:b|dom:x|v:1"], per_row=("dom",))
    'I|dom:x|v:1'
    >>> table_signature(["I|thr:90|lex:1-gold|v:1", "I|system:b|thr:90|cov:9/10|lex:1-pred|v:1"],
    ...                 per_row=("system", "cov", "lex"))
    'I|thr:90|cov:<row>|lex:<row>|v:1'
    """
    parsed = [s if isinstance(s, Signature) else Signature.parse(s) for s in signatures]
    first = parsed[0]
    differ = {k for k in per_row if len({p.fields.get(k) for p in parsed}) > 1}
    keys = [k for k in first.fields if k != "system"]
    for p in parsed[1:]:
        row = list(p.fields)
        for i, k in enumerate(row):
            if k in differ and k not in keys and k != "system":  # one the rows before lack
                before = next((j for j in reversed(row[:i]) if j in keys), None)
                keys.insert(0 if before is None else keys.index(before) + 1, k)
    fields = {k: PER_ROW if k in differ else first.fields[k] for k in keys}
    return Signature(first.metric, fields, first.version).format()

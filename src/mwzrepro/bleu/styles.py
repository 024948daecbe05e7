"""BLEU of every system under every reference delexicalization style (Nekvinda & Dušek 2021,
Table 4; spec-paper-tables §1).

Each (style, system) is scored exactly like the span-based BLEU (:func:`mwzrepro.bleu.score.
corpus_bleu`: sacreBLEU defaults on the normalized responses, spec-standard-evaluation §11)
against that style's ``references`` table. The signature's ``ref`` field names the style
(``lava-as-hdsa`` for the stand-in LAVA row) and its version is the data the references were
built from; ``pairs:yes/no`` records whether the style's word pairs were available.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from mwzrepro.bleu.score import corpus_bleu
from mwzrepro.core.signature import Signature
from mwzrepro.prepare.delex.styles import style as get_style

__all__ = ["style_signature", "score_styles"]


def style_signature(signature: Signature, word_pairs: bool | None) -> Signature:
    """``signature`` with ``pairs:yes``/``pairs:no`` inserted after ``ref`` (unchanged when
    ``word_pairs`` is ``None``, i.e. the style has no word pairs).

    >>> s = Signature("BLEU", {"system": "x", "ref": "damd", "tok": "13a"}, "0")
    >>> style_signature(s, False).format()
    'BLEU|system:x|ref:damd|pairs:no|tok:13a|v:0'
    """
    if word_pairs is None:
        return signature
    fields: dict[str, object] = {}
    for key, value in signature.fields.items():
        fields[key] = value
        if key == "ref":
            fields["pairs"] = word_pairs
    return Signature(signature.metric, fields, signature.version)


def score_styles(
    predictions: Mapping[str, pd.DataFrame], references: Mapping[str, pd.DataFrame],
    word_pairs: Mapping[str, bool] | None = None,
) -> pd.DataFrame:
    """Corpus BLEU of every system against every style's references.

    Args:
        predictions: ``{system: predictions table}``.
        references: ``{style name: references table}`` (names of
            :data:`mwzrepro.prepare.delex.styles.STYLES`).
        word_pairs: ``{style: whether its word pairs were used}`` for the styles that have
            word pairs (DAMD, UniConv); missing styles count as ``False``.

    Returns:
        A ``scores`` table: one row per (style, system) with metric ``bleu``, setting = style
        name, key ``total``, value = BLEU (0-100, unrounded), version = the style's data
        version, signature naming the style.

    Raises:
        ConfigError: an unknown style.
        InputError: a predicted turn has no reference in a style.
    """
    word_pairs = dict(word_pairs or {})
    rows = []
    for name, refs in references.items():
        info = get_style(name)
        for system, preds in sorted(predictions.items()):
            result = corpus_bleu(preds, refs, info.version, system, info.ref)
            sig = style_signature(result.signature,
                                  word_pairs.get(name, False) if info.word_pairs else None)
            rows.append({"system": system, "version": info.version, "metric": "bleu",
                         "setting": name, "key": "total", "value": result.score,
                         "signature": sig.format()})
    return pd.DataFrame(rows, columns=["system", "version", "metric", "setting", "key", "value",
                                       "signature"])

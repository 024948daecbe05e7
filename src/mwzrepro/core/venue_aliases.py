"""The shared venue lexicon: seed aliases, the venue-name spellings that the annotation
scripts of Qian et al. 2021 added by hand (spec-annotation-consistency §5.1). Used by the
consistency correction's name lexicon (:mod:`mwzrepro.consistency.params`, parameter
``name_seed_aliases``) and by the unseen-entity test set's catalogue
(:mod:`mwzrepro.unseen.catalog`, :mod:`mwzrepro.unseen.build`).

>>> [alias for alias, _canonical, domain in DEFAULT_SEED_ALIASES if domain == "hotel"]
['marriott', 'alexander b & b', "rosa's bed and breakfast"]
"""

from __future__ import annotations

__all__ = ["DEFAULT_SEED_ALIASES"]

#: §5.1 seed alias table: (alias, canonical name, domain).
DEFAULT_SEED_ALIASES: tuple[tuple[str, str, str], ...] = (
    ("all saints", "all saints church", "attraction"),
    ("marriott", "huntingdon marriott hotel", "hotel"),
    ("alexander b & b", "alexander bed and breakfast", "hotel"),
    ("rosa's bed and breakfast", "rosa's bed and breakfast", "hotel"),
    ("travelers rest", "travellers rest", "restaurant"),
    ("caffe uno", "caffe uno", "restaurant"),
)

"""The digest of a value by its pickle: the key of an entry in the grounded table's memos (a
dialogue's fill inputs, :mod:`mwzrepro.prepare.delex.fill_memo`; a dialogue's preparation
inputs, :mod:`mwzrepro.scorer.lexicalized.prepared_memo`).

A pickle is exact on types (``1`` and ``1.0``, a tuple and a list differ) and fast on the
nested lists and dicts of a dialogue; two equal values that pickle differently (another type,
a structure shared otherwise) only get two keys, so a memo keyed by it computes once more and
is never wrong. A value that cannot be pickled has no key (the caller computes as always).

>>> pickle_digest(("sng0073", [{"response": "yes", "state": {}}]), 16).hex()[:8]
'54b2c4e0'
>>> pickle_digest(("a", [1]), 16) == pickle_digest(("a", [1.0]), 16)
False
>>> pickle_digest(lambda: 0, 16) is None
True
"""

from __future__ import annotations

import hashlib
import pickle
from typing import Any

__all__ = ["pickle_digest"]


def pickle_digest(value: Any, size: int) -> bytes | None:
    """The BLAKE2b digest (``size`` bytes, 1-64) of ``value``'s pickle (protocol 5), or None
    when ``value`` cannot be pickled (any error of :func:`pickle.dumps`)."""
    try:
        data = pickle.dumps(value, protocol=5)
    except Exception:  # noqa: BLE001 (no key: the caller computes as always)
        return None
    return hashlib.blake2b(data, digest_size=size).digest()

"""Export of the corrected states in the MultiWOZ 2.0/2.1 ConvLab layout
(spec-annotation-consistency §6.6 item 1).

The raw ConvLab file (``<split>.json.zip`` holding ``<split>.json``) is read, and for every
added or filled slot of ``states_corrected`` the primary value is written to
``log[2t+1].metadata[domain].semi[slot]``. Everything else — texts, dialogue acts, spans,
goals, key order, indentation, line ends and ASCII escaping — is left as in the source, so an
export without changes is byte-identical to the source JSON. The zip is written
deterministically (fixed member time stamp, fixed compression level). The raw file is only read.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path
from typing import Any

import pandas as pd

from mwzrepro.consistency.lexicons import is_dontcare
from mwzrepro.core.errors import InputError
from mwzrepro.prepare.ingest.convlab import read_convlab_text
from mwzrepro.core.io import atomic_path

__all__ = ["apply_to_convlab", "export_convlab"]

_EMPTY = frozenset({"", "not mentioned", "none"})
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _semi_key(semi: dict[str, Any], slot: str) -> str:
    for key in semi:
        if key.lower() == slot:
            return key
    return {"leaveat": "leaveAt", "arriveby": "arriveBy"}.get(slot, slot)


def apply_to_convlab(data: dict[str, Any], corrected: pd.DataFrame, where: str = "") -> int:
    """Write the added and filled slots of ``corrected`` into parsed ConvLab ``data`` in place.

    Args:
        data: ``{source dialogue id: {"goal", "log"}}`` as parsed from the raw file.
        corrected: a ``states_corrected`` table of the same split.
        where: file label for errors.

    Returns:
        The number of metadata values written.

    Raises:
        InputError: a corrected row names a dialogue or turn the data lacks, or would overwrite
            an original value other than an empty marker or ``dontcare`` (names the dialogue and
            turn).
    """
    ids = {(k[:-5] if k.lower().endswith(".json") else k).lower(): k for k in data}
    changed = corrected[corrected["origin"] != "original"]
    n = 0
    for did, t, d, s, v in changed[["dialogue_id", "turn", "domain", "slot",
                                    "value"]].itertuples(index=False):
        src = ids.get(did)
        label = f"{where}: dialogue {did}, turn {t}"
        if src is None:
            raise InputError(f"{label}: not in the source file")
        log = data[src].get("log") or []
        pos = 2 * int(t) + 1
        if pos >= len(log):
            raise InputError(f"{label}: the source log has no system entry {pos}")
        meta = log[pos].setdefault("metadata", {})
        dom = meta.setdefault(d, {"book": {"booked": []}, "semi": {}})
        semi = dom.setdefault("semi", {})
        key = _semi_key(semi, s)
        old = semi.get(key, "")
        if not isinstance(old, str) or (old.strip().lower() not in _EMPTY
                                         and not is_dontcare(old)):
            raise InputError(f"{label}: refusing to overwrite {d}.semi.{key}={old!r} with {v!r}")
        semi[key] = v
        n += 1
    return n


def export_convlab(
    raw_path: str | os.PathLike[str],
    corrected: pd.DataFrame,
    out_path: str | os.PathLike[str],
) -> dict[str, Any]:
    """Write the corrected split in the layout of its ConvLab source.

    Args:
        raw_path: the source ``<split>.json.zip`` (never modified).
        corrected: the split's ``states_corrected`` table.
        out_path: destination; ``.zip`` writes a zip with the source's member name, anything
            else a plain JSON file.

    Returns:
        ``{"member": str, "dialogues": int, "values_written": int}``.

    Raises:
        IngestError / InputError: see
            :func:`mwzrepro.prepare.ingest.convlab.read_convlab_text` and :func:`apply_to_convlab`.
    """
    member, text = read_convlab_text(raw_path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{raw_path}: invalid JSON: {exc}") from None
    n = apply_to_convlab(data, corrected, where=str(raw_path))
    newline = "\r\n" if "\r\n" in text[:4096] else "\n"
    out = json.dumps(data, indent=2, ensure_ascii="\\u" in text or text.isascii())
    if newline != "\n":
        out = out.replace("\n", newline)
    payload = out.encode("utf-8")
    out_path = Path(out_path)
    with atomic_path(out_path) as tmp:
        if out_path.suffix == ".zip":
            info = zipfile.ZipInfo(member, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with zipfile.ZipFile(tmp, "w") as zf:
                zf.writestr(info, payload, compresslevel=9)
        else:
            tmp.write_bytes(payload)
    return {"member": member, "dialogues": len(data), "values_written": n}

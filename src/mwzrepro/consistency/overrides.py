"""The optional ``overrides_file`` of the annotation-consistency correction
(spec-annotation-consistency §10): forced decisions that replace the scripts' hard-coded
turns. A TSV with the header ``dialogue_id turn domain slot value``; value ``none`` suppresses
the detection at that turn."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from mwzrepro.core.errors import InputError

__all__ = ["Override", "read_tsv", "read_overrides", "OVERRIDE_COLUMNS"]

#: Columns of an overrides file.
OVERRIDE_COLUMNS = ("dialogue_id", "turn", "domain", "slot", "value")


@dataclass(frozen=True)
class Override:
    """One forced decision of an ``overrides_file`` (§10): at user turn ``turn`` of
    ``dialogue_id`` the detection for (``domain``, ``slot``) is ``[value]``, or nothing when
    ``value`` is ``"none"``."""

    dialogue_id: str
    turn: int
    domain: str
    slot: str
    value: str


def read_tsv(path: str | os.PathLike[str], columns: tuple[str, ...]) -> list[dict[str, str]]:
    """Rows of a tab-separated file with a header containing ``columns`` (values verbatim).

    Raises:
        InputError: missing columns (names the file).
    """
    with Path(path).open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        missing = [c for c in columns if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError(f"{path}: missing TSV columns {missing}")
        return [{c: row[c] for c in columns} for row in reader]


def read_overrides(path: str | os.PathLike[str]) -> tuple[Override, ...]:
    """Parse an ``overrides_file``: dialogue ids canonical (lowercase, no ``.json``), domain
    and slot lowercased, values verbatim.

    Raises:
        InputError: a missing file, missing columns or a turn that is not an integer (names
            the file and row).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: overrides file not found")
    out = []
    for i, r in enumerate(read_tsv(path, OVERRIDE_COLUMNS)):
        try:
            turn = int(r["turn"])
        except ValueError:
            raise InputError(f"{path}: row {i + 2}: turn {r['turn']!r} is not an integer") \
                from None
        did = r["dialogue_id"].strip().lower()
        did = did[:-5] if did.endswith(".json") else did
        out.append(Override(did, turn, r["domain"].strip().lower(), r["slot"].strip().lower(),
                            r["value"]))
    return tuple(out)

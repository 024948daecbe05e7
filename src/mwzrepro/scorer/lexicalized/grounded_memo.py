"""What ``tables-grounded`` keeps between its runs (``--memo DIR``), so that a change of
``inform.fuzzy_threshold`` redoes only the work that the threshold changes.

The step fills 13 systems' outputs (:mod:`.round_trip`), prepares every row's text (lex:1
links, normalization, the prepared dialogues) and scores it. Each is an exact function of its
inputs dialogue by dialogue, the database entering only through the answers of the queries it
makes (:mod:`mwzrepro.core.query_log`). So the memo keeps, per row and dialogue:

* ``fills/<row>.pickle``: the fill with the database queries it made
  (:mod:`mwzrepro.prepare.delex.fill_memo`, which replays those queries before it reuses a
  fill);
* ``prepared/<row>.pickle``: the preparation of the filled text (:mod:`.prepared_memo`),
  keyed by a digest of the dialogue's text and the settings (no matching setting);
* ``scores/<row>.pickle``: its scores with the queries they made (:mod:`.dialogue_score_memo`).

Each file holds the entries the row used in its last run, under a key made of this package's
code (every module's source and the versions of the libraries that compute,
:func:`~mwzrepro.scorer.resources.stored_results.code_digest`, as the scorer's stored results)
and the resource set (its build key): another version of the code, or another resource set,
starts from an empty memo. Each row's worker reads and writes its own files
(:func:`read_row`, :func:`write_row`), so the parent reads nothing. The scores are then
computed at the threshold given; the numbers and every byte written are the same with or
without the memo (``tests/integration/test_grounded_table_real.py`` holds it).

The memo is a directory written by this package into the workspace (``data/memo/`` in the
pipeline, ignored by Git and DVC); the segments of the layout before (``NNNN.pickle`` at its
top: the links of every text and the fills of all rows, read by the parent) are deleted when
it is opened. Delete it at will: the next run recomputes it.
"""

from __future__ import annotations

import logging
import pickle
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mwzrepro.scorer.resources.stored_results import code_digest

__all__ = ["GroundedMemo", "memo_key", "open_memo", "read_row", "write_row", "row_path",
           "worth_writing"]

log = logging.getLogger(__name__)

#: The layout of the memo (part of its key).
MEMO_FORMAT = "2"


@dataclass
class GroundedMemo:
    """The memo of one resource set (module docstring).

    Attributes:
        key: ``<format>|<code digest>|<resource set key>``.
        directory: where the rows keep their files.
        anew: what this run's rows made anew (``filled``: dialogues, ``prepared``:
            dialogues, ``scored``: dialogue figures), summed by
            :func:`~mwzrepro.scorer.grounded_rows.grounded_rows`.
    """

    key: str
    directory: Path
    anew: Counter[str] = field(default_factory=Counter)


def memo_key(resources: Any) -> str:
    """The key of ``resources`` (a :class:`~mwzrepro.scorer.resources.resource_set.
    VersionResources`, its directory named by its build key) under this package's code."""
    return f"{MEMO_FORMAT}|{code_digest()}|{resources.version}/{resources.directory.name}"


def open_memo(directory: Path, resources: Any) -> GroundedMemo:
    """The memo kept in ``directory`` for ``resources`` (nothing is read: each row reads its
    own files); the segments of the layout before are deleted."""
    for old in directory.glob("[0-9][0-9][0-9][0-9].pickle"):
        log.info("memo %s is of the layout before: deleted", old)
        old.unlink(missing_ok=True)
    return GroundedMemo(memo_key(resources), directory)


def row_path(directory: Path, part: str, label: str) -> Path:
    """The file of row ``label``'s ``part`` (``fills``, ``prepared``, ``scores``).

    >>> row_path(Path("memo"), "scores", "oracle, lexicalized").as_posix()
    'memo/scores/oracle_lexicalized.pickle'
    """
    return directory / part / f"{re.sub(r'[^A-Za-z0-9._-]+', '_', label)}.pickle"


def read_row(directory: Path, part: str, label: str, key: Any) -> dict[Any, Any] | None:
    """The entries row ``label`` kept of ``part`` under ``key``; None when there is no such
    file, it is of another key, or it is damaged (logged: what it held is recomputed)."""
    from mwzrepro.core.gc_pause import paused_gc

    path = row_path(directory, part, label)
    try:
        with path.open("rb") as f, paused_gc():
            data = pickle.load(f)  # noqa: S301 (this package's own file in the workspace)
        if data.get("key") == key:
            return data["entries"]  # type: ignore[no-any-return]
    except FileNotFoundError:
        pass
    except Exception as e:  # noqa: BLE001 (a damaged memo costs time, never a result)
        log.warning("memo %s unreadable (%s): left out", path, e)
    return None


def write_row(directory: Path, part: str, label: str, key: Any, entries: dict[Any, Any]
              ) -> None:
    """Keep ``entries`` as row ``label``'s ``part`` under ``key``, atomically."""
    from mwzrepro.core.io import atomic_path

    path = row_path(directory, part, label)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, tmp.open("wb") as f:
        pickle.dump({"key": key, "entries": entries}, f, protocol=pickle.HIGHEST_PROTOCOL)


def worth_writing(entries: int, used: int, anew: int) -> bool:
    """Whether a row's file is written again: it held nothing, or more than an eighth of what
    the row used was made anew (the few a threshold change brings are cheaper to make again
    next time than the file is to write).

    >>> worth_writing(0, 10, 10), worth_writing(1000, 1000, 5), worth_writing(1000, 1000, 200)
    (True, False, True)
    """
    return not entries or anew * 8 > used

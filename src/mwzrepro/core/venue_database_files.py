"""The normative venue database files of the reference evaluator (spec-standard-evaluation
§5.1): their checksums and the checked reading of ``<domain>_db.json``.

The normative bytes are listed in :data:`NORMATIVE_SHA256`:

* attraction, hotel, train: ``Tomiinek/MultiWOZ_Evaluation/<commit>/mwzeval/data/database/``
  (``mwzeval-database-{attraction,hotel,train}-db`` in ``src/mwzrepro/resources/sources.yaml``);
  the MultiWOZ repository's attraction file differs (``mutliple sports`` typo), and
  ConvLab-2's hotel file differs too;
* restaurant: ``budzianowski/multiwoz/<commit>/db/restaurant_db.json`` (56,391 bytes; source
  ``multiwoz-db-restaurant-db``; ConvLab-2's copy is identical). The evaluator repository's
  newest ``restaurant_db.json`` (56,487 bytes, sha256 ``68628554…``) is the 2022-08-21 file
  with ``phone`` added to three restaurants (§15) and is **not** normative.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mwzrepro.core.errors import InputError

__all__ = ["NORMATIVE_SHA256", "file_sha256", "read_database_files"]

#: §5.1: SHA-256 of the normative database files (restaurant 110 entities / 56,391 bytes,
#: hotel 33 / 18,241, attraction 79 / 35,731, train 2,828 / 748,675).
NORMATIVE_SHA256: Mapping[str, str] = {
    "restaurant": "7864b4e36027af0907d6afe9ed962fecd6c6966cd626b8ae9341708a04ea201a",
    "hotel": "7f7d0fa564f6735b6a168a3ab72c7ca6f1180c49fa8a285bd9ebf7dac10e5e45",
    "attraction": "ac2486936c373917fd9ed1aa46d0e63f7dc6fae4667c80e62b643ac6051e9848",
    "train": "4818e735bae20690f6d0d06bb2ae8eec1981c0b680258a970dc01c9073f3fec9",
}


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_database_files(
    paths: Mapping[str, str | Path],
    expected_sha256: Mapping[str, str] | None = NORMATIVE_SHA256,
) -> dict[str, list[Any]]:
    """Read ``{domain: path of <domain>_db.json}`` (each a JSON array of entity objects) into
    ``{domain: [entity dict, ...]}``.

    ``expected_sha256`` (default: the normative checksums, :data:`NORMATIVE_SHA256`) is
    checked per domain present in it; ``None`` skips the check (test fixtures).

    Raises:
        InputError: a file is not a JSON array, or its checksum differs (the message names the
            file, both checksums and, for the restaurant file, the normative source).
        FileNotFoundError: a path does not exist.
    """
    tables = {}
    for domain, path in paths.items():
        path = Path(path)
        if expected_sha256 is not None and domain in expected_sha256:
            actual = file_sha256(path)
            if actual != expected_sha256[domain]:
                hint = (
                    " (use budzianowski/multiwoz db/restaurant_db.json, 56,391 bytes; the "
                    "evaluator repository's newer copy adds three phone numbers)"
                    if domain == "restaurant"
                    else ""
                )
                raise InputError(
                    f"{path}: sha256 {actual} is not the normative {domain} database "
                    f"{expected_sha256[domain]}{hint} (spec-standard-evaluation §5.1)"
                )
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise InputError(f"{path}: not valid JSON ({err})") from None
        if not isinstance(data, list):
            raise InputError(f"{path}: expected a JSON array of entities")
        tables[domain] = data
    return tables

"""Fixture mirrors for the scorer: small upstream files in the mirror layout
(``<owner>/<repo>/<commit>/<path>``) and a sources registry pinning their git blob SHA-1s,
built in a temporary directory — the whole fetch → verify → ingest → build → score path
without the real data.

* ``mwz21``: the two-dialogue ConvLab test set ``tests/fixtures/standard/mini_test.json``
  (SNG9001 cheap Chinese restaurant in the centre, SNG9002 taxi) zipped like ConvLab's
  ``test.json.zip``;
* ``mwz22``: the 2.2 fixture ``tests/fixtures/mwz22/`` (SNG0001, MUL0002, PMUL0003; character
  spans, ``dialog_acts.json``) plus a ConvLab-layout 2.1 file with the goals and bookings of
  the same three dialogues (2.2 has none; spec-standard-evaluation §5.2–5.3);
* the fixture venue database ``tests/fixtures/standard/db/``.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from mwzrepro.core.sources import RAW_PREFIX, git_blob_sha1
from mwzrepro.scorer.resources.build import DATABASE_SOURCES

FIX = Path(__file__).resolve().parents[2] / "fixtures"
REPO = "fixture/upstream/0123456789abcdef0123456789abcdef01234567"

#: Goals of the 2.2 fixture dialogues in the MultiWOZ 2.1 ``goal`` layout, and the system
#: turns at whose end a domain is booked (2.1 ``metadata[domain].book.booked``).
GOALS_21 = {
    "SNG0001.json": ({"restaurant": {"info": {"food": "italian", "pricerange": "cheap"},
                                     "reqt": [], "book": {"people": "2", "time": "18:30",
                                                          "day": "friday"}}},
                     {1: ["restaurant"]}),
    "MUL0002.json": ({"train": {"info": {"destination": "cambridge", "day": "sunday",
                                         "leaveAt": "20:00"}, "reqt": [],
                                "book": {"people": "3"}}},
                     {1: ["train"]}),
    "PMUL0003.json": ({"hospital": {"info": {"department": "neurology"},
                                    "reqt": ["address", "postcode"]},
                       "taxi": {"info": {"leaveAt": "10:15", "destination": "cambridge station",
                                         "departure": "addenbrookes hospital"},
                                "reqt": ["phone"]}},
                      {}),
}

_EMPTY_GOAL = {d: {} for d in ("taxi", "hotel", "attraction", "train", "police", "hospital",
                               "restaurant")}


def _zip(name: str, data: dict) -> bytes:
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
        z.writestr(info, json.dumps(data))
    return buf.getvalue()


def convlab_goals_file() -> dict:
    """The ConvLab-layout 2.1 file of the 2.2 fixture dialogues (texts are placeholders: only
    goals and bookings are read from it)."""
    out = {}
    for did, (goal, booked) in GOALS_21.items():
        log = []
        for i in range(4):
            entry = {"text": f"turn {i}", "metadata": {}, "dialog_act": {}, "span_info": []}
            if i % 2:
                entry["metadata"] = {
                    d: {"book": {"booked": [{"reference": "x"}] if d in booked.get(i // 2, [])
                                 else []}, "semi": {}}
                    for d in ("taxi", "restaurant", "hotel", "attraction", "train")}
            log.append(entry)
        out[did] = {"goal": {**_EMPTY_GOAL, **goal, "message": [], "topic": {}}, "log": log}
    return out


def _database_files() -> dict[str, tuple[str, bytes]]:
    return {sid: (f"db/{domain}_db.json", (FIX / "standard" / "db" / f"{domain}_db.json")
                  .read_bytes())
            for domain, sid in DATABASE_SOURCES.items()}


def version_files(version: str) -> dict[str, tuple[str, bytes]]:
    """``{registry id: (path in the fixture repository, bytes)}`` of a fixture version."""
    files = _database_files()
    if version == "mwz21":
        data = json.loads((FIX / "standard" / "mini_test.json").read_text(encoding="utf-8"))
        files["mwz21-test"] = ("data/test.json.zip", _zip("test.json", data))
    elif version == "mwz22":
        files["mwz21-test"] = ("data/test.json.zip", _zip("test.json", convlab_goals_file()))
        for n in ("001", "002"):
            files[f"multiwoz-test-dialogues-{n}"] = (
                f"data/MultiWOZ_2.2/test/dialogues_{n}.json",
                (FIX / "mwz22" / "test" / f"dialogues_{n}.json").read_bytes())
        files["multiwoz-dialog-acts"] = ("data/MultiWOZ_2.2/dialog_acts.json",
                                         (FIX / "mwz22" / "dialog_acts.json").read_bytes())
    else:
        raise ValueError(version)
    return files


def make_mirror(root: Path, version: str) -> tuple[Path, Path]:
    """Write a fixture mirror and registry for ``version`` under ``root``.

    Returns:
        ``(mirror directory, registry path)``.
    """
    mirror = root / "mirror"
    lines = ["sources:"]
    for sid, (path, data) in version_files(version).items():
        target = mirror / REPO / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        lines += [f"  {sid}:", f"    path: fixture/{version}/{path}",
                  f"    url: {RAW_PREFIX}{REPO}/{path}",
                  f"    sha1: {git_blob_sha1(data)}", "    role: fixture"]
    registry = root / "sources.yaml"
    registry.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return mirror, registry

"""Write or check a generated file: the one ending of every generator script
(``make_cli_registry.py``, ``make_params_schema.py``, ``make_dvc_yaml.py``)."""

from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(path: Path, text: str, regenerate: str, check: bool,
                   label: str | None = None) -> int:
    """With ``check``: 0 when ``path`` holds ``text``, else 1 with one line on stderr naming
    ``path`` and the command that regenerates it (``regenerate``). Without: write ``text`` to
    ``path`` when it differs (parents created; printing ``wrote <label>``), then 0. ``label``
    is how ``path`` is named in messages (default: the path)."""
    label = label or str(path)
    current = path.read_text(encoding="utf-8") if path.is_file() else None
    if check:
        if current != text:
            print(f"{label} is stale: run {regenerate}", file=sys.stderr)
            return 1
        return 0
    if current != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {label}")
    return 0

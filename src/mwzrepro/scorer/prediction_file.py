"""Reading a prediction file: JSON, with one clear line for every way it can fail to be read
(the shapes are checked by :mod:`mwzrepro.scorer.inputs`). Re-exported by
:mod:`mwzrepro.scorer.evaluator`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mwzrepro.core.errors import InputError

__all__ = ["read_predictions"]


def read_predictions(path: str | Path) -> Any:
    """Parse a prediction file (JSON).

    Raises:
        InputError: unreadable, not UTF-8, not JSON, or nested too deeply for the parser
            (``[[[[...]]]]``; one line naming the file).
    """
    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except RecursionError:
        raise InputError(f"{p.name}: JSON nested too deeply to be a prediction file") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{p.name}: not valid JSON: {exc}") from None

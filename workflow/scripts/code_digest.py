"""One code-dependency entry per command: ``data/code-deps/<command>.sha1``.

A pipeline step depends on the package source files its ``mwzrepro <command>`` may load
(:mod:`code_deps`). Listing them one by one made 12-37 dependency entries per DVC stage (about
2,000 in all) that DVC hashes, compares and writes to ``dvc.lock`` on every command. Instead,
one job (rule ``code_digests``, stage ``code-digests``) depends on every such file and writes,
per command, the ``sha1sum`` listing of that command's import closure::

    3f0c...  src/mwzrepro/__init__.py
    9a1b...  src/mwzrepro/cli/__init__.py
    ...

A listing changes exactly when a file of the command's closure changes (or the closure gains or
loses a file), so a stage that depends on its command's listing reruns exactly when the code its
process loads changes. The listing is deterministic (paths sorted, ``/``-separated) and a file
is written only when its text changes.

* DVC: each stage depends on ``data/code-deps/<command>.sha1`` (one entry); ``code-digests``
  depends on the union of the closures. After an edit, ``dvc status`` names ``code-digests``;
  ``dvc repro`` reruns it, then exactly the stages whose listing changed.
* Snakemake: each job keeps its command's source files as inputs (file times are what
  Snakemake compares; that costs little) and does not read the listing (a job whose input
  another job rewrites always reruns, so every edit would rerun everything); the listings
  are a final target (``rule all``), and ``mwzrepro record/sync STAGE`` add rule
  ``code_digests`` to their Snakemake targets.

Usage: ``python workflow/scripts/code_digest.py --out-dir data/code-deps [--log FILE] COMMAND...``
(``sha1sum -c data/code-deps/<command>.sha1`` checks a listing).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from code_deps import code_deps  # noqa: E402

#: Where the listings live (a directory output of one job).
DIGEST_DIR = "data/code-deps"


def digest_path(command: str) -> str:
    """The listing of ``command``'s import closure.

    >>> digest_path("score-bleu")
    'data/code-deps/score-bleu.sha1'
    """
    return f"{DIGEST_DIR}/{command}.sha1"


def listing(command: str, src_root: str = "src") -> str:
    """``sha1sum``-format lines (``<sha1>  <path>``) of every file of ``command``'s import
    closure (paths relative to the working directory, sorted).

    Raises:
        KeyError: ``command`` is not a subcommand.
        OSError: a closure file cannot be read.
    """
    lines = []
    for path in code_deps(command, src_root):
        lines.append(f"{hashlib.sha1(Path(path).read_bytes()).hexdigest()}  {path}\n")
    return "".join(lines)


def write_listings(commands: list[str], out_dir: Path, src_root: str = "src") -> list[Path]:
    """Write ``<out_dir>/<command>.sha1`` for each command (only where the text changed);
    the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for command in commands:
        path = out_dir / f"{command}.sha1"
        text = listing(command, src_root)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=Path(DIGEST_DIR))
    parser.add_argument("--src", default="src")
    parser.add_argument("--log", type=Path, default=None,
                        help="Also write which listings changed here (parents created).")
    parser.add_argument("commands", nargs="+")
    args = parser.parse_args(argv)
    try:
        written = write_listings(args.commands, args.out_dir, args.src)
    except (KeyError, ValueError, OSError) as exc:
        print(f"code_digest.py: {exc}", file=sys.stderr)
        return 1
    if args.log is not None:
        args.log.parent.mkdir(parents=True, exist_ok=True)
        args.log.write_text(f"{len(args.commands)} listings, changed: "
                            f"{' '.join(p.stem for p in written) or 'none'}\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

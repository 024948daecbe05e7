"""Benchmark: ``mwzrepro score conversations.json`` of the 1,000 test dialogues written as
conversations (the conversation setting; the corpus's user utterances and lexicalized system
turns, :func:`mwzrepro.scorer.lexicalized.conversation_probes.corpus_conversations`), whole
process, next to ``mwzrepro score --lexicalized --setting grounded`` of the same system text in
the turn-aligned form (target: at most 1.5×; the turn-aligned call timed with ``--metrics
success``, the conversation setting's figures, and with every metric). The user utterances
of the test set are linked once per resource set and stored (the grounding tables both paths
read); a second conversation row has every user utterance changed (``Well, `` before it), so
that each is linked as a simulator's new text would be.

Both calls run with ``--no-result-cache`` on resources already built in a temporary cache
(untimed warm-up calls build them and the grounding tables), from an empty directory; the
minimum of ``--repeat`` wall times is reported.

Usage::

    .venv/bin/python benchmarks/score_conversations.py [--mirror ../shared/mirror]
        [--mwzrepro .venv/bin/mwzrepro] [--repeat 3]

Wall times depend on other load on the machine; the load average is printed with them.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from score_cli import best_walls, scorer_arguments, scorer_sandbox, timed  # noqa: E402


def write_inputs(work: Path, env: dict[str, str]) -> tuple[Path, Path, Path]:
    """``(conversation file, the same with new user text, turn-aligned prediction file)``
    of the corpus text."""
    from mwzrepro.scorer.lexicalized.conversation_probes import corpus_conversations
    from mwzrepro.scorer.lexicalized.grounded_table import corpus_text
    from mwzrepro.scorer.resources.load import load_resources

    os.environ.update({k: env[k] for k in ("MWZREPRO_MIRROR", "MWZREPRO_CACHE")})
    resources = load_resources("mwz21")
    conversations, aligned = work / "conversations.json", work / "corpus-text.json"
    records = corpus_conversations(resources)
    conversations.write_text(json.dumps(records), encoding="utf-8")
    new_user = work / "conversations-new-user-text.json"
    new_user.write_text(json.dumps([{**r, "turns": [{**t, "user": "Well, " + t["user"]}
                                                    for t in r["turns"]]} for r in records]),
                        encoding="utf-8")
    aligned.write_text(json.dumps(corpus_text(resources)), encoding="utf-8")
    return conversations, new_user, aligned


def main() -> None:
    args = scorer_arguments(__doc__.split("\n\n")[0]).parse_args()
    mirror = args.mirror.resolve()
    with tempfile.TemporaryDirectory(prefix="mwzrepro-bench-conv-") as tmp:
        work = Path(tmp)
        empty, env = scorer_sandbox(work, mirror)
        cmd = [args.mwzrepro, "score", "--no-result-cache"]
        conversations, new_user, aligned = write_inputs(work, env)
        grounded = [str(aligned), "--lexicalized", "--setting", "grounded"]
        rows = {"turn-aligned, grounded, --metrics success": grounded + ["--metrics",
                                                                         "success"],
                "turn-aligned, grounded, every metric": grounded,
                "conversations (1,000)": [str(conversations)],
                "conversations, new user text": [str(new_user)]}
        for extra in rows.values():
            timed(cmd + extra, empty, env)      # warm-up: resources, grounding tables
        walls = best_walls(cmd, rows, empty, env, args.repeat, "corpus text")
        labels = list(rows)
        for row in labels[2:]:
            for base in labels[:2]:
                print(f"  ratio {row} / {base}: {walls[row] / walls[base]:.2f}  "
                      "(target <= 1.5)")


if __name__ == "__main__":
    main()

"""Parameters of the ``bleu_styles`` block of ``params.yaml``: BLEU under the reference
delexicalization styles of Nekvinda & Dušek 2021, Table 4 (spec-paper-tables §1).

Example:
    >>> p = BleuStylesParams()
    >>> p.word_pairs, p.systems.split(",")[:3]
    (True, ['damd', 'mintl', 'ubar'])
"""

from __future__ import annotations

from pydantic import Field

from mwzrepro.core.params import STRUCTURAL, ParamsModel

#: The 13 systems of the paper's Table 4, in its column order.
TABLE4_SYSTEMS = "damd,mintl,ubar,soloist,augpt,labes,dots,marco,hdsa,hdno,sfn,uniconv,lava"


class BleuStylesParams(ParamsModel):
    """Block ``bleu_styles``: which systems Table 4 scores, and whether the DAMD and UniConv
    styles apply their ``mapping.pair`` word-pair files."""

    systems: str = Field(
        TABLE4_SYSTEMS,
        description="Comma-separated systems scored against every reference style (the "
        "paper's 13 Table 4 columns).", json_schema_extra=STRUCTURAL)
    word_pairs: bool = Field(
        True,
        description="Apply DAMD's and UniConv's mapping.pair files (sources registry, role "
        "delex-word-pairs; signature pairs:yes). false builds the two rows without them "
        "(pairs:no): plural and contracted forms stay, and fewer systems are within 0.3 BLEU "
        "of the paper (4 and 6 of 13 instead of 13 and 13; see the README).",
        json_schema_extra=STRUCTURAL)

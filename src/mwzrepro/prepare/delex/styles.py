"""The reference delexicalization styles of Nekvinda & Dušek 2021, Table 4: what each one is,
which data it is built from and which module builds it (spec-paper-tables §1).

>>> [s.name for s in STYLES.values()]
['span', 'hdsa', 'damd', 'augpt', 'uniconv', 'lava']
>>> STYLES["lava"].ref
'lava-as-hdsa'
"""

from __future__ import annotations

from dataclasses import dataclass

from mwzrepro.core.errors import ConfigError

__all__ = ["ReferenceStyle", "STYLES", "style"]


@dataclass(frozen=True)
class ReferenceStyle:
    """One style.

    Attributes:
        name: key used in file names, metrics and signatures (``damd``).
        title: the paper's row label (``DAMD``).
        version: dataset version the references are built from (``mwz20``, ``mwz21``).
        ref: the signature's ``ref`` field (the name, or how a stand-in is labelled).
        source: repository, commit and files followed (or the file used verbatim).
        module: the module that builds the references.
        word_pairs: the style substitutes ``mapping.pair`` word pairs.
    """

    name: str
    title: str
    version: str
    ref: str
    source: str
    module: str
    word_pairs: bool = False


STYLES: dict[str, ReferenceStyle] = {s.name: s for s in (
    ReferenceStyle("span", "MWZ 2.2 (span)", "mwz21", "span",
                   "MultiWOZ dialogue-act spans, spec-standard-evaluation §5.4 (paper: 2.2 spans; "
                   "here the 2.1 spans)", "mwzrepro.prepare.delex.span"),
    ReferenceStyle("hdsa", "HDSA", "mwz20", "hdsa",
                   "wenhuchen/HDSA-Dialog@88e2604 data/test_reference.json (verbatim)",
                   "mwzrepro.prepare.delex.hdsa"),
    ReferenceStyle("damd", "DAMD", "mwz20", "damd",
                   "thu-spmi/damd-multiwoz@9b0456d preprocess.py, clean_dataset.py, ontology.py, "
                   "data/multi-woz/mapping.pair", "mwzrepro.prepare.delex.damd", True),
    ReferenceStyle("augpt", "AuGPT", "mwz21", "augpt",
                   "ufal/augpt@fa8a579 scripts/download_convlab_multiwoz.py; ConvLab-2@e368deeb "
                   "convlab2/util/multiwoz/dbquery.py", "mwzrepro.prepare.delex.augpt"),
    ReferenceStyle("uniconv", "UniConv", "mwz21", "uniconv",
                   "henryhungle/UniConv@e2b9bc8 preprocess_data.py, utils/delexicalizer.py, "
                   "utils/nlp.py, utils/mapping.pair", "mwzrepro.prepare.delex.uniconv", True),
    ReferenceStyle("lava", "LAVA", "mwz20", "lava-as-hdsa",
                   "LAVA's preprocessing is not public: HDSA's released references stand in "
                   "(both used the original MultiWOZ delexicalization script)",
                   "mwzrepro.prepare.delex.hdsa"),
)}


def style(name: str) -> ReferenceStyle:
    """The style called ``name``.

    Raises:
        ConfigError: unknown style (the message lists the known ones).
    """
    try:
        return STYLES[name]
    except KeyError:
        raise ConfigError(f"unknown reference style {name!r}; known: {', '.join(STYLES)}") from None

"""Named DST scoring conventions that reproduce published scripts (spec-dst-metrics §12.9).
Each preset is a :class:`Convention`; where a script does more than the switches express, the
difference is named here.

* ``fga`` — the FGA paper's scripts as reproduced by :mod:`mwzrepro.dst` (spec-dst-metrics): the
  30 canonical slots, §2.3 canonical values, gold ``dontcare`` kept, exact match, PMUL1455 left
  out. Equals the ``dst`` table's JGA and SA.
* ``mwzeval`` — the reference evaluator's state metrics (Tomiinek/MultiWOZ_Evaluation
  ``mwzeval/metrics.py``, ``get_dst``; spec-standard-evaluation §13): gold ``dontcare`` dropped,
  ``normalize_state`` names and values, every slot, fuzzy match > 95, every dialogue. Equals the
  ``state_match`` table's joint accuracy.
* ``simpletod`` — salesforce/simpletod ``compute_joint_acc.py`` at commit 917f66a ("use original
  cleaning"): predicted triples ending in ``none`` removed (line 36) and ``not mentioned`` removed
  on both sides (``utils/dst.py`` ``ignore_none``, lines 74–94); ``dontcare`` kept; sets of
  lowercased ``domain slot value`` strings compared exactly (line 53), every slot, every
  dialogue; without ``--default_cleaning`` (that flag applies TRADE's cleaning: the switch
  ``clean:trade``).
* ``simpletod-original`` — the same script at its first commit 5612176: ``ignore_none_dontcare``
  also removes every triple containing ``dontcare`` from the gold and the predicted states
  (salesforce/simpletod#5, #8: 55.7 against 50.5 JGA).
* ``trade`` — jasonwu0731/trade-dst (commit b77fcf1): gold labels cleaned by
  ``fix_general_label_error`` (``utils/fix_label.py``), the 30 slots of the five
  ``EXPERIMENT_DOMAINS`` (``utils/utils_multiWOZ_DST.py`` line 25), ``none`` predictions never
  emitted (``models/TRADE.py`` lines 169–195), sets compared exactly
  (``evaluate_metrics``, line 234), slot accuracy over the 30 slots (``compute_acc``, lines
  252–266). Our cleaning is applied to both sides (TRADE's predictions come from its cleaned
  vocabulary).
* ``convlab3`` — ConvLab/ConvLab-3 ``convlab/dst/evaluate_unified_datasets.py`` (commit
  2a168fc): only the gold state's slots (the unified ontology's) are compared, so predictions
  of other slots are ignored (lines 14–19; ConvLab-3#132); values compared with every
  whitespace removed and lowercased (lines 19, 22); ``dontcare`` kept; every dialogue.

>>> sorted(PRESETS)
['convlab3', 'fga', 'mwzeval', 'simpletod', 'simpletod-original', 'trade']
>>> PRESETS["mwzeval"].differences(PRESETS["fga"])
['dial', 'gdc', 'names', 'clean', 'slots', 'match']
"""

from __future__ import annotations

from mwzrepro.core.errors import ConfigError
from mwzrepro.dst.conventions.switches import Convention

__all__ = ["PRESETS", "preset"]

#: Preset name → convention (module doc: the script, file and lines each reproduces).
PRESETS: dict[str, Convention] = {
    "fga": Convention(),
    "mwzeval": Convention(dial="all", gdc="drop", names="ref", clean="mwzeval", slots="all",
                          match="fuzzy95"),
    "simpletod": Convention(dial="all", pign="none", clean="lower", slots="all"),
    "simpletod-original": Convention(dial="all", gdc="drop", pign="none+dc", clean="lower",
                                     slots="all"),
    "trade": Convention(dial="all", pign="none", clean="trade"),
    "convlab3": Convention(dial="all", clean="convlab3"),
}


def preset(name: str) -> Convention:
    """The convention of a preset.

    Raises:
        ConfigError: an unknown name (one line listing the known names).
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise ConfigError(f"unknown DST convention {name!r}; known: "
                          f"{', '.join(PRESETS)}") from None

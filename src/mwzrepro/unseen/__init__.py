"""The unseen-entity MultiWOZ test set (spec-unseen-entity-test-set Part A; Qian et al. 2021 §5).

Every named entity of a test split is replaced by an entity from the Schema-Guided Dialogue
dataset (SGD) that occurs nowhere in MultiWOZ's seen material. Modules, in pipeline order:

* :mod:`~mwzrepro.unseen.text` — key, N, token-normalised view, surface casing/tokenisation;
* :mod:`~mwzrepro.unseen.families` — slot families, SGD sources, defaults;
* :mod:`~mwzrepro.unseen.sgd_pools` — reading SGD and building the replacement pools (§4);
* :mod:`~mwzrepro.unseen.seen` — the seen set S and the unseen test U1–U3 (§5);
* :mod:`~mwzrepro.unseen.entities` — entities of a dialogue and their resolution (§6);
* :mod:`~mwzrepro.unseen.mentions` — mentions in text and the offset map (§8.1, §8.4);
* :mod:`~mwzrepro.unseen.testset` — planning, keyed-hash choice and rewriting (§7, §8);
* :mod:`~mwzrepro.unseen.validate` — mapping and leak reports, acceptance checks (§9, §13);
* :mod:`~mwzrepro.unseen.build` — one call from inputs to every artefact.

The entity-bias measures (Part B) are in :mod:`mwzrepro.unseen.bias`.
"""

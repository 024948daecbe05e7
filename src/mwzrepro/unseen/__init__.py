"""The unseen-entity MultiWOZ test set (spec-unseen-entity-test-set Part A; Qian et al., 2021, §5).

Every named entity of a test split is replaced by an entity from the Schema-Guided Dialogue
dataset (SGD) that occurs nowhere in MultiWOZ's seen material. Modules, in pipeline order:

* :mod:`~mwzrepro.unseen.params` — the ``unseen`` and ``bias`` parameter blocks (§12);
* :mod:`~mwzrepro.unseen.text` — key, N, token-normalised view, surface casing/tokenisation;
* :mod:`~mwzrepro.unseen.families` — slot families, SGD sources, defaults;
* :mod:`~mwzrepro.unseen.sgd_pools` — reading SGD and building the replacement pools (§4);
* :mod:`~mwzrepro.unseen.seen` — the seen set S and the unseen test U1–U3 (§5);
* :mod:`~mwzrepro.unseen.catalog` — database names, aliases, stations; resolution (§6.2);
* :mod:`~mwzrepro.unseen.entities` — entities of a dialogue (§6.1–6.2);
* :mod:`~mwzrepro.unseen.mentions` — mentions in text and the offset map (§8.1, §8.4);
* :mod:`~mwzrepro.unseen.plan` — a dialogue's entities, mentions and order (§6, §7.1, §8.1);
* :mod:`~mwzrepro.unseen.replacements` — pools and the keyed-hash choice (§4.3, §7);
* :mod:`~mwzrepro.unseen.rewrite` — the rewritten dialogue (§8);
* :mod:`~mwzrepro.unseen.testset` — the three steps over a whole split;
* :mod:`~mwzrepro.unseen.reports` — mapping and leak reports (§9);
* :mod:`~mwzrepro.unseen.dialogue_checks` — acceptance checks 4–7, dialogue by dialogue (§13);
* :mod:`~mwzrepro.unseen.validate` — the acceptance report: every check and the stats (§13, §9);
* :mod:`~mwzrepro.unseen.build` — one call from inputs to every artefact.

The entity-bias measures (Part B) are in :mod:`mwzrepro.unseen.bias`, their tables in
:mod:`mwzrepro.unseen.bias_tables` and plot in :mod:`mwzrepro.unseen.bias_plot`.
"""

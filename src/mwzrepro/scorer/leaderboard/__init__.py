"""Many systems at once: leaderboards, comparability, two systems compared.

A table of many files scored in one call (:mod:`.evaluate_many`), which
rows may be compared (:mod:`.comparability`), intervals and paired tests (:mod:`.stats`), the
table's renderings (:mod:`.report`) and two systems compared with a paired bootstrap
(:mod:`.compare`).
"""

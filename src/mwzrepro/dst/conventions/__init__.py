"""DST scoring conventions as signed switches (spec-dst-metrics, addendum "DST scoring
conventions" in docs/specification.md): the switches (:mod:`.switches`), label cleaning
(:mod:`.cleaning`), the corpus of raw turns (:mod:`.turns`), scoring under a convention
(:mod:`.scoring`), the named presets (:mod:`.presets`) and the ladder between two presets
(:mod:`.ladder`)."""

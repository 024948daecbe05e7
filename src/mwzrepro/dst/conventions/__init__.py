"""DST scoring conventions as signed switches (spec-dst-metrics §12,
the addendum in docs/specification.md): the switches (:mod:`.switches`), label cleaning
(:mod:`.cleaning`), the corpus of raw turns (:mod:`.turns`), scoring under a convention
(:mod:`.scoring`), the named presets (:mod:`.presets`) and the ladder between two presets
(:mod:`.ladder`)."""

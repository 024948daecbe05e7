"""The standard evaluation of Nekvinda & Dušek 2021 (spec-standard-evaluation): goals, gold states, booked and active domains, Inform/Success, richness, state metrics and their tables."""

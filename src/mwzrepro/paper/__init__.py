"""The remaining paper tables as DataFrames next to the published values (spec-paper-tables).

Nekvinda & Dušek 2021 Tables 2, 4, 8 and 9, and the FGA paper's Table 2."""

"""The remaining tables of the papers: Nekvinda & Dušek 2021 Tables 2, 4, 8 and 9 and the FGA
paper's Table 2 (spec-paper-tables), each as a DataFrame next to the published values."""

"""BLEU of generated responses against delexicalized references (Nekvinda & Dušek 2021, Table 4)."""

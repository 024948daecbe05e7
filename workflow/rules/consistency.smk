# Rules of the consistency area (see dvc.yaml for the mirrored stages).

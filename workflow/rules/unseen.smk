# Rules of the unseen area (see dvc.yaml for the mirrored stages).

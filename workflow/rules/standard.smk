# Rules of the standard area (see dvc.yaml for the mirrored stages).

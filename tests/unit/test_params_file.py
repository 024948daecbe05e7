"""params.yaml is kept in the form DVC writes back: `dvc exp run -S key=value` rewrites the
whole file (ruamel round trip: block lists, its own quoting, lines folded at 80 columns, a
comment line after a list dropped), so a file in any other form would come back from "change
one parameter and back" (docs/workflows.md) with a diff of quoting and lost comments. Here the
repository's file goes through DVC's own rewrite, there and back, and must come back
byte-identical; the values it holds are those Snakemake reads."""

from __future__ import annotations

import shutil

import pytest
import yaml

from tests.conftest import REPO

pytest.importorskip("dvc")
pytest.importorskip("hydra")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("key, there, back", [
    ("inform.fuzzy_threshold", "85", "90"),
    ("standard.placeholders", "extended", "reference"),
])
def test_dvc_set_param_there_and_back_leaves_params_yaml_byte_identical(tmp_path, key, there,
                                                                        back) -> None:
    from dvc.utils.hydra import apply_overrides

    path = tmp_path / "params.yaml"
    shutil.copy2(REPO / "params.yaml", path)
    original = path.read_bytes()
    apply_overrides(path, [f"{key}={there}"])
    changed = yaml.safe_load(path.read_text(encoding="utf-8"))
    block, leaf = key.split(".")
    assert str(changed[block][leaf]) == there
    apply_overrides(path, [f"{key}={back}"])
    assert path.read_bytes() == original


def test_params_yaml_keeps_its_comments_through_dvc(tmp_path) -> None:
    from dvc.utils.hydra import apply_overrides

    path = tmp_path / "params.yaml"
    shutil.copy2(REPO / "params.yaml", path)
    apply_overrides(path, ["inform.fuzzy_threshold=85"])
    text = path.read_text(encoding="utf-8")
    assert "Add your own system here (see README)" in text
    assert text.count("\n#") + text.count("  #") == (
        (REPO / "params.yaml").read_text(encoding="utf-8").count("\n#")
        + (REPO / "params.yaml").read_text(encoding="utf-8").count("  #"))

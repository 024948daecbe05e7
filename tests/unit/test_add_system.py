"""`mwzrepro add-system`: a user's prediction file, from any path, becomes a verified pipeline
source registered in the project's submissions.yaml (never in the package)."""

import hashlib
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mwzrepro.cli import cli
from mwzrepro.core.errors import InputError
from mwzrepro.core.sources import fetch, git_blob_sha1, load_registries, load_registry
from mwzrepro.standard.system_labels import with_submission_labels

REPO = Path(__file__).resolve().parents[2]
SHIPPED = "src/mwzrepro/resources/sources.yaml"
PREDICTIONS = b'{"sng0073": [{"response": "[restaurant_name] it is , bye"}]}'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project root (the working directory) with the shipped registry."""
    root = tmp_path / "project"
    (root / "src/mwzrepro/resources").mkdir(parents=True)
    shutil.copy(REPO / SHIPPED, root / SHIPPED)
    monkeypatch.chdir(root)
    return root


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + p.read_bytes())
    return h.hexdigest()


def test_add_system_registers_a_verified_local_source(project: Path) -> None:
    (project / "sub").mkdir()
    (project / "sub/mine.json").write_bytes(PREDICTIONS)
    src_before = _tree_digest(project / "src")
    runner = CliRunner()
    result = runner.invoke(cli, ["add-system", "sub/mine.json", "--name", "mine"])
    assert result.exit_code == 0, result.output
    assert _tree_digest(project / "src") == src_before  # the package is left untouched
    entry = load_registry("submissions.yaml", "sources")["mwzeval-predictions-mine"]
    assert entry.path == "mwzeval/predictions/mine.json" and entry.url == "file:sub/mine.json"
    assert entry.sha1 == git_blob_sha1(PREDICTIONS)
    assert "mwzeval-predictions-mine" not in load_registry(SHIPPED)
    assert "mwzeval-predictions-mine" in load_registries([SHIPPED, "submissions.yaml"],
                                                         "sources")
    fetch(entry, "data/raw/mwzeval/predictions/mine.json", mirror="/nonexistent")
    assert Path("data/raw/mwzeval/predictions/mine.json").read_bytes() == PREDICTIONS
    again = runner.invoke(cli, ["add-system", "sub/mine.json", "--name", "mine"])
    assert again.exit_code != 0 and "already registered" in str(again.exception)


def test_add_system_copies_a_file_from_outside_the_project(project: Path) -> None:
    outside = project.parent / "mysystems"
    outside.mkdir()
    (outside / "my_system.json").write_bytes(PREDICTIONS)
    src_before = _tree_digest(project / "src")
    result = CliRunner().invoke(cli, ["add-system", "../mysystems/my_system.json", "--name",
                                      "my_system", "--model", "T5-base", "--type", "end-to-end"])
    assert result.exit_code == 0, result.output
    assert Path("data/submissions/my_system.json").read_bytes() == PREDICTIONS
    assert _tree_digest(project / "src") == src_before
    reg = yaml.safe_load(Path("submissions.yaml").read_text())
    entry = reg["sources"]["mwzeval-predictions-my_system"]
    assert entry == {"path": "mwzeval/predictions/my_system.json",
                     "url": "file:data/submissions/my_system.json",
                     "sha1": git_blob_sha1(PREDICTIONS), "role": "prediction",
                     "model": "T5-base", "type": "end-to-end"}
    labels = with_submission_labels({"systems": {}}, reg)["systems"]
    assert labels == {"my_system": {"model": "T5-base", "type": "end-to-end"}}


def test_a_second_system_is_appended(project: Path) -> None:
    Path("a.json").write_bytes(PREDICTIONS)
    Path("b.json").write_bytes(PREDICTIONS.replace(b"bye", b"goodbye"))
    runner = CliRunner()
    assert runner.invoke(cli, ["add-system", "a.json", "--name", "a"]).exit_code == 0
    assert runner.invoke(cli, ["add-system", "b.json", "--name", "b"]).exit_code == 0
    assert list(load_registry("submissions.yaml", "sources")) == [
        "mwzeval-predictions-a", "mwzeval-predictions-b"]


@pytest.mark.parametrize("content, message", [
    (b"not json", "not valid JSON"),
    (b'["a list"]', "bad.json"),
    (b'{"sng0073": 5}', "sng0073"),
])
def test_a_bad_file_is_one_line_and_writes_nothing(project: Path, content: bytes,
                                                   message: str) -> None:
    Path("bad.json").write_bytes(content)
    result = CliRunner().invoke(cli, ["add-system", "bad.json", "--name", "bad"])
    assert result.exit_code != 0 and isinstance(result.exception, InputError)
    assert message in str(result.exception) and "\n" not in str(result.exception)
    assert not Path("submissions.yaml").exists() and not Path("data").exists()


def test_an_id_of_the_shipped_registry_is_refused(project: Path) -> None:
    Path("ubar.json").write_bytes(PREDICTIONS)
    result = CliRunner().invoke(cli, ["add-system", "ubar.json", "--name", "ubar"])
    assert result.exit_code != 0 and "already registered" in str(result.exception)


@pytest.mark.parametrize("responses, form, lexicalized", [
    (["the phone of nandos is 01223327908 .", "bye"], "auto", True),
    (["the phone of [restaurant_name] is [restaurant_phone] .", "bye"], "auto", False),
    (["[restaurant_name] it is .", "bye"], "lexicalized", True),
    (["nandos it is .", "bye"], "delexicalized", False),
])
def test_the_form_is_read_from_the_responses_or_given(project: Path, responses, form,
                                                      lexicalized) -> None:
    import json

    Path("mine.json").write_text(json.dumps({"sng0073": [{"response": r} for r in responses]}))
    result = CliRunner().invoke(cli, ["add-system", "mine.json", "--name", "mine",
                                      "--form", form])
    assert result.exit_code == 0, result.output
    entry = yaml.safe_load(Path("submissions.yaml").read_text())["sources"][
        "mwzeval-predictions-mine"]
    assert (entry.get("form") == "lexicalized") is lexicalized
    assert ("as lexicalized text" in result.output) is lexicalized

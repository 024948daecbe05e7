"""`mwzrepro add-system`: a user's prediction file becomes a verified pipeline source."""

import shutil
from pathlib import Path

from click.testing import CliRunner

from mwzrepro.cli import cli
from mwzrepro.core.sources import fetch, git_blob_sha1, load_registry

REPO = Path(__file__).resolve().parents[2]


def test_add_system_registers_a_verified_local_source(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src/mwzrepro/resources").mkdir(parents=True)
    shutil.copy(REPO / "src/mwzrepro/resources/sources.yaml", tmp_path / "src/mwzrepro/resources")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/mine.json").write_text('{"sng0073": [{"response": "bye"}]}')
    runner = CliRunner()
    result = runner.invoke(cli, ["add-system", "sub/mine.json", "--name", "mine"])
    assert result.exit_code == 0, result.output
    reg = load_registry("src/mwzrepro/resources/sources.yaml", "sources")
    entry = reg["mwzeval-predictions-mine"]
    assert entry.path == "mwzeval/predictions/mine.json" and entry.url == "file:sub/mine.json"
    assert entry.sha1 == git_blob_sha1(b'{"sng0073": [{"response": "bye"}]}')
    assert "mwzeval-predictions-mine" not in load_registry("src/mwzrepro/resources/sources.yaml",
                                                           "extra")
    fetch(entry, "data/raw/mwzeval/predictions/mine.json", mirror="/nonexistent")
    assert Path("data/raw/mwzeval/predictions/mine.json").read_bytes() == \
        Path("sub/mine.json").read_bytes()
    again = runner.invoke(cli, ["add-system", "sub/mine.json", "--name", "mine"])
    assert again.exit_code != 0 and "already registered" in str(again.exception)

"""Sources: git blob ids, mirror resolution, verified atomic fetch, clear errors."""

from pathlib import Path

import pytest

from mwzrepro.core.errors import DownloadError
from mwzrepro.core.sources import (
    RAW_PREFIX, Source, fetch, git_blob_sha1, load_registry, mirror_path, verify_file,
)

REPO = Path(__file__).resolve().parents[2]
URL = RAW_PREFIX + "owner/repo/" + "a" * 40 + "/data/file.txt"


def test_git_blob_sha1_matches_git() -> None:
    # `printf 'hello\n' | git hash-object --stdin`
    assert git_blob_sha1(b"hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"
    assert git_blob_sha1(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


def test_mirror_layout() -> None:
    assert mirror_path("/m", URL) == Path("/m/owner/repo/" + "a" * 40 + "/data/file.txt")
    with pytest.raises(DownloadError, match="not under"):
        mirror_path("/m", "https://example.org/x")


def _mirror(tmp_path: Path, content: bytes) -> tuple[Path, Source]:
    mirror = tmp_path / "mirror"
    f = mirror_path(mirror, URL)
    f.parent.mkdir(parents=True)
    f.write_bytes(content)
    return mirror, Source("x", "x/file.txt", URL, git_blob_sha1(b"good\n"), "test")


def test_fetch_from_mirror_verifies_and_writes(tmp_path: Path) -> None:
    mirror, src = _mirror(tmp_path, b"good\n")
    out = tmp_path / "raw" / "file.txt"
    origin = fetch(src, out, mirror)
    assert out.read_bytes() == b"good\n" and origin.endswith("data/file.txt")
    assert list(out.parent.iterdir()) == [out]  # no temporary leftovers


def test_checksum_mismatch_names_file_and_both_ids(tmp_path: Path) -> None:
    mirror, src = _mirror(tmp_path, b"evil\n")
    out = tmp_path / "raw" / "file.txt"
    with pytest.raises(DownloadError) as exc:
        fetch(src, out, mirror)
    msg = str(exc.value)
    assert str(out) in msg and git_blob_sha1(b"evil\n") in msg and src.sha1 in msg
    assert not out.exists() and not out.parent.exists()


def test_missing_mirror_file_is_one_clear_line(tmp_path: Path) -> None:
    src = Source("x", "x/file.txt", URL, git_blob_sha1(b"good\n"), "test")
    out = tmp_path / "raw" / "file.txt"
    with pytest.raises(DownloadError, match="not in the mirror") as exc:
        fetch(src, out, tmp_path / "empty")
    assert src.sha1 in str(exc.value) and "\n" not in str(exc.value)
    assert not out.exists()


def test_network_failure_is_reported(tmp_path: Path) -> None:
    src = Source("x", "x", "http://127.0.0.1:9/nothing", "0" * 40, "test")
    with pytest.raises(DownloadError, match="cannot download"):
        fetch(src, tmp_path / "f", None, timeout=2)


def test_verify_file(tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"good\n")
    verify_file(f, git_blob_sha1(b"good\n"))
    f.write_bytes(b"goof\n")
    with pytest.raises(DownloadError, match="does not match"):
        verify_file(f, git_blob_sha1(b"good\n"))
    with pytest.raises(DownloadError, match="cannot read"):
        verify_file(tmp_path / "missing", "0" * 40)


def test_registry_pins_every_source_the_issue_lists() -> None:
    reg = load_registry(REPO / "src/mwzrepro/resources/sources.yaml")
    roles = {s.role for s in reg.values()}
    for role in ("mwz20-test", "mwz20-val", "mwz21-test", "mwz21-val", "mwz22-test", "mwz22-dev",
                 "mwz22-train", "mwz22-dialog-acts", "schema", "db", "eval-booked-domains",
                 "prediction", "dst-prediction", "dst-human-eval", "sgd-schema",
                 "sgd-dialogues", "mwz20-full", "mwz21-full", "mwz22plus-full", "mwz23-full",
                 "mwz24-full"):
        assert role in roles, role
    assert sum(s.role == "prediction" for s in reg.values()) == 19
    for s in reg.values():
        assert s.url.startswith(RAW_PREFIX) and len(s.sha1) == 40
        commit = s.url[len(RAW_PREFIX):].split("/")[2]
        assert len(commit) == 40, s.url  # pinned to a commit, not a branch
    assert len({s.path for s in reg.values()}) == len(reg)


def test_download_groups_of_the_registry() -> None:
    """The pipeline downloads by group (first path component): one job per upstream
    repository's files; every `sources:` entry is in exactly one group."""
    from mwzrepro.core.sources import groups

    sources = load_registry(REPO / "src/mwzrepro/resources/sources.yaml", "sources")
    by_group = groups(sources)
    assert set(by_group) == {"damd", "fga", "hdsa", "multiwoz", "mwz20", "mwz21", "mwzeval",
                             "sgd", "uniconv"}
    assert sum(len(v) for v in by_group.values()) == len(sources)
    assert [s.id for s in by_group["mwz20"]] == ["mwz20-test", "mwz20-val"]
    # DAMD's and UniConv's word pairs (issue 20): one file each, applied by default
    assert [(s.id, s.role) for s in by_group["damd"] + by_group["uniconv"]] == [
        ("damd-multi-woz-mapping-pair", "delex-word-pairs"),
        ("uniconv-utils-mapping-pair", "delex-word-pairs")]


def test_download_group_command_fetches_the_group(tmp_path: Path, monkeypatch) -> None:
    """`mwzrepro download --sources R --group G --out-dir D` writes D/<path> for every entry of
    group G, from a relative mirror path resolved against the current directory."""
    from click.testing import CliRunner

    from mwzrepro.cli import cli

    mirror = tmp_path / "mirror"
    entries = {}
    for name, body in (("a.txt", b"alpha\n"), ("sub/b.txt", b"beta\n")):
        url = RAW_PREFIX + "o/r/" + "c" * 40 + "/" + name
        target = mirror_path(mirror, url)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        entries[name] = (url, git_blob_sha1(body))
    other = RAW_PREFIX + "o/r/" + "c" * 40 + "/other.txt"
    (tmp_path / "sources.yaml").write_text(
        "sources:\n"
        + "".join(f"  g-{i}:\n    path: g/{n}\n    url: {u}\n    sha1: {s}\n    role: t\n"
                  for i, (n, (u, s)) in enumerate(entries.items()))
        + f"  h-0:\n    path: h/other.txt\n    url: {other}\n    sha1: {'0' * 40}\n    role: t\n")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["download", "--sources", "sources.yaml", "--group", "g",
                                   "--out-dir", "raw", "--mirror", "mirror"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "raw/g/a.txt").read_bytes() == b"alpha\n"
    assert (tmp_path / "raw/g/sub/b.txt").read_bytes() == b"beta\n"
    assert not (tmp_path / "raw/h").exists()
    res = CliRunner().invoke(cli, ["download", "--sources", "sources.yaml", "--group", "zz",
                                   "--out-dir", "raw"])
    assert res.exit_code == 1 and "no `sources:` entry in group 'zz'" in str(res.exception)

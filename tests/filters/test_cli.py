"""``python -m filters``: extract, learn, stats."""

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _page(n):
    return (
        f"<html><head><title>Page {n}</title></head><body><div>Example Gazette - all the news that fits"
        f"</div><p>Article {n} reports that the {['mayor', 'council', 'river', 'school'][n % 4]} "
        f"made headlines on day {n} of the week.</p><a href='/'>Home</a></body></html>"
    )


@pytest.fixture
def site(tmp_path):
    for n in range(4):
        (tmp_path / f"p{n}.html").write_text(_page(n))
    (tmp_path / "p9.html.gz").write_bytes(gzip.compress(_page(9).encode()))
    return tmp_path


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "filters", *map(str, args)], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def test_extract_prints_core_text_and_explains(site):
    out = run("extract", site / "p1.html")
    assert out.returncode == 0
    assert "Article 1 reports that the council made headlines on day 1 of the week." in out.stdout
    assert "Home" not in out.stdout
    out = run("extract", site / "p9.html.gz", "--explain", "--profile", "thesis")
    assert "[removed by length] /html/body/a" in out.stdout
    assert "# phrases" in out.stdout


def test_extract_reports_bad_input(tmp_path):
    bad = tmp_path / "x.html"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    out = run("extract", bad)
    assert out.returncode == 1 and "PNG" in out.stderr


def test_learn_then_extract_with_the_learned_profile(site, tmp_path):
    prof_file = tmp_path / "site.json"
    out = run("learn", site, "-o", prof_file, "--fixed-threshold")
    assert out.returncode == 0, out.stderr
    prof = json.loads(prof_file.read_text())
    assert prof["style_tree"]["root"]  # the default profile learns the site style tree (filters.sst)
    out = run("extract", site / "p2.html", "--profile", prof_file, "--explain")
    assert "[removed by redundancy: site template (style tree)]" in out.stdout


def test_stats_table(site):
    out = run("stats", site, "--learn", "--profile", "thesis")
    assert out.returncode == 0, out.stderr
    for label in (
        "phrases in total",
        "removed by phrase length",
        "removed by tag",
        "removed by redundancy",
        "core phrases",
        "(5 pages)",
    ):
        assert label in out.stdout
    row = next(line for line in out.stdout.splitlines() if line.startswith("removed by redundancy"))
    assert int(row.split()[3]) >= 4  # the banner, once per page

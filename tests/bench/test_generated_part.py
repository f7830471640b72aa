"""tests/bench/generated_part.py: a benchmark rewrites only its part of a report."""

from __future__ import annotations

from tests.bench.generated_part import markers, merged, write_part, write_section

SCRIPT = "tests/bench/bench_kb.py"


def test_only_the_part_between_the_markers_is_rewritten():
    begin, end = markers(SCRIPT)
    before = f"# Title by hand\n\n{begin}\nold figures\n{end}\n\n## Issue 30, by hand\n\nbefore/after table\n"
    after = merged(before, "new figures\n", SCRIPT)
    assert after == f"# Title by hand\n\n{begin}\nnew figures\n{end}\n\n## Issue 30, by hand\n\nbefore/after table\n"
    assert merged(after, "new figures\n", SCRIPT) == after, "a second run with the same figures changes nothing"


def test_a_file_without_markers_keeps_its_text_after_the_new_part(tmp_path):
    begin, end = markers(SCRIPT)
    report = tmp_path / "docs" / "report.md"
    assert write_part(report, "figures", SCRIPT) == f"{begin}\nfigures\n{end}\n", "created when missing"
    report.write_text("# Old report\n\nhand-written section\n")
    text = write_part(report, "figures", SCRIPT)
    assert text == f"{begin}\nfigures\n{end}\n\n# Old report\n\nhand-written section\n"
    assert report.read_text() == text


def test_another_scripts_markers_are_not_this_scripts():
    other_begin, other_end = markers("tests/bench/bench_mcrdr.py")
    text = f"{other_begin}\ntheirs\n{other_end}\n"
    assert merged(text, "mine", SCRIPT).endswith(text)


def test_a_section_between_named_markers_is_rewritten_or_added(tmp_path):
    begin, end = "<!-- results:start -->", "<!-- results:end -->"
    report = tmp_path / "report.md"
    write_section(report, f"{begin}\none\n{end}", begin, end, "# Report\n\n")
    assert report.read_text() == f"# Report\n\n{begin}\none\n{end}\n", "created with its heading"
    report.write_text(f"# Report\n\nby hand\n\n{begin}\none\n{end}\n\nafter, by hand\n")
    write_section(report, f"{begin}\ntwo\n{end}", begin, end, "# Report\n\n")
    assert report.read_text() == f"# Report\n\nby hand\n\n{begin}\ntwo\n{end}\n\nafter, by hand\n"
    report.write_text("# Another report\n")
    write_section(report, f"{begin}\nthree\n{end}", begin, end, "## Results\n\n")
    assert report.read_text() == f"# Another report\n\n## Results\n\n{begin}\nthree\n{end}\n", "added at the end"

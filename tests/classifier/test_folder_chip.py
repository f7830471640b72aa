"""The folder chip that lists show (classifier/templatetags/workspace.py folder_chip)."""


def test_a_folder_chip_escapes_the_folders_path():
    """The chip is a tag that writes its HTML (format_html), no longer an autoescaped include: a folder's name
    is an expert's text."""
    from classifier.filtering import FolderChip
    from classifier.templatetags.workspace import folder_chip

    for state in ("accepted", "suggested"):
        html = folder_chip(FolderChip(1, '<b onclick="x">News</b>', state))
        assert "&lt;b onclick=&quot;x&quot;&gt;News&lt;/b&gt;" in html and "<b" not in html

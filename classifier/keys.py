"""The workspace's keyboard map: every shortcut defined once, with one meaning on every page.

Templates read it through classifier/templatetags/workspace.py (``{% key "skip" %}`` puts ``data-key`` on the
element the key activates, ``{% kbd "skip" %}`` shows the key, ``{% shortcuts "article" %}`` lists a page's keys
in the ``?`` dialog); static/js/workspace.js reads the keys it handles itself (row moves, selection, commit)
from the page's ``data-keymap``. Adding a shortcut: add it to KEYS and to the pages that offer it in PAGES.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Key:
    key: str  # KeyboardEvent.key ("j", "A", "?") or a combination shown as typed ("Ctrl+Enter")
    does: str  # what it does, as the ? dialog says it
    shown: str = ""  # how the dialog shows it when that differs from the key ("1…9")

    @property
    def label(self) -> str:
        return self.shown or self.key

    @property
    def label_parts(self) -> list[str]:
        """The keys pressed together ("Ctrl+Enter" -> Ctrl, Enter), each shown as its own <kbd>."""
        return self.label.split("+") if len(self.label) > 1 else [self.label]


#: action name -> its key. One action, one key; one key, one meaning (the same on every page that offers it).
KEYS: dict[str, Key] = {
    # everywhere
    "inbox": Key("i", "inbox"),
    "folders": Key("g", "folders"),
    "search": Key("/", "search"),
    "help": Key("?", "show / hide this list"),
    # lists and views of articles
    "down": Key("j", "next article (older) in the list or view"),
    "up": Key("k", "previous article (newer) in the list or view"),
    "open": Key("o", "open the chosen article (or Enter)"),
    # x selects in every list, as in Gmail and Label Studio (so marking mode in the filter view is v)
    "select": Key("x", "select / unselect the chosen article (shift-click a box: a range)"),
    "next_page": Key("n", "next page of the list"),
    "prev_page": Key("p", "previous page of the list"),
    "to_list": Key("u", "back to the list this article was opened from"),
    "mark_unread": Key("U", "mark unread and go back to the list", shown="Shift+u"),
    # deciding on an article
    "pick": Key("1", "select / unselect a suggested folder", shown="1…9"),
    "accept_all": Key("a", "accept all suggestions, then open the next article"),
    "accept_selected": Key("A", "accept the selected suggestions, then open the next article", shown="Shift+a"),
    "skip": Key("s", "skip: open the next article without deciding"),
    "reject": Key("r", "reject the selected (or only) suggestion and make a stopping rule"),
    "refine": Key("e", "reject it and refine it to the right folder"),
    "add_folder": Key("c", "add a missing folder (create a rule)"),
    "move": Key("m", "move or copy to another folder (choose it, then Enter)"),
    "filter_view": Key("f", "filter view (phrases and filters)"),
    # the rule page and the filter view
    "back": Key("b", "back to the article"),
    "list_affected": Key("l", "list every stored article the rule would reclassify"),
    "commit": Key("Ctrl+Enter", "commit the rule"),
    "mark": Key("v", "start / leave marking mode"),
    "save_labels": Key("Ctrl+Enter", "save the labels"),
}

#: page -> the actions it offers, in the order the ? dialog lists them (after the keys of every page).
EVERYWHERE = ("inbox", "folders", "search")
PAGES: dict[str, tuple[str, ...]] = {
    "inbox": ("down", "up", "open", "select", "next_page", "prev_page"),
    "search": ("down", "up", "open", "next_page", "prev_page"),
    "corrections": ("down", "up", "open"),
    "article": (
        "pick",
        "accept_all",
        "accept_selected",
        "skip",
        "reject",
        "refine",
        "add_folder",
        "move",
        "filter_view",
        "down",
        "up",
        "to_list",
        "mark_unread",
    ),
    "rule": ("commit", "list_affected", "back"),
    "rule_detail": ("back",),
    "filters": ("mark", "back"),
    "filters_marking": ("mark", "save_labels", "back"),
    "other": (),
}


def page_keys(page: str, *, may_search: bool = True) -> list[Key]:
    """The keys one page offers, as its ? dialog lists them (the help key last). The header's inbox, folders and
    search are the experts' (``may_search``): to anyone else it shows none of them, so their keys do nothing."""
    names = [n for n in EVERYWHERE if may_search] + list(PAGES[page]) + ["help"]
    return [KEYS[name] for name in names]


def script_keys() -> dict[str, str]:
    """The keys static/js/workspace.js handles itself rather than by clicking a ``data-key`` element."""
    return {name: KEYS[name].key for name in ("down", "up", "open", "select")}

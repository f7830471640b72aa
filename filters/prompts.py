"""The site's own lines inside an article, not the article's text: a copyright notice, and (with main-content
detection, :mod:`filters.content`) the site's prompts to the reader (an affiliate disclosure, a newsletter prompt)
and its lines about the article (a photo credit, a byline or date line).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from . import html5

__all__ = ["NOTICE_MAX", "notice_note"]

#: a copyright line under the article ("Copyright 2005 The Associated Press. All rights reserved. This material
#: may not be published..."): not its text; "all rights reserved" further in needs a year, a © or the word
#: (a clause of a legal text the page is about says it without them)
_COPYRIGHT = re.compile(
    r"^\W*(?:copyright\b|©)|^(?=.*(?:\b(?:19|20)\d\d\b|©|copyright)).*all rights reserved",
    re.IGNORECASE | re.DOTALL,
)
NOTICE_MAX = 300
#: the site speaking to the reader about itself inside the article, not the article's text (wcxb tuning split):
#: an affiliate disclosure ("Purchases made through our links may earn us a commission", "This post may contain
#: affiliate links") and a newsletter prompt ("Sign up ... delivered straight to your inbox", "Join our mailing
#: list"), in a phrase of at most NOTICE_MAX characters; a photo credit ("Photo by: Jim Varga", "Image: Move.org",
#: "(Photo credit: AP)") and a byline or date line ("By Haley Hoekstra • March 12, 2025", "Last updated: April 21,
#: 2025", "6 min read"), in a phrase of at most _LINE_MAX characters: where it is the phrase's point.  Each is looked
#: for only when one of its cue strings (lower case) is in the phrase (reason, cues, pattern).  The patterns need
#: the site's own words ("we", "our", an imperative, a name after "by"), so that a sentence about commissions,
#: newsletters, pictures or a year ("Published in 1998, the novel ...") is article text.
_NAME = r"['‘\"“]?[A-Z0-9][\w.'’\"”&/-]*(?:\s+(?:['‘\"“]?[A-Z0-9][\w.'’\"”&/-]*|for|via|and|of|the|/|&|-|—|,))*"
_DATE = (
    r"(?:[A-Z][a-z]{2,8}\.? \d{1,2}(?:st|nd|rd|th)?,? (?:19|20)\d\d|\d{1,2}(?:st|nd|rd|th)? [A-Z][a-z]{2,8}\.?,? "
    r"(?:19|20)\d\d|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4})"
)
#: a photographer's name in a credit line ("Rick Bowmer", "KEITH DANNEMILLER"; never a web address)
_CREDIT_NAME = r"(?![^/]*\.com)[A-Z][\w.'’&-]*(?:\s+[A-Z][\w.'’&-]*){0,3}"
#: a picture agency a credit line names: by a name no heading or sentence is made of ("Getty Images", "Corbis"),
#: then also by a short name that is an everyday abbreviation too (AP: Advanced Placement, EPA, UPI)
_NAMED_AGENCY = r"(?:Associated Press|Reuters|Getty(?: Images)?|Corbis|Bloomberg|Wide World(?: Photos)?|Archive Photos)"
_AGENCY = rf"(?:{_NAMED_AGENCY}|AP|AFP|EPA|UPI)"
#: the paper or the site a photographer worked for ("For The Times", "FOXNews.com"): only after their name
_PAPER = r"(?:[A-Z][\w-]*\.com|(?i:for the) [A-Z][\w-]*(?: [A-Z][\w-]*){0,2})"
#: the words of a title or a name before "photo courtesy of" ("How the Grinch Stole Christmas", "Nikki"), never a
#: sentence's ("Visitors can see the photos courtesy of ...")
_TITLE_WORDS = r"(?:(?:[\"'‘“]?[A-Z0-9][\w'’:,&-]*[\"'’”]?|a|an|the|of|and|in|on|at|to|for|from|with)\s+){0,8}?"
#: a relative date ("2 days ago")
_AGO = r"\d+\s+(?i:sec|min|hour|hr|day|week|month|year)[a-z]*\s+(?i:ago)"
#: a time after a date (", 08:00", " at 3:00 am", " 1:44 PM ET")
_TIME = r"(?:,?\s+(?:(?i:at)\s+)?\d{1,2}[:.]\d\d\s*(?:[AaPp]\.?[Mm]\.?)?(?:\s*[A-Z]{2,4})?)?"


class _Search(Protocol):
    def search(self, text: str, /) -> object: ...


#: a reason, the cues (lower case) one of which a phrase must hold, the pattern then looked for
_Group = tuple[str, tuple[str, ...], _Search]
#: the characters that IGNORECASE matches with ASCII letters besides their own cases (U+0130 and U+0131 with i,
#: U+017F with s, U+212A with k): a text holding one is searched as it is
_CASE_EXTRAS = ("\u0130", "\u0131", "\u017f", "\u212a")


class _Gated:
    """A pattern's ``search``, the same answer (a match or None) at less cost: the pattern tried at the text's start,
    then searched only in a text where it can match further on, which it says: it matches past the start only right
    after one of ``marks`` (its branches start with ``^`` or ``(?:^|[|•·]\\s*)``, no MULTILINE), or only where one of
    ``words`` (lower case) is, whatever the case.  The regex engine tries each position of a text in vain otherwise
    (the searches were half the cost of :func:`notice_note`).  With ``ends``, the pattern ends with one of these
    characters then ``\\s*$``: a text whose last character but white space is none of them is not tried at all;
    with ``needs``, the pattern matches one of these characters: a text with none of them is not tried at all."""

    __slots__ = ("pattern", "marks", "words", "ends", "needs", "search")

    def __init__(
        self,
        pattern: re.Pattern[str],
        marks: tuple[str, ...] = (),
        words: tuple[str, ...] = (),
        ends: tuple[str, ...] = (),
        needs: str = "",
    ) -> None:
        self.pattern, self.marks, self.words, self.ends, self.needs = pattern, marks, words, ends, needs
        self.search: Callable[[str], re.Match[str] | None] = self._search
        if not (
            marks or words or ends or needs
        ):  # only ever tried at the start: the pattern's own match, no call between
            self.search = pattern.match

    def _search(self, text: str) -> re.Match[str] | None:
        if self.ends and not text.rstrip().endswith(self.ends):
            return None
        for c in self.needs:
            if c in text:
                break
        else:
            if self.needs:
                return None
        found = self.pattern.match(text)
        if found is not None:
            return found
        for mark in self.marks:  # loops, not any() over generators: a hit costs a few of these checks
            if mark in text:
                return self.pattern.search(text)
        if self.words:
            low = text.lower()
            for word in self.words:
                if word in low:
                    return self.pattern.search(text)
            for c in _CASE_EXTRAS:
                if c in text:
                    return self.pattern.search(text)
        return None


_PROMPTS: tuple[_Group, ...] = (
    (
        "affiliate disclosure",
        ("affiliate", "commission", "associate", "qualifying"),
        _Gated(
            re.compile(
                r"(?i:\b(?:this|our) (?:post|article|page|site|content|story)s? (?:may |might )?(?:contains?|includes?|"
                r"uses?) affiliate links?"
                r"|\b(?:we|I) (?:may |might |could |will )?(?:earn|receive|get|make) (?:an? |small |affiliate )*"
                r"commissions?\b"
                r"|\b(?:may|might|could) earn (?:us|me) (?:an? )?(?:small )?(?:affiliate )?commission"
                r"|\baffiliate links?\b.{0,60}\b(?:we|I) (?:may |might |could )?(?:earn|receive|get|make)\b"
                r"|\bas an amazon associate\b|\b(?:we|I) earn from qualifying purchases"
                r"|\b(?:we|I) (?:also )?(?:may |might )?use affiliate links)",
                re.DOTALL,
            ),
            words=("affiliate link", "commission", "amazon associate", "qualifying purchases"),
        ),
    ),
    (
        "newsletter prompt",
        ("newsletter", "inbox", "mailing list", "email list"),
        re.compile(
            r"(?i:^\W*(?:sign up|subscribe|register)\b.{0,80}\b(?:newsletters?|inbox|e-?mails?)\b"
            r"|\b(?:sign up|subscribe) (?:now |today |here )?(?:to|for) (?:our|my) (?:\w+ ){0,3}(?:newsletters?|"
            r"e-?mails?|mailing list)\b"
            r"|\bdelivered (?:straight |directly |right )?to your inbox\b"
            r"|\bjoin (?:our|my) (?:\w+ ){0,2}(?:mailing list|newsletter|e-?mail list))",
            re.DOTALL,
        ),
    ),
    (
        # the site's call to discuss or rate the story, at the start of a phrase ("Speak your mind", "Discuss this
        # story with other people. [Start a Conversation]", "Recommend this story", "Average (Not Rated)"); a
        # sentence that discusses, rates or recommends something is article text
        "discussion prompt",
        # (cues: "rate th" and "not rated", not "rate": in "generate", "accurate"; without an i, s or k, which
        # IGNORECASE also matches with U+0131, U+017F, U+212A)
        (
            "discuss",
            "conversation",
            "speak your mind",
            "comment",
            "reply",
            "have your say",
            "recommend",
            "rate th",
            "not rated",
        ),
        _Gated(
            re.compile(
                r"(?i:^\W*(?:discuss this (?:story|article|post)|join the (?:discussion|conversation)"
                r"|speak your mind\W*$"
                r"|start a (?:conversation|discussion)\W*$|(?:leave|post|add|write) (?:a|your) (?:comment|reply)\W*$"
                r"|have your say\W*$|(?:recommend|rate) this (?:story|article|post)\b|ratings?: would you recommend"
                r"|average \(not rated\)\W*$))",
                re.DOTALL,
            )
        ),
    ),
    (
        # a form's thank-you text and its fine print: shown when a contact, tip or newsletter form is sent, never
        # the article (the New York Post's "Thanks for contacting us. We've received your submission.")
        "form message",
        ("thank", "receiv", "agree"),
        _Gated(
            re.compile(
                r"(?i:^\W*thanks?(?: you)?(?: so much)? for (?:contacting|subscribing|signing up|registering|"
                r"reaching out|"
                r"your (?:submission|message|inquiry|enquiry|feedback|interest|comment|request|tip))\b"
                r"|\bwe(?:'ve|’ve| have) received your (?:submission|message|request|inquiry|enquiry|tip|application)"
                r"|\byour (?:message|submission|request|comment|tip) (?:has been|was) received"
                r"|\bby (?:submitting|signing up|clicking|subscribing|registering)\b.{0,80}\byou agree\b)",
                re.DOTALL,
            ),
            words=("received", "you agree"),
        ),
    ),
)
_LINE_MAX = 150
_LINES: tuple[_Group, ...] = (
    (
        "photo credit",
        ("photo", "image", "picture", "illustration", "credit"),
        re.compile(
            r"(?:^|[|•·(]\s*|\.\s+)(?i:photo|image|picture|photograph|illustration)s?(?i: credit)?s?"
            rf"\s*(?::|©|(?i:by):?)\s*{_NAME}\W*$"
            rf"|(?:^|[|•·(]\s*|\.\s+)(?i:credits?)\s*:\s*(?=[A-Z]){_NAME}\W*$",
            re.DOTALL,
        ),
    ),
    (
        # a credit the picture's owner is thanked for ("Photo courtesy of CBS", "Nikki photo courtesy of WB"), or a
        # line that is only a photographer's or an agency's name ("Rick Bowmer/AP", "AP/Wide World", "KEITH
        # DANNEMILLER/For The Times", "Meredith Heuer/ FOXNews.com", "Corbis"), under a picture of old news pages
        # (crawl-to-the-future tuning: MSN Entertainment, Fox News, Los Angeles Times 2000; wcxb's "Getty Images /
        # Holger Leue"), never the story's text; a byline is not one ("By Heather Clark/Associated Press", CNN 2000),
        # nor a heading or a sentence ("AP/IB Courses", "Amazon.com / Walmart.com", "... the photos courtesy of X.")
        "photo credit",
        ("courtesy", "/", "corbis", "reuters", "getty", "wide world"),
        _Gated(  # both branches start with ^: tried at the start only
            re.compile(
                rf"^{_TITLE_WORDS}(?i:photo|image|picture|photograph)s?\s+(?i:courtesy)(?i: of)?\s+"
                rf"{_NAME}(?:\s*/\s*[\w.'’& -]+)*\W*$"
                # a photographer then an agency or their paper; agencies alone; a named agency then a photographer
                rf"|^\W*(?!(?i:by)\s)(?:(?:{_CREDIT_NAME}\s*/\s*)+(?:{_AGENCY}|{_PAPER})(?:\s*/\s*{_AGENCY})*"
                rf"|{_AGENCY}(?:\s*/\s*{_AGENCY})*|{_NAMED_AGENCY}(?:\s*/\s*{_CREDIT_NAME})+)\W*$",
                re.DOTALL,
            )
        ),
    ),
    (
        "byline or date line",
        ("by ", "updated", "published", " read", "posted", "filed", "categor", "issue"),
        _Gated(
            re.compile(
                r"^\W*(?i:by|written by)\s+[A-Z][\w.'’-]+(?:\s+[A-Z][\w.'’-]+){0,3}\s*[,|•·–—-]?"
                rf".{{0,60}}\b(?:19|20)\d\d\b{_TIME}\W*$"
                rf"|^\W*(?i:(?:last )?updated|published)(?i: on)?\s*:?\s*(?:[A-Z][a-z]+,? )?{_DATE}.{{0,20}}$"
                r"|(?:^|[|•·]\s*)\d+\s*(?i:min(?:ute)?s? read)\W*$"
                # "Posted: 03/03/2025 08:00 | Filed under Clinic News", "Posted by Jane on Tuesday, August 29, 2023":
                # the date right after "Posted", the rest the site's labels
                rf"|^\W*(?i:posted)(?i: on| by [A-Z][^|•·]{{0,40}}? on)?\s*:?\s*(?:[A-Z][a-z]+,? )?(?:{_DATE}|{_AGO})"
                rf"{_TIME}\s*(?:[|•·–—-].{{0,80}})?$"
                # "Filed under Clinic News", "... | Categories: Uncategorized": a section's name, alone or after a
                # separator, never a sentence's clause ("Filed under the Freedom of Information Act, the request ...")
                r"|(?:^\W*|[|•·]\s*)(?i:filed (?:under|in)|posted in|categor(?:y|ies))\b\s*:?\s*[A-Z0-9][^.!?:]{0,60}$"
                # a magazine's issue line: "From the February 7, 2005 issue of New York Magazine.", "This article
                # appeared in the March 2020 issue of Wired."
                r"|^\W*(?i:from|(?:this (?:article|story) )?appeared in|as published in) (?i:the) "
                rf"(?:{_DATE}|[A-Z][a-z]{{2,8}}\.? (?:19|20)\d\d) (?i:issue)(?: (?i:of) [A-Z][^.!?]{{0,60}})?\W*$",
                re.DOTALL,
            ),
            marks=("|", "•", "·"),
        ),
    ),
    (
        # a linked headline credited to its source and dated, one of a box of related stories ("Floridian Wins $1
        # Million on Market Slump - Reuters (Oct 27, 2000)", "Attention, Shoppers - NY Times (registration req'd)
        # (Oct 22, 2000)"): a story's own sentence does not end in a source's name and a bracketed date, and then
        # without its full stop
        "related story",
        ("(",),
        _Gated(
            re.compile(
                r"^[^\n]{8,150}?\s[-–—]\s[A-Z][\w.!'’&/ -]{0,50}?(?:\s\([^()]{1,30}\))?\s\("
                rf"(?:{_DATE}|[A-Z][a-z]{{2,8}}\.? \d{{1,2}})\)\s*$",
                re.DOTALL,
            ),
            ends=(")",),
            needs="-–—",
        ),
    ),
    (
        # a pager of the article's pages ("Page 1 of 2", "<<< Previous Next >>> ( 1 | 2 | 3 )", "("Poisoned at the
        # Source" 1 | 2 | 3 )", "PAGE 1 | 2 | 3 NEXT"): the pages' numbers from 1, after at most a title or "Previous"
        # (two groups: a sentence holds " of ", and the pager of numbers, tried at each of its first 60 characters,
        # needs a "|")
        "page numbers",
        ("|", " of "),
        _Gated(re.compile(r"^\W*(?i:page\s+)?\d{1,3}\s+(?i:of)\s+\d{1,3}\W*$", re.DOTALL)),
    ),
    (
        "page numbers",
        ("|",),
        _Gated(re.compile(r"^[^|]{0,60}?(?<![\d.,])1\s*\|\s*2(?:\s*\|\s*\d{1,3})*\W*(?i:next)?\W*$", re.DOTALL)),
    ),
)

_PROMPTS_AND_LINES = _PROMPTS + _LINES
#: the cue search of :func:`cue_hits` compiled, or None where the compiled loops are not built
_CUE_SCAN = None if html5.COMPILED_LOOPS is None else html5.COMPILED_LOOPS.CueScan(_PROMPTS_AND_LINES)
#: a phrase this short made of these only is a list's bullet or a separator, not text (a table's "$$" or "#" is data)
_MARK_MAX = 3
_MARKS = frozenset("·•◦▪▸►|/\\-–—_~*><»«‹›:;,. \u00a0\u200b\u200c\u200d\u2060")


def notice_note(text: str, prompts: bool) -> str | None:
    """The reason a phrase of at most NOTICE_MAX characters is the site's own line, or None: a copyright notice;
    with ``prompts``, also the site's prompt to the reader or a line about the article (an affiliate disclosure, a
    newsletter prompt, a photo credit, a byline or date line, a pager)."""
    # cues first: a regex search on every phrase would cost more than the rest of the stage
    groups = (_PROMPTS_AND_LINES if len(text) <= _LINE_MAX else _PROMPTS) if prompts else ()
    found = None if _CUE_SCAN is None else _CUE_SCAN.scan(text, len(groups))
    if found == 0:  # compiled, and no cue at all (most phrases): no pattern to try
        return "no words" if prompts and len(text) <= _MARK_MAX and _MARKS.issuperset(text) else None
    hits: list[_Group] | None = None
    if found is None:  # not compiled, or a text that lower-cases into other ASCII letters (U+0130, U+212A)
        copyright = "opyright" in text or "©" in text or "eserved" in text or "ESERVED" in text or "OPYRIGHT" in text
    else:  # compiled (filters/_compiled_loops.pyx): all the cues in one pass, the text not lower-cased
        copyright, hits = found
    if copyright and _COPYRIGHT.search(text):
        return "copyright notice"
    if prompts:
        if len(text) <= _MARK_MAX and _MARKS.issuperset(text):
            return "no words"  # a list's bullet or a separator left alone in its cell ("·", "|", "--")
        for note, _cues, pattern in cue_hits(text.lower(), groups) if hits is None else hits:
            if pattern.search(text):
                return note
    return None


def cue_hits(low: str, groups: tuple[_Group, ...]) -> list[_Group]:
    """The ``groups`` (note, cues, pattern), in order, one of whose cues is in ``low`` (the phrase lower-cased)."""
    hits = []
    for group in groups:
        for cue in group[1]:
            if cue in low:
                hits.append(group)
                break
    return hits

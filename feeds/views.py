"""Pages around the feeds: the list of every feed, the OPML export, and the experts' token management.

The feeds themselves are served by feeds/syndication.py. Anonymous visitors see public folders only;
private folders appear (without URLs) to experts, who hand out per-subscriber tokens for them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from classifier.models import Folder
from classifier.permissions import expert_required
from feeds import selectors
from feeds.models import FeedToken
from feeds.saved_searches import saved_search_feed_url
from feeds.syndication import all_feed_url, folder_feed_url, xml_text
from foundation.roles import is_expert


def _feed_links(folder: Folder) -> dict[str, str]:
    return {
        "rss": folder_feed_url(folder, "rss"),
        "atom": folder_feed_url(folder, "atom"),
        "rss_subfolders": folder_feed_url(folder, "rss", subfolders=True),
        "atom_subfolders": folder_feed_url(folder, "atom", subfolders=True),
    }


@require_safe
def feed_list(request):
    """Every public folder's feeds (RSS, Atom, with and without subfolders), the global feed, OPML."""
    expert = is_expert(request.user)
    rows = [
        {"folder": f, "depth": f.path.count(Folder.SEPARATOR), "links": _feed_links(f) if f.public else None}
        for f in selectors.listed_folders(expert)
    ]
    return render(
        request,
        "feeds/list.html",
        {
            "rows": rows,
            "all_rss": all_feed_url("rss"),
            "all_atom": all_feed_url("atom"),
            "is_expert": expert,
            "saved_searches": [
                {
                    "saved": saved,
                    "rss": saved_search_feed_url(saved, "rss"),
                    "atom": saved_search_feed_url(saved, "atom"),
                }
                for saved in selectors.open_saved_searches()
            ],
        },
    )


@require_safe
def opml(request):
    """OPML 2.0 of every public folder's feed and every public saved search's (?format=atom for Atom URLs), for
    importing into a reader."""
    fmt = request.GET.get("format", "rss")
    if fmt not in ("rss", "atom"):
        raise Http404("format must be rss or atom")
    root = ET.Element("opml", version="2.0")
    head = ET.SubElement(root, "head")
    ET.SubElement(head, "title").text = "WIMS folder feeds"
    ET.SubElement(head, "dateCreated").text = timezone.now().strftime("%a, %d %b %Y %H:%M:%S GMT")
    body = ET.SubElement(root, "body")
    kind = "rss" if fmt == "rss" else "atom"

    def outline(text: str, url: str) -> None:
        ET.SubElement(body, "outline", type=kind, text=text, title=text, xmlUrl=request.build_absolute_uri(url))

    outline("WIMS: everything classified", all_feed_url(fmt))
    for folder in selectors.public_folders():
        outline(f"WIMS: {xml_text(folder.path)}", folder_feed_url(folder, fmt))
    for saved in selectors.open_saved_searches():
        outline(f"WIMS search: {xml_text(saved.name)}", saved_search_feed_url(saved, fmt))
    data = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    response = HttpResponse(data, content_type="text/x-opml; charset=utf-8")
    response.headers["Content-Disposition"] = 'attachment; filename="wims-feeds.opml"'
    return response


def _tokens_page(request, created=None, error=None, status=200):
    page = selectors.tokens_page(request.user)
    # never a public folder by default (its feed needs no token): the one a folder page links with, else the
    # first private folder, else none chosen
    chosen = selectors.folder_by_id(request.GET.get("folder") or "")
    if chosen is None:
        chosen = page["private_folders"].first()
    return render(
        request,
        "feeds/tokens.html",
        {
            **page,
            "chosen_folder": chosen,
            "created": created,
            "error": error,
        },
        status=status,
    )


@expert_required
def tokens(request):
    """GET: the tokens and a form; POST (folder or saved_search, subscriber): a new token, whose URLs are
    shown once."""
    if request.method == "GET":
        return _tokens_page(request)
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    subscriber = (request.POST.get("subscriber") or "").strip()
    if "saved_search" in request.POST:
        return _saved_search_token(request, subscriber)
    folder = selectors.folder_by_id(request.POST.get("folder") or "")
    if folder is None or not subscriber:
        return _tokens_page(request, error="Choose a folder and name the subscriber.", status=400)
    row, token = FeedToken.issue(folder, subscriber, request.user)
    created = {
        "token": row,
        "urls": [
            ("RSS", request.build_absolute_uri(folder_feed_url(folder, "rss", token=token))),
            ("Atom", request.build_absolute_uri(folder_feed_url(folder, "atom", token=token))),
            ("RSS with subfolders", request.build_absolute_uri(folder_feed_url(folder, "rss", True, token))),
            (
                "Atom with subfolders",
                request.build_absolute_uri(folder_feed_url(folder, "atom", True, token)),
            ),
        ],
    }
    return _tokens_page(request, created=created, status=201)


def _saved_search_token(request, subscriber: str):
    """A token for one of the expert's own saved searches; its RSS and Atom URLs are shown once."""
    saved = selectors.own_saved_search(request.user, request.POST.get("saved_search") or "")
    if saved is None or not subscriber:
        return _tokens_page(request, error="Choose one of your saved searches and name the subscriber.", status=400)
    row, token = FeedToken.issue(None, subscriber, request.user, saved_search=saved)
    created = {
        "token": row,
        "urls": [
            ("RSS", request.build_absolute_uri(saved_search_feed_url(saved, "rss", token))),
            ("Atom", request.build_absolute_uri(saved_search_feed_url(saved, "atom", token))),
        ],
    }
    return _tokens_page(request, created=created, status=201)


@expert_required
@require_POST
def revoke_token(request, token_id: int):
    """Revoke a token: its feed URLs answer 404 from the next request on."""
    row = get_object_or_404(FeedToken, pk=token_id)
    row.revoke(request.user)
    return redirect("feeds:tokens")

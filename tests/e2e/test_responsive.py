"""The workspace at a phone's width (390 px) and a laptop's (1366 px), in real Chromium.

Every page must fit its window (no sideways scrolling of the page: long phrases, URLs and folder paths wrap,
wide tables scroll inside their own box), and the sticky bars must not cover what the expert scrolls to.
"""

import gzip
import re

import pytest
from playwright.sync_api import expect

from alerts import services as alerts_services
from alerts.models import Subscription
from classifier import services
from classifier.models import Classification
from monitor.models import Article, Site
from processing import services as processing
from search import services as search_services
from tests.conftest import datasets_dir
from tests.e2e import demo_data
from tests.e2e.test_workspace import WALKING, login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
# a tablet: the top bar still sticks, and its links no longer fit one row
TABLET = {"width": 800, "height": 1000}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390px", "1366px"])

# A long folder path, as experts make them: it must wrap in lists, selects and chips.
LONG_FOLDER = "Health/Diabetes/Gestational diabetes and pregnancy outcomes/Continuous glucose monitoring studies"
# A real crawled page with long unbroken strings (URLs, scripts) among its phrases.
CNN_PAGE = "www.cnn.com/2015/Like life there, cockfighting in Cuba is a gray area - CNN.com.html.gz"

# In the page: does it fit its window, and which elements stick out (for the failure message)?
FITS = """() => {
  const width = window.innerWidth;
  const wide = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 1) continue;
    // inside a box that scrolls on its own, sticking out of the window is that box's business
    let scroller = el.parentElement, clipped = false;
    while (scroller && scroller !== document.body) {
      const style = getComputedStyle(scroller);
      if (/(auto|scroll|hidden|clip)/.test(style.overflowX)) { clipped = true; break; }
      scroller = scroller.parentElement;
    }
    if (!clipped) wide.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
      (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "") +
      " right=" + Math.round(box.right));
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width, wide: wide.slice(0, 8)};
}"""

# In the page: scroll each heading (and each control) to the top, then the bottom, of the window; what the
# browser finds at its centre must be it, not a sticky bar; controls must also sit inside the window.
UNCOVERED = """(selectors) => {
  const problems = [];
  const targets = [];
  for (const selector of selectors) {
    const found = document.querySelectorAll(selector);
    if (!found.length) problems.push(selector + ": not on the page");
    found.forEach((el) => targets.push([selector, el]));
  }
  for (const [selector, el] of targets) {
    if (el.closest("dialog, details:not([open])")) continue;
    for (const block of ["start", "end"]) {
      el.scrollIntoView({block: block, inline: "nearest"});
      const box = el.getBoundingClientRect();
      // an inline element broken over lines: aim at its first piece (scrolled to the top) or its last
      const pieces = el.getClientRects();
      const aim = (block === "start" ? pieces[0] : pieces[pieces.length - 1]) || box;
      const name = selector + " «" + (el.textContent || el.value || "").trim().slice(0, 40) + "» (" + block + ")";
      if (box.width === 0 || box.height === 0) { problems.push(name + ": not displayed"); break; }
      if (box.left < -1 || box.right > window.innerWidth + 1) {
        problems.push(name + ": outside the window, left=" + Math.round(box.left) + " right=" + Math.round(box.right));
      }
      const x = Math.min(Math.max(aim.left + Math.min(aim.width, 40) / 2, 0), window.innerWidth - 1);
      // looked at just inside the edge it was scrolled to: a bar covering any of it is found
      const y = block === "start" ? aim.top + Math.min(aim.height / 2, 3) : aim.bottom - Math.min(aim.height / 2, 3);
      if (y < 0 || y > window.innerHeight) {
        problems.push(name + ": not in the window after scrolling to it");
        continue;
      }
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(el === hit || el.contains(hit))) {
        const by = hit ? hit.closest(".topbar, .sticky-actions") || hit : null;
        problems.push(name + ": covered by " + (by ? by.tagName.toLowerCase() + "." + by.className : "nothing"));
      }
    }
  }
  return problems;
}"""

HEADINGS = "main h1, main h2"
MEASURED = "() => !document.querySelector('.topbar') || document.documentElement.dataset.topbarMeasured"


def check(page, controls=(), headings=HEADINGS) -> list[str]:
    """Problems of the page open in ``page``: its width, and headings and controls covered or off-window."""
    page.wait_for_load_state("load")
    # static/js/layout.js measures the top bar in a ResizeObserver callback, which runs after "load" (late on a
    # busy machine): the scroll padding is right only once it has
    page.wait_for_function(MEASURED)
    problems = []
    fit = page.evaluate(FITS)
    if fit["scrollWidth"] > fit["innerWidth"]:
        problems.append(f"{fit['scrollWidth']} px wide in a {fit['innerWidth']} px window: {fit['wide']}")
    problems += page.evaluate(UNCOVERED, [headings, *controls])
    return [f"{page.url}: {problem}" for problem in problems]


@pytest.fixture
def workspace(django_user_model):
    """The demo workspace, with what the secondary pages list: a long private folder path, a saved search,
    subscriptions (one to a long notification URL)."""
    data = demo_data.load(django_user_model)
    expert = data["expert"]
    expert.email = "ada.lovelace.health-information-team@example.org"
    expert.save()
    data["long"] = services.create_folder(LONG_FOLDER, expert, public=False)
    data["saved"] = search_services.save_search(expert, "Diabetes and walking, any site", "diabetes walking", {})
    alerts_services.save_subscription(Subscription(user=expert, folder=data["folders"]["diabetes"]))
    alerts_services.save_subscription(
        Subscription(
            user=expert,
            saved_search=data["saved"],
            frequency=Subscription.Frequency.DAILY,
            time_zone="America/Argentina/Buenos_Aires",
            channel=Subscription.Channel.APPRISE,
            notify_url="json://notifications.health-information-team.example.org/hooks/wims/"
            "a-very-long-webhook-path-without-any-break-in-it-0123456789abcdef0123456789abcdef",
        )
    )
    return data


@pytest.mark.parametrize("viewport", [PHONE, TABLET, LAPTOP], ids=["390px", "800px", "1366px"])
def test_the_workspace_fits_the_window_and_no_sticky_bar_covers_it(browser, live_server, workspace, viewport, shot):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(15_000)
    page = context.new_page()
    walking = workspace["articles"][WALKING]
    exercise = workspace["folders"]["exercise"]
    page.goto(f"{live_server.url}/accounts/login/")
    problems = check(page, ["button[type=submit]"], headings="h1")
    login(page, live_server)
    expect(page.locator("h1")).to_have_text("Inbox")
    problems += check(page, ["form.filters button[type=submit]", "table.inbox td.title a"])
    if viewport is PHONE:
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "phone-inbox")

    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    problems += check(page, ["#article-title", ".suggestion .folder", "button[data-key=a]", ".move-form button"])
    if viewport is PHONE:
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "phone-article")

    # the rule page with a draft: difference lists, a cornerstone case, the articles it would reclassify
    page.goto(f"{live_server.url}/articles/{walking.pk}/rule?kind=new&folder={exercise.pk}&c=people&affected=1")
    expect(page.locator("details.stone")).to_have_count(1)
    page.locator("details.stone summary strong").click()  # open: its text and keyword lists
    problems += check(page, ["#folder-select", "#word-search", "details.stone .kw-list", "#affected table", "#commit"])

    page.goto(f"{live_server.url}/rules/{workspace['rule'].pk}/")
    problems += check(page, ["#reclassified td.title a", "#undo"])

    page.goto(f"{live_server.url}/articles/{walking.pk}/filters")
    problems += check(page, ["ol.phrases li", "#metrics .scroll-x"])
    page.goto(f"{live_server.url}/articles/{walking.pk}/filters?mark=1")
    problems += check(page, ["ol.phrases li", "#save-labels"])

    page.goto(f"{live_server.url}/search/?q=diabetes")
    problems += check(page, ["ol.results li", "form.filters button[type=submit]"])
    page.goto(f"{live_server.url}/search/saved/")
    problems += check(page, ["table.saved-searches td.title a", "table.saved-searches button"])

    page.goto(f"{live_server.url}/feeds/")
    expect(page.locator("main")).to_contain_text("Continuous glucose monitoring studies")
    problems += check(page, ["table.feeds td a"])

    # the feed tokens page, right after a token was made: its long URLs are shown once
    page.goto(f"{live_server.url}/feeds/tokens/")
    page.select_option("select[name=folder]", label=f"{LONG_FOLDER} (private)")
    page.locator("input[name=subscriber]").first.fill("Dr. Bartholomew Featherstonehaugh-Worthington")
    page.locator("button", has_text="Create token").first.click()
    expect(page.locator("section.created code").first).to_contain_text("token=")
    problems += check(page, ["section.created code", "table.tokens button", "select[name=folder]"])

    page.goto(f"{live_server.url}/api/tokens/")
    page.fill("input[name=name]", "nightly-export-to-the-health-information-team-dashboard")
    page.click("button[type=submit]:has-text('Create token')")
    expect(page.locator("code.token")).to_contain_text("wims_")
    problems += check(page, ["code.token", "table.tokens button", "pre"])

    page.goto(f"{live_server.url}/alerts/")
    problems += check(page, ["#subscriptions td a", "#subscriptions button", ".address button"])
    page.goto(f"{live_server.url}/alerts/new")
    problems += check(page, ["form.card button[type=submit]"])

    page.goto(f"{live_server.url}/folders/")
    problems += check(page)
    page.goto(f"{live_server.url}/folders/{workspace['long'].pk}/")
    problems += check(page)
    page.goto(f"{live_server.url}/dashboards/")
    problems += check(page)
    waiting = Classification.objects.filter(state="suggested").select_related("case").first()
    services.reject(waiting.case, waiting.folder_id, workspace["expert"])  # a rejection whose rule is pending
    page.goto(f"{live_server.url}/corrections/")
    problems += check(page, ["#corrections a.button", "#corrections button"])
    context.close()
    assert problems == [], "\n".join(problems)


@pytest.fixture
def cnn_article(workspace):
    """A real CNN page from the shared datasets, stored and processed as WebMon's pipeline does."""
    path = datasets_dir() / "crawl-to-the-future" / "sites" / CNN_PAGE
    if not path.exists():
        pytest.skip(f"shared dataset page not found: {path} (set WIMS_DATASETS)")
    site = Site.objects.create(name="CNN", home_url="https://www.cnn.com/")
    html = gzip.decompress(path.read_bytes())
    # stored under the URL the page names as canonical, as the crawler would have found it
    canonical = re.search(rb'<link[^>]+rel="canonical"[^>]+href="([^"]+)"', html)
    assert canonical, "the page names its canonical URL"
    article = Article(site=site, url=canonical.group(1).decode(), state=Article.State.FETCHED)
    article.set_raw_html(html)
    article.save()
    assert processing.process_article(article.pk).result == "processed"
    return Article.objects.get(pk=article.pk)


@VIEWPORTS
def test_a_real_crawled_page_s_filter_view_and_article_fit_the_window(
    browser, live_server, cnn_article, viewport, shot
):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(15_000)
    page = context.new_page()
    login(page, live_server)
    page.goto(f"{live_server.url}/articles/{cnn_article.pk}/filters")
    expect(page.locator("h1")).to_have_text("Filter view")
    # the page has what made it wide: phrases with unbroken strings hundreds of characters long
    longest = page.locator("ol.phrases .text").evaluate_all(
        "els => Math.max(...els.map(e => Math.max(...e.textContent.split(/\\s+/).map(w => w.length))))"
    )
    assert longest > 200
    # (the per-site metrics table scrolls inside its own box on a phone: the box must fit)
    problems = check(page, ["ol.phrases li", "#metrics .scroll-x"])
    if viewport is PHONE:
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "phone-filters")
    page.goto(f"{live_server.url}/articles/{cnn_article.pk}/filters?mark=1")
    problems += check(page, ["#save-labels"])
    page.goto(f"{live_server.url}/articles/{cnn_article.pk}/")
    expect(page.locator("#article-title")).to_contain_text(re.compile("cockfighting", re.I))
    problems += check(page, ["#article-title", "#core-text"])
    context.close()
    assert problems == [], "\n".join(problems)

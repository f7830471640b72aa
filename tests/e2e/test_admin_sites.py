"""WebMon's site list in the admin, in real Chromium at 1280 px (issue 30): the health is coloured through the
stylesheet (no Content-Security-Policy violation) and every column is in view, not clipped in a scrolling box."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from monitor.models import Site
from tests.e2e import demo_data
from tests.e2e.test_workspace import login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# the results table against its box (Django's admin scrolls it inside .results) and the window
MEASURE = """() => {
  const table = document.querySelector("#result_list"), box = document.querySelector("#changelist .results");
  return {tableRight: table.getBoundingClientRect().right, boxRight: box.getBoundingClientRect().right,
          boxScroll: box.scrollWidth, boxClient: box.clientWidth, page: document.documentElement.scrollWidth,
          width: window.innerWidth};
}"""


def test_site_list_fits_1280_px_and_its_health_is_coloured(page, live_server, django_user_model):
    demo_data.load(django_user_model, rule_on=None, slugs=set())  # the three demo sites, not polled yet
    now = timezone.now()
    error = "HTTPSConnectionPool(host='down.example', port=443): Max retries exceeded with url: / (NameResolution)"
    Site.objects.create(
        name="Down", home_url="https://down.example/", last_poll_at=now, consecutive_failures=3, last_error=error
    )
    Site.objects.create(name="Fine", home_url="https://fine.example/", last_poll_at=now, last_success_at=now)
    django_user_model.objects.create_superuser("root", password=demo_data.PASSWORD)  # noqa: S106
    login(page, live_server, username="root")
    assert page.viewport_size["width"] == 1280
    page.goto(f"{live_server.url}/admin/monitor/site/")
    page.wait_for_load_state("networkidle")

    failing = page.locator("span.health.failing")
    expect(failing).to_contain_text("failing ×3")
    assert failing.evaluate("el => getComputedStyle(el).color") == "rgb(187, 0, 0)"  # static/css/admin.css
    assert failing.get_attribute("title") == error
    expect(page.locator("span.health.ok")).to_have_text("ok")
    for heading in ("Name", "Health", "Last success", "Found last poll", "Next poll", "Articles"):
        expect(page.locator("#result_list thead")).to_contain_text(heading, ignore_case=True)

    size = page.evaluate(MEASURE)
    assert size["boxScroll"] <= size["boxClient"] + 1, f"the list scrolls sideways in its box: {size}"
    assert size["tableRight"] <= size["width"] and size["page"] <= size["width"], size
    csp = [e for e in page.console_errors if "Content Security Policy" in e]
    assert csp == [], csp


def test_a_sites_change_page_with_its_sources_fits_1280_px(page, live_server, django_user_model):
    # a live trial measured 1350 px: the sources table's url inputs and "why found" texts pushed DELETE out of view
    site = Site.objects.create(name="Portal", home_url="https://portal.example/")
    found = "announced in the home page's <head> (<link rel=alternate type=application/atom+xml>), 40 entries"
    for n, kind in enumerate(("feed", "sitemap", "section")):
        site.sources.create(url=f"https://portal.example/{kind}/{'long-segment/' * 6}{n}.xml", kind=kind, found=found)
    django_user_model.objects.create_superuser("root", password=demo_data.PASSWORD)  # noqa: S106
    login(page, live_server, username="root")
    page.goto(f"{live_server.url}/admin/monitor/site/{site.pk}/change/")
    page.wait_for_load_state("networkidle")
    expect(page.locator(".inline-group")).to_contain_text("Sources")
    width = page.evaluate("() => ({page: document.documentElement.scrollWidth, window: window.innerWidth})")
    assert width["page"] <= width["window"], width


def test_a_sources_reason_for_being_found_reads_as_words(page, live_server, django_user_model):
    # a live trial's Morning Pulse: the "found" column was squeezed to 4 letters, its reasons broken mid-word
    # ("anno/unce/d in") and each source's row 370 px tall, beside a URL column of 45 % with room to spare
    site = Site.objects.create(name="Pulse", home_url="http://pulse.example/")
    found = "linked from the home page: in the navigation of the home page (link 1); linked 4 times; text 'Care'"
    site.sources.create(url="http://pulse.example/feeds/all.rss", kind="feed", found="announced in <head>")
    site.sources.create(url="http://pulse.example/care/", kind="section", found=found)
    django_user_model.objects.create_superuser("root", password=demo_data.PASSWORD)  # noqa: S106
    login(page, live_server, username="root")
    page.goto(f"{live_server.url}/admin/monitor/site/{site.pk}/change/")
    page.wait_for_load_state("networkidle")
    cell = page.locator("td.field-found", has_text="linked from the home page")
    # "navigation" whole on a line: the cell is at least that word wide, with room for a few more
    assert cell.evaluate("el => el.getBoundingClientRect().width") >= 150
    assert cell.evaluate("el => el.closest('tr').getBoundingClientRect().height") < 200
    width = page.evaluate("() => ({page: document.documentElement.scrollWidth, window: window.innerWidth})")
    assert width["page"] <= width["window"], width

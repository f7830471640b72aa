"""In Chromium: subscribe from a folder page or to a saved search, find the alert in the mail folder (the file
backend, as `make run` writes it), open its WIMS link, then unsubscribe through the message's link."""

import email
import re
from email.header import decode_header, make_header

import pytest
from playwright.sync_api import expect

from alerts import services
from alerts.models import Subscription
from tests.e2e import demo_data

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WALKING = "walking-after-meals-type-2-diabetes"  # suggested into Health/Diabetes by the demo rule


def test_subscribe_accept_receive_and_unsubscribe(page, live_server, django_user_model, settings, tmp_path):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.WIMS_PUBLIC_URL = live_server.url
    data = demo_data.load(django_user_model, slugs={WALKING})
    walking = data["articles"][WALKING]
    diabetes = data["folders"]["diabetes"]

    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", demo_data.PASSWORD)
    page.click("button[type=submit]")

    # ada has no e-mail address yet: she sets it on her subscriptions page
    page.get_by_role("link", name="Subscriptions").click()
    page.fill("input[name=email]", "ada@example.org")
    page.get_by_role("button", name="Save address").click()
    expect(page.locator(".messages")).to_contain_text("E-mails go to ada@example.org")

    # the folder page's subscribe form leads to the prefilled subscription form
    page.goto(f"{live_server.url}/folders/{diabetes.pk}/")
    page.select_option("form.subscribe select[name=frequency]", "immediate")
    page.click("form.subscribe button[type=submit]")
    expect(page.locator("select[name=folder] option:checked")).to_have_text("Health/Diabetes")
    expect(page.locator("select[name=time_zone]")).to_be_hidden()  # a digest's zone says nothing of an alert
    page.get_by_role("button", name="Subscribe").click()
    expect(page.locator(".messages")).to_contain_text("Subscribed to Health/Diabetes")
    expect(page.locator("#subscriptions")).to_contain_text("Immediately")
    sub = Subscription.objects.get()

    # an expert accepts the suggestion on the article page (the accept view)
    page.goto(f"{live_server.url}/articles/{walking.pk}/")
    page.keyboard.press("a")
    expect(page.locator(".messages")).to_contain_text("Accepted: Health/Diabetes")

    # the beat's scan and the worker's send (in this process)
    assert [services.send(pk) for pk in services.scan()] == ["sent 1 by email"]
    (sent,) = tmp_path.iterdir()
    message = email.message_from_bytes(sent.read_bytes().rsplit(b"\n" + b"-" * 79, 1)[0])
    html = message.get_payload()[1].get_payload(decode=True).decode()
    wims_link = re.search(r'href="([^"]+/articles/\d+/)"', html).group(1)
    assert wims_link == f"{live_server.url}/articles/{walking.pk}/"

    page.goto(wims_link)
    expect(page.locator("#article-title")).to_have_text(walking.title)

    # the unsubscribe link works in a fresh browser context, without the session
    unsubscribe = message["List-Unsubscribe"].strip().strip("<>")
    assert unsubscribe == services.unsubscribe_url(sub)
    context = page.context.browser.new_context()
    anonymous = context.new_page()
    anonymous.goto(unsubscribe)
    confirm = "Stop the alerts of Health/Diabetes (immediately) to your e-mail address"
    expect(anonymous.locator("main")).to_contain_text(confirm)
    anonymous.get_by_role("button", name="Unsubscribe").click()
    expect(anonymous.locator("main")).to_contain_text("You are unsubscribed from Health/Diabetes")
    context.close()
    assert not Subscription.objects.exists()
    assert not page.console_errors and not page.dialogs


MEASLES = "measles-vaccine-catch-up"  # Health Watch Daily; not loaded at first


def test_search_save_subscribe_then_a_processed_article_alerts(
    page, live_server, django_user_model, settings, tmp_path
):
    """Issue 15, item 6: search, save the search, subscribe to it, a matching article is processed (the real
    pipeline: filters, DocView, index), the alert lands in the mail folder, its link opens the article."""
    from demo.articles import ARTICLES
    from demo.sites import article_url, render_article_page
    from monitor.models import Article
    from processing import services as processing

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.WIMS_PUBLIC_URL = live_server.url
    data = demo_data.load(django_user_model, slugs={WALKING})
    django_user_model.objects.filter(username="ada").update(email="ada@example.org")

    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", demo_data.PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_have_text("Inbox")
    page.keyboard.press("/")
    page.keyboard.type("measles vaccine")
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_contain_text("No article matches")
    page.click("details.save-search summary")
    page.fill("details.save-search input[name=name]", "Measles watch")
    page.click("details.save-search button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("Saved as")

    page.get_by_role("link", name="Subscriptions").click()
    page.get_by_role("link", name="New subscription").click()
    page.select_option("select[name=saved_search]", label="Measles watch")
    page.get_by_role("button", name="Subscribe").click()
    expect(page.locator("#subscriptions")).to_contain_text("saved search “Measles watch”")

    # WebMon fetched the page; processing filters it, stores the DocView elements and indexes it
    pool = next(a for a in ARTICLES if a.slug == MEASLES)
    site, spec, base = data["sites"][pool.site]
    article = Article(site=site, url=article_url(spec, pool, base), state=Article.State.FETCHED, http_status=200)
    article.set_raw_html(render_article_page(pool.site, pool.slug, base_url=base).encode())
    article.headers = {"content-type": "text/html; charset=utf-8"}
    article.save()
    assert processing.process_article(article.pk).result == "processed"

    assert [services.send(pk) for pk in services.scan()] == ["sent 1 by email"]
    (sent,) = tmp_path.iterdir()
    message = email.message_from_bytes(sent.read_bytes().rsplit(b"\n" + b"-" * 79, 1)[0])
    assert "Measles watch" in str(make_header(decode_header(message["Subject"])))
    text = message.get_payload()[0].get_payload(decode=True).decode()
    wims_link = re.search(r"In WIMS: (\S+)", text).group(1)
    assert wims_link == f"{live_server.url}/articles/{article.pk}/"
    page.goto(wims_link)
    article.refresh_from_db()
    expect(page.locator("#article-title")).to_have_text(article.title)
    assert "measles" in article.title.lower()
    assert not page.console_errors and not page.dialogs


def test_the_alerts_pages_run_under_the_content_security_policy(page, live_server, django_user_model):
    data = demo_data.load(django_user_model, slugs={WALKING})
    root = django_user_model.objects.create_superuser("root", "root@example.org", demo_data.PASSWORD)
    sub = services.save_subscription(
        Subscription(
            user=root, folder=data["folders"]["diabetes"], channel="apprise", notify_url="json://example.org/x"
        )
    )
    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", "root")
    page.fill("input[name=password]", demo_data.PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_have_text("Inbox")
    unsubscribe = services.unsubscribe_url(sub).split("/alerts/", 1)[1]
    paths = [
        "/alerts/",
        "/alerts/new",
        f"/alerts/{sub.pk}/edit",
        f"/alerts/{unsubscribe}",
        "/admin/alerts/subscription/",
        f"/admin/alerts/subscription/{sub.pk}/change/",
        "/admin/alerts/delivery/",
    ]
    violations = []
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers.get("content-security-policy", ""), path
        page.wait_for_load_state("networkidle")
        violations += [f"{path}: {e[:120]}" for e in page.console_errors if "Content Security Policy" in e]
        page.console_errors.clear()
    assert violations == [] and not page.dialogs

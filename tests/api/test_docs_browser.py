"""/api/docs/ in real headless Chromium under the site's Content-Security-Policy: Swagger UI renders every
endpoint from WIMS's own static files, nothing is refused, and with the browser's session it calls the API."""

import json
import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_swagger_ui_renders_under_the_csp_and_calls_the_api_with_the_session(page, live_server, users, kb):  # noqa: F811
    refused = []
    page.on("console", lambda msg: "Content Security Policy" in msg.text and refused.append(msg.text))
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    response = page.goto(f"{live_server.url}/api/docs/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("WIMS API")
    expect(page.locator(".opblock-summary-path", has_text=re.compile(r"^/api/articles/$"))).to_have_count(1)
    expect(page.locator(".opblock-summary-path", has_text="/api/sites/{id}/deactivate/")).to_have_count(1)
    assert refused == [], refused
    assert page.console_errors == [], page.console_errors
    assert all(url.startswith(live_server.url) for url in requests), requests  # no CDN, nothing outside

    # signed in, "Try it out" on the article list answers with the session
    page.goto(f"{live_server.url}/accounts/login/?next=/api/docs/")
    page.fill("input[name=username]", "expert")
    page.fill("input[name=password]", "pw")
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile(r"/api/docs/$"))
    operation = page.locator(
        ".opblock", has=page.locator(".opblock-summary-path", has_text=re.compile(r"^/api/articles/$"))
    )
    operation.locator(".opblock-summary").click()
    operation.get_by_role("button", name="Try it out").click()
    operation.get_by_role("button", name="Execute").click()
    body = operation.locator(".responses-wrapper .live-responses-table .response-col_description pre").first
    expect(body).to_contain_text('"results"')
    results = json.loads(body.inner_text())["results"]
    assert [row["id"] for row in results] == [kb["pending"].pk, kb["cornerstone"].pk]
    assert refused == [], refused

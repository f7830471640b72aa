"""A site administrator (not a superuser) who tries, during the soak, to aim WebMon at an internal host.

The private-address permission is a superuser's decision; a site administrator once could change the URLs of a
site allowed it (admin or API PATCH) and WebMon fetched ``/internal-admin`` from another loopback host. Here,
on a schedule, such a user PATCHes a private-allowed site's ``section_urls`` to a canary host through the live
API; every attempt must be refused (400), the site left as it was, and the canary never asked for anything.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests

#: the canary: another loopback host, as an intranet service would be
CANARY_ADDRESS = "127.0.0.41"


class Intruder:
    def __init__(self) -> None:
        self.requests: list[str] = []
        self.attempts: list[int] = []
        seen = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                seen.append(self.path)
                body = b"<html><body><a href='/internal-admin/secret-1'>internal</a></body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self._httpd = ThreadingHTTPServer((CANARY_ADDRESS, 0), Handler)
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        self.canary = f"http://{CANARY_ADDRESS}:{self._httpd.server_address[1]}/internal-admin"

    def setup(self, site_name: str) -> None:
        """The site administrator and their API token, in the stack's database (Django is set up)."""
        from django.contrib.auth import get_user_model

        from api import services as api_services
        from foundation.roles import SITE_ADMINISTRATORS, ensure_groups
        from monitor.models import Site

        user = get_user_model().objects.create_user("soak-site-admin", password="soak-site-admin-pw")  # noqa: S106
        user.groups.add(ensure_groups()[SITE_ADMINISTRATORS])
        self.token = api_services.issue_token(user, "soak")[1]
        self.site = Site.objects.get(name=site_name)
        self.before = (self.site.home_url, self.site.section_urls, self.site.feed_url)

    def attempt(self, web: str) -> None:
        """One PATCH of the site's section pages to the canary, as a script with the user's token would."""
        try:
            response = requests.patch(
                f"{web}/api/sites/{self.site.pk}/",
                json={"section_urls": self.canary},
                headers={"Authorization": f"Token {self.token}"},
                timeout=15,
            )
            self.attempts.append(response.status_code)
        except requests.RequestException:
            self.attempts.append(0)  # the web server was down (a kill): not an answer either way

    def verify(self) -> tuple[str, list[str]]:
        """What was seen, and the problems (none when every answer was a refusal and nothing reached the canary)."""
        from monitor.models import Site

        site = Site.objects.get(pk=self.site.pk)
        answered = [s for s in self.attempts if s]
        problems = []
        if not answered or any(s != 400 for s in answered):
            problems.append(f"the site administrator's URL edits were answered {answered}, not all 400")
        if (site.home_url, site.section_urls, site.feed_url) != self.before or not site.allow_private_addresses:
            problems.append("the site's URLs or its private-address permission changed")
        if self.requests:
            problems.append(f"the internal host was asked for {self.requests[:5]}")
        seen = f"{len(answered)} edits answered {sorted(set(answered))}; internal host asked {len(self.requests)} times"
        return seen, problems

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

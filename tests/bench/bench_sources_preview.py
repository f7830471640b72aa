"""The administrator's sources preview (monitor.services.find_sources) on the three demo sites, timed.

    DEBUG=1 .venv/bin/python -m tests.bench.bench_sources_preview [--home-only] [-v]

Each demo site is registered as ``make run`` registers it (or, ``--home-only``, by its home page alone, as an
administrator does in the admin), with this process's settings (WIMS_POLITENESS_DELAY 2 s by default), on the
database DATABASE_URL names (SQLite under var/ without it). Prints the preview's time and what it proposes, each
source with its reason and summary (``-v``: each link's verdict too). Issue 33's live trial: 14-20 s before the
preview's short burst (WIMS_SOURCES_PREVIEW_DELAY, WIMS_SOURCES_PREVIEW_PAGES), 2-3 s after.
"""

from __future__ import annotations

import os
import sys
import time


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from demo import DemoServer
    from demo.registration import demo_site_settings
    from monitor import services
    from monitor.models import Host, Site

    call_command("migrate", verbosity=0)
    delays = settings.WIMS_POLITENESS_DELAY, settings.WIMS_SOURCES_PREVIEW_DELAY
    print("politeness delay {:g} s, preview delay {:g} s".format(*delays))
    with DemoServer(port=0, interval=None, start_published=12) as server:
        for key in ("healthwatch", "courier", "wellbeing"):
            fields = demo_site_settings(server.sites[key], server.base_url(key))
            fields["name"] = f"{fields['name']} (preview bench {time.time():.0f})"
            if "--home-only" in argv:
                fields.update(section_urls="", feed_url="", exclude_patterns="")
            site = Site.objects.create(**fields)
            Host.objects.all().delete()  # no slot left over from the previous site's run
            started = time.monotonic()
            proposal = services.find_sources(site)
            print(f"{key}: {time.monotonic() - started:.1f} s, {len(proposal.sources)} sources, notes {proposal.notes}")
            for found in proposal.sources:
                print(f"  {found.kind:8} {'x' if found.keep else ' '} {found.url}")
                print(f"      {found.reason[:160]}\n      {found.summary[:200]} {found.error}")
                for link in found.links if "-v" in argv else []:
                    print(f"        {'T' if link.taken else '-'} {link.url} :: {link.reason}")
            site.delete()


if __name__ == "__main__":
    main(sys.argv[1:])

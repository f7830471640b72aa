"""``python -m demo [--port 8001] [--interval 60]``: serve the demo news sites until Ctrl-C."""

from __future__ import annotations

import argparse
import logging
import signal
import sys

from .server import DemoServer
from .sites import DEFAULT_PORT, SERVED_SITES, synthetic_sites


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m demo", description=__doc__)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port on every site address (0: any free)")
    parser.add_argument(
        "--interval",
        type=float,
        default=60.0,
        help="seconds between new articles per site (0: only via POST /_control/publish)",
    )
    parser.add_argument("--start-published", type=int, default=4, help="articles already published at start")
    parser.add_argument(
        "--synthetic",
        type=int,
        default=0,
        metavar="N",
        help="serve N synthetic sites on 127.1.x.y instead of the four demo sites",
    )
    parser.add_argument(
        "--state",
        metavar="FILE",
        help="keep the publication timelines in FILE, so a restart continues them (published stays published)",
    )
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args(argv)

    sites = list(synthetic_sites(args.synthetic)) if args.synthetic else list(SERVED_SITES)
    server = DemoServer(
        port=args.port,
        interval=args.interval or None,
        start_published=args.start_published,
        sites=sites,
        quiet=not args.verbose,
        state_file=args.state,
    )
    try:
        server.start()
    except OSError as exc:
        print(f"demo news sites: cannot listen on port {args.port}: {exc}", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    shown = sites if len(sites) <= 10 else sites[:3]
    for spec in shown:
        print(f"{spec.name:<24} {server.home_url(spec.key)}", flush=True)
    if len(sites) > len(shown):
        print(f"... and {len(sites) - len(shown)} more synthetic sites", flush=True)

    def _stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

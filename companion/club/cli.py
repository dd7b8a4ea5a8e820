"""``companion hub mqtt://HOST/CLUB``: subscribe to a club's tables and serve the page."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from companion.club.settings import Broker
from companion.config import user_data_dir


def hub_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion hub", description=(
        "Every table of a club live, the night's standings and its results (docs/club.md)."))
    parser.add_argument("broker", metavar="URL|FILE",
                        help="mqtt://[USER:PASS@]HOST[:PORT]/CLUB, mqtts://..., or a club "
                        "TOML file")
    parser.add_argument("--port", type=int, default=8020, help="the page's port (8020)")
    parser.add_argument("--bind", default="127.0.0.1",
                        help="the page's address (127.0.0.1: this computer only; 0.0.0.0 for "
                        "the whole network, which can then read every table's public game)")
    parser.add_argument("--save", metavar="FILE",
                        help="where the night is kept, so that a hub started again still has "
                        "the games of tables that have gone (default: CLUB-DATE.jsonl in the "
                        "companion's data folder, club/)")
    parser.add_argument("--no-save", action="store_true", help="keep the night in memory only")
    args = parser.parse_args(argv)
    broker = Broker.parse(args.broker)
    store = None
    if not args.no_save:
        store = Path(args.save) if args.save else (
            user_data_dir() / "club" / f"{broker.club}-{time.strftime('%Y-%m-%d')}.jsonl")
    import uvicorn

    from companion.club.hub import Hub
    from companion.club.web import make_app

    hub = Hub(broker, store=store).start()
    print(f"(hub of {broker.describe()}: http://{args.bind}:{args.port}/ ; Ctrl-C stops)",
          file=sys.stderr)
    if store is not None:
        print(f"(the night is kept in {store})", file=sys.stderr)
    try:
        uvicorn.run(make_app(hub), host=args.bind, port=args.port, log_level="warning")
    finally:
        hub.close()
    return 0

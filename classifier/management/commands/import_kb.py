"""manage.py import_kb FILE [--user NAME]: load an exported knowledge base into a database without rules."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from classifier.exchange import import_json


class Command(BaseCommand):
    help = "Import an MCRDR knowledge base exported by export_kb (only into a knowledge base without rules)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="JSON file written by export_kb ('-' for standard input)")
        parser.add_argument("--user", help="username recorded in the audit log as the importer")

    def handle(self, *args, file, user=None, **options):
        import sys

        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise CommandError(f"{file} is not UTF-8 text (a JSON export of export_kb): {exc}") from None
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror or exc}") from None
        actor = None
        if user:
            try:
                actor = get_user_model().objects.get(username=user)
            except get_user_model().DoesNotExist:
                raise CommandError(f"no user {user!r}") from None
        try:
            counts = import_json(text, actor)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        except DatabaseError as exc:  # a value the checks let through and a column refused: nothing was written
            raise CommandError(f"the database refused a value of the file, nothing was imported: {exc}") from exc
        self.stdout.write(
            f"imported {counts['rules']} rules, {counts['cases']} cornerstone cases, {counts['folders']} new folders"
        )

"""manage.py export_kb [-o FILE]: write the whole knowledge base (folders, rules, cornerstone cases) as JSON."""

from pathlib import Path

from django.core.management.base import BaseCommand

from classifier.exchange import export_json


class Command(BaseCommand):
    help = "Export the MCRDR knowledge base (folders, rules, cornerstone cases) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, output=None, **options):
        text = export_json()
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"knowledge base written to {output}")
        else:
            self.stdout.write(text, ending="")

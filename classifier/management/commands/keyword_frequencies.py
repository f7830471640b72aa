"""Check the keywords' document frequencies against a recount of the keyword index, or repair them."""

from django.core.management.base import BaseCommand, CommandError

from classifier import frequencies

SHOWN = 20


class Command(BaseCommand):
    help = (
        "Recount how many cases hold each keyword (the keyword index) and compare with the stored counts that "
        "the words' rarity reads. Without --check the words that drifted are repaired (the index is locked "
        "against writes meanwhile). With --check nothing is written and the command fails when a count drifted."
    )

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="only report; fail when a count drifted")

    def handle(self, *args, check=False, **options):
        found = frequencies.drift() if check else frequencies.repair()
        for d in found[:SHOWN]:
            self.stdout.write(f"{d.keyword!r}: {d.counted} cases hold it, {d.stored} stored")
        if len(found) > SHOWN:
            self.stdout.write(f"... and {len(found) - SHOWN} more")
        if check and found:
            raise CommandError(f"{len(found)} keyword frequencies drifted; run manage.py keyword_frequencies")
        self.stdout.write(f"{len(found)} keyword frequencies {'drifted' if check else 'repaired'}")

"""Show or change how the knowledge base builds its cases: stemming, phrases, title/site/URL words."""

from argparse import BooleanOptionalAction

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from classifier import kb, services
from classifier.features import STEMMERS, FeatureSettings


class Command(BaseCommand):
    help = (
        "Show the knowledge base's feature settings, or change them and rebuild every case that is not a "
        "cornerstone case. Stemming can change only before the first rule."
    )

    def add_arguments(self, parser):
        parser.add_argument("--stemming", choices=[*STEMMERS, "none"], help="Snowball stemming language, or none")
        parser.add_argument("--phrases", action=BooleanOptionalAction, default=None, help="two-word phrases")
        parser.add_argument("--scopes", action=BooleanOptionalAction, default=None, help="title:, site:, url: words")
        parser.add_argument("--user", help="the user recorded in the audit log")

    def handle(self, *args, stemming=None, phrases=None, scopes=None, user=None, **options):
        current = kb.current().features
        if stemming is None and phrases is None and scopes is None:
            self.stdout.write(self._describe(current))
            return
        actor = None
        if user:
            actor = get_user_model().objects.filter(username=user).first()
            if actor is None:
                raise CommandError(f"no user {user!r}")
        wanted = FeatureSettings(
            stemming=current.stemming if stemming is None else (None if stemming == "none" else stemming),
            phrases=current.phrases if phrases is None else phrases,
            scopes=current.scopes if scopes is None else scopes,
        )
        try:
            rebuilt = services.set_feature_settings(wanted, actor)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        self.stdout.write(f"{self._describe(wanted)}\n{rebuilt} cases rebuilt")

    @staticmethod
    def _describe(settings: FeatureSettings) -> str:
        return (
            f"stemming: {settings.stemming or 'none'}; phrases: {'on' if settings.phrases else 'off'}; "
            f"title/site/URL words: {'on' if settings.scopes else 'off'}"
        )

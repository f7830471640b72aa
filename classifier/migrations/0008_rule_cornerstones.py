"""A rule has many cornerstone cases (issue 14, D1): RuleCornerstone(rule, case, decision, decided_by).

Every existing rule's `cornerstone` (the case it was made for) becomes its "made" row; `Rule.cornerstone`
keeps that meaning. Cornerstone cases whose change an expert accepts when committing a rule are added as
"accepted" rows of the new rule.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def made_rows(apps, schema_editor):
    Rule = apps.get_model("classifier", "Rule")
    RuleCornerstone = apps.get_model("classifier", "RuleCornerstone")
    rows = Rule.objects.filter(cornerstone__isnull=False).values_list(
        "id", "cornerstone_id", "created_by_id", "created_at"
    )
    batch = []
    for rule_id, case_id, user_id, made_at in rows.iterator(chunk_size=2000):
        batch.append(
            RuleCornerstone(
                rule_id=rule_id, case_id=case_id, decision="made", decided_by_id=user_id, decided_at=made_at
            )
        )
        if len(batch) >= 2000:
            RuleCornerstone.objects.bulk_create(batch)
            batch = []
    RuleCornerstone.objects.bulk_create(batch)


class Migration(migrations.Migration):
    dependencies = [
        ("classifier", "0007_inherited_folder_privacy"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RuleCornerstone",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "decision",
                    models.CharField(
                        choices=[("made", "Made for this case"), ("accepted", "Change accepted")], max_length=10
                    ),
                ),
                ("decided_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "case",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cornerstone_links",
                        to="classifier.case",
                    ),
                ),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "rule",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="cornerstone_links",
                        to="classifier.rule",
                    ),
                ),
            ],
        ),
        migrations.AddField(
            model_name="rule",
            name="cornerstones",
            field=models.ManyToManyField(
                blank=True, related_name="cornerstone_rules", through="classifier.RuleCornerstone", to="classifier.case"
            ),
        ),
        migrations.AddConstraint(
            model_name="rulecornerstone",
            constraint=models.UniqueConstraint(fields=("rule", "case"), name="unique_rule_cornerstone"),
        ),
        migrations.RunPython(made_rows, migrations.RunPython.noop),
    ]

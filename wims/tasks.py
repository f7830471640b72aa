"""Project-level tasks."""

from celery import shared_task


@shared_task(name="wims.health_check", ignore_result=False)  # its caller waits for it
def health_check(token: str) -> dict:
    """Prove that a worker can reach the broker and the database: echo the token, count sites."""
    from monitor.models import Site

    return {"token": token, "sites": Site.objects.count()}

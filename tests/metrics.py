"""Reading WIMS's metrics in tests: the /metrics page parsed by Prometheus's own text parser, and the counts of
every process of the test run (its metrics folder, tests/settings.py)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, multiprocess
from prometheus_client.parser import text_string_to_metric_families

from foundation import metrics


def scrape(client, **request) -> dict[str, float]:
    """GET /metrics (200 expected) parsed by prometheus_client's parser: {'name{label="v",...}': value}."""
    response = client.get("/metrics", **request)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        assert family.name.startswith("wims_"), family.name
        for sample in family.samples:
            assert sample.name.startswith("wims_"), sample.name
            samples[key(sample.name, **sample.labels)] = sample.value
    return samples


def key(name: str, **labels: str) -> str:
    return name + "{" + ",".join(f'{k}="{v}"' for k, v in sorted(labels.items())) + "}"


def counted(name: str, path: str | None = None, **labels: str) -> float:
    """A sample's value summed over every process that counted in the folder (0 when none counted it)."""
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=path or metrics.METRICS_DIR)
    with metrics.scrape_lock(path=path):
        return registry.get_sample_value(name, labels) or 0.0

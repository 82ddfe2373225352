"""GET /api/health reports the database, extension versions, broker and embedding provider."""


def test_health_reports_extensions_and_provider(client, db, settings):
    settings.CELERY_BROKER_URL = "memory://"
    body = client.get("/api/health").json()
    assert body["database"]["ok"] is True
    assert body["database"]["extensions"]["vector"]
    assert body["database"]["extensions"]["pg_trgm"]
    assert body["database"]["lc_ctype"] == "C.UTF-8"
    assert "configured" in body["embeddings"]
    assert "ok" in body["broker"]

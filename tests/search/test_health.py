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


def test_health_says_not_configured_without_provider(client, db, settings):
    from ingestion.embeddings import reset_embedding_backends

    settings.SEARCH_EMBEDDING_BACKENDS = {"default": None}
    reset_embedding_backends()
    body = client.get("/api/health").json()
    assert body["embeddings"] == {
        "configured": False,
        "code": "not_configured",
        "message": body["embeddings"]["message"],
    }
    assert "EMBEDDING_PROVIDER" in body["embeddings"]["message"]

"""Receivers of cms signals. Each calls one ingestion service; no logic lives here."""

"""The test process's environment, set before Django reads its settings: pytest.ini loads this
module as a plugin (`-p tests.environment`), ahead of pytest-django, which reads the settings
before any conftest.py is imported.

EMBEDDING_PROVIDER=local: the suite's figures, thresholds and speed are the USE model's (the
default until issue 37 made multilingual-e5-small the default); E5 has its own tests
(tests/ingestion/test_e5.py), and a test that wants another provider configures it. Processes
the tests start inherit it (tests/servers.py, database_env). A value the caller exported wins.
"""

import os

os.environ.setdefault("EMBEDDING_PROVIDER", "local")

// Built-in sample documents. Each sample is one document in a fresh MemoryStorage.
import type { PhraseKey } from "./locale/en";

export interface Sample {
  id: string;
  /** The phrase naming it in the sample select (src/locale/en.ts). */
  label: PhraseKey;
  path: string;
  text: string;
  /** A quick call that shows what the sample is for (fills the console, does not run); the page prefixes the verb. */
  suggested: { verb: string; args: Record<string, unknown> };
  /** More quick calls for this sample (each a button that fills the console). */
  extra?: { label: PhraseKey; verb: string; args: Record<string, unknown> }[];
}

// Example flow 1: enable experimental feature X.
const CONFIG_JSON = `{
  "name": "orders-service",
  "version": "2.4.1",
  "environment": "staging",
  "server": {
    "host": "0.0.0.0",
    "port": 8080,
    "workers": 4
  },
  "logging": {
    "level": "info",
    "format": "json",
    "destinations": ["stdout"]
  },
  "features": {
    "stable": ["A", "B", "C"],
    "experimental": []
  }
}
`;

// Example flow 2: three "timeout: 30" lines (database, api, cache) at lines 12, 45
// and 78, each under a comment line. No other line contains "timeout: 30".
const TIMEOUTS_YAML = `# Service configuration for the orders platform.
# Values are in seconds unless a key says otherwise.
version: 3
environment: staging

database:
  host: db.internal
  port: 5432
  name: orders
  user: orders_app
  # Database connection timeout
  timeout: 30
  pool:
    min_size: 2
    max_size: 20
    idle_seconds: 600
  ssl:
    enabled: true
    verify: full
  migrations:
    auto_apply: false
    directory: db/migrations
  replicas:
    - host: db-replica-1.internal
      port: 5432
    - host: db-replica-2.internal
      port: 5432

logging:
  level: info
  format: json
  destinations:
    - stdout
    - file
  file:
    path: /var/log/orders/app.log
    max_size_mb: 100
    keep: 7
    compress: true

api:
  base_url: https://api.example.com/v2
  version: v2
  # API call timeout
  timeout: 30
  retries: 3
  backoff:
    initial_ms: 200
    max_ms: 5000
    multiplier: 2
  rate_limit:
    requests_per_minute: 600
    burst: 50
  auth:
    kind: bearer
    token_env: ORDERS_API_TOKEN
  headers:
    user_agent: orders-service/2.4
    accept: application/json

queue:
  broker: amqp://mq.internal:5672
  exchange: orders
  prefetch: 10
  dead_letter:
    enabled: true
    max_attempts: 5

cache:
  backend: redis
  host: cache.internal
  port: 6379
  db: 0
  key_prefix: "orders:"
  max_entries: 100000
  eviction: lru
  # Cache entry expiry
  timeout: 30
  warmup:
    enabled: false
    keys: []

metrics:
  enabled: true
  exporter: prometheus
  port: 9102
  path: /metrics
  labels:
    service: orders
    region: eu-west-1
`;

// Fuzzy matching: the file is indented with tabs, the model's old_text with spaces. The retry
// block occurs twice, so the indentation tier finds two places: candidates A and B, each tagged
// `indentation`; staging one re-indents new_text with tabs.
const RETRY_PY = `"""Fetch with retries. This file is indented with tabs."""
import time


def fetch_user(client, user_id):
	for attempt in range(3):
		try:
			return client.get(f"/users/{user_id}")
		except TimeoutError:
			time.sleep(2 ** attempt)
	raise RuntimeError("user service unavailable")


def fetch_order(client, order_id):
	for attempt in range(3):
		try:
			return client.get(f"/orders/{order_id}")
		except TimeoutError:
			time.sleep(2 ** attempt)
	raise RuntimeError("order service unavailable")
`;

// A near miss: the model misremembers the key (max_conections) in old_text and new_text alike.
// No tier matches, so the core answers NoMatch with the closest region as candidate A
// (`similar:0.97`) and what differs; staging A applies only the change (100 → 250) to the
// document's own text, so the typo is not written.
const SERVER_TOML = `# orders-service server settings
[server]
host = "0.0.0.0"
port = 8080
max_connections = 100
keepalive_seconds = 75

[limits]
request_body_kb = 512
rate_per_minute = 600
`;

export const SAMPLES: Sample[] = [
  {
    id: "timeouts",
    label: "sample.timeouts",
    path: "timeouts.yaml",
    text: TIMEOUTS_YAML,
    suggested: { verb: "replace", args: { old_text: "timeout: 30", new_text: "timeout: 60" } },
  },
  {
    id: "config",
    label: "sample.config",
    path: "config.json",
    text: CONFIG_JSON,
    suggested: {
      verb: "replace",
      args: { old_text: '"experimental": []', new_text: '"experimental": ["X"]' },
    },
  },
  {
    id: "fuzzy",
    label: "sample.fuzzy",
    path: "retry.py",
    text: RETRY_PY,
    suggested: {
      verb: "replace",
      args: {
        old_text: "except TimeoutError:\n    time.sleep(2 ** attempt)",
        new_text: "except (TimeoutError, ConnectionError):\n    time.sleep(2 ** attempt)",
      },
    },
    extra: [
      {
        label: "sample.fuzzy_curly",
        verb: "replace",
        args: {
          old_text: "raise RuntimeError(\u201corder service unavailable\u201d)",
          new_text: 'raise RuntimeError("order service down")',
        },
      },
    ],
  },
  {
    id: "near-miss",
    label: "sample.near_miss",
    path: "server.toml",
    text: SERVER_TOML,
    suggested: {
      verb: "replace",
      args: { old_text: "max_conections = 100", new_text: "max_conections = 250" },
    },
  },
];

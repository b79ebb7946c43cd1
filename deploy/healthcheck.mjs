// Container health probe for images without curl: exits 0 when GET http://127.0.0.1:$PORT<path>
// answers 2xx within 3 s, else 1. Used by docker-compose.yml; Kubernetes probes call HTTP directly.
const path = process.argv[2] ?? '/health';
const port = process.env.PORT;

if (!port) {
  console.error('healthcheck: PORT is not set');
  process.exit(1);
}

try {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(3000) });
  if (!res.ok) console.error(`healthcheck: ${path} answered ${res.status}`);
  process.exit(res.ok ? 0 : 1);
} catch (err) {
  console.error(`healthcheck: ${path} did not answer: ${err.message}`);
  process.exit(1);
}

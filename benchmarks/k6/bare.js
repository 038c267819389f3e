// k6 closed-model loop against a bare 204 server: how many requests per second k6 itself
// can drive on this machine (benchmarks/k6-vs-autocannon.ts compares it with autocannon).
import http from 'k6/http';

export const options = {
  vus: Number(__ENV.BENCH_VUS || 50),
  duration: `${__ENV.BENCH_DURATION_S || 5}s`,
  summaryTrendStats: ['avg', 'p(99)'],
};

export default function () {
  http.get(__ENV.BENCH_URL, { timeout: '10s' });
}

// The hostile table's probe (bench/hostile.ts starts it as a worker thread, so the attack's own work on the bench's
// main thread does not delay it): eth_blockNumber on one keep-alive connection, probe k due at k * intervalMs and sent
// when due or when the one before it was answered; and the server's RSS from /proc/<pid>/status every 100 ms.
// Plain JavaScript: a worker does not inherit tsx's loader.
//   workerData: { url, pid, intervalMs }
//   posts { kind: 'ready' } after a first probe that is not counted, { kind: 'tick', waitingMs, rssMb, peakRssMb } every 200 ms, and on 'stop':
//   { kind: 'done', answers: ms from start each probe was answered, errors: messages, endMs, peakRssMb, epochs: [sent, answered] epoch ms }
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, pid, intervalMs } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let t0 = performance.now();
const now = () => performance.now() - t0;
const answers = [];
const errors = [];
// Epoch ms of each probe's send and answer (performance.timeOrigin + now): to line up with the server's own trace
// (bench/hostileLoopTrace.mjs).
const epochs = [];
let stopped = false;
let sentAt;
let rssMb;
let peakRssMb = 0;
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });

function sampleRss() {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(status);
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    if (rss) rssMb = Math.round(Number(rss[1]) / 1024);
    peakRssMb = Math.max(peakRssMb, rssMb ?? 0, hwm ? Math.round(Number(hwm[1]) / 1024) : 0);
  } catch {
    // the process is gone: keep the last figures
  }
}

/** One probe: undefined when answered with a result, else what went wrong. */
function probe() {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('error', (e) => resolve(`response: ${e.message}`));
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(`HTTP ${res.statusCode}: ${text.slice(0, 120)}`);
        try {
          const answer = JSON.parse(text);
          resolve(answer.result === undefined ? `error: ${JSON.stringify(answer.error ?? answer).slice(0, 160)}` : undefined);
        } catch {
          resolve(`not JSON: ${text.slice(0, 120)}`);
        }
      });
    });
    req.on('error', (e) => resolve(`connection: ${e.code ?? e.message}`));
    req.end(body);
  });
}

async function loop() {
  for (let k = 0; !stopped; k++) {
    const wait = k * intervalMs - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (stopped) return;
    sentAt = now();
    const sentEpoch = performance.timeOrigin + performance.now();
    const error = await probe();
    sentAt = undefined;
    if (stopped) return;
    answers.push(now());
    epochs.push([sentEpoch, performance.timeOrigin + performance.now()]);
    if (error) errors.push(error);
  }
}

const rssTimer = setInterval(sampleRss, 100);
const tickTimer = setInterval(() => parentPort.postMessage({ kind: 'tick', waitingMs: sentAt === undefined ? 0 : now() - sentAt, rssMb, peakRssMb }), 200);
parentPort.on('message', (m) => {
  if (m !== 'stop' || stopped) return;
  stopped = true;
  sampleRss();
  clearInterval(rssTimer);
  clearInterval(tickTimer);
  parentPort.postMessage({ kind: 'done', answers, errors, endMs: now(), peakRssMb, epochs });
  agent.destroy();
});
sampleRss();
// One probe first, not counted (the connection's setup), then 'ready' and the timed loop from its own start.
probe().then(() => {
  parentPort.postMessage({ kind: 'ready' });
  t0 = performance.now();
  loop();
});

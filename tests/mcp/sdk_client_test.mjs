// The official MCP TypeScript SDK's client drives the real `tlscope mcp` process: it lists the
// tools, calls each, and checks every answer against the same run's `--format json` output of the
// commands, so the server and the CLI cannot drift apart.
//   node sdk_client_test.mjs TLSCOPE TLSCOPE_SAMPLE SHARED_LOGS
// NODE_PATH must reach @modelcontextprotocol/sdk (scripts/test.sh installs it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// ES modules ignore NODE_PATH: resolve the SDK through a require() that honours it.
const require = createRequire(import.meta.url);
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(
  require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));

const [tlscope, sample, sharedLogs] = process.argv.slice(2);
const root = mkdtempSync(join(tmpdir(), 'tlscope-mcp-sdk-'));
const outside = mkdtempSync(join(tmpdir(), 'tlscope-mcp-outside-'));
const env = {
  ...process.env,
  XDG_CACHE_HOME: join(root, '.cache'),
  XDG_STATE_HOME: join(root, '.state'),
  TLSCOPE_COMMAND_LOG: 'off',
};
const cli = (...args) =>
  execFileSync(tlscope, args, { env, encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
const cliJson = (...args) => JSON.parse(cli(...args));

let failures = 0;
async function check(name, fn) {
  try {
    await fn();
    console.log(`ok - ${name}`);
  } catch (e) {
    failures++;
    console.log(`not ok - ${name}\n${e.stack}`);
  }
}

try {
  // The runs: a real PyTorch log, one that failed, and a sample runtime run with recompiles.
  const simple = join(root, 'simple.log');
  const failure = join(root, 'comp_failure.log');
  copyFileSync(join(sharedLogs, 'simple.log'), simple);
  copyFileSync(join(sharedLogs, 'comp_failure.log'), failure);
  const sampleRun = join(root, 'recompiles');
  execFileSync(sample, ['recompiles', '--out', sampleRun], { env, stdio: 'ignore' });
  copyFileSync(join(sharedLogs, 'simple.log'), join(outside, 'simple.log'));

  const transport = new StdioClientTransport({
    command: tlscope, args: ['mcp', '--root', root], env, stderr: 'ignore' });
  const client = new Client({ name: 'tlscope-test', version: '1.0.0' });
  await client.connect(transport);
  const call = (name, args) => client.callTool({ name, arguments: args });

  await check('the server names itself and lists its tools', async () => {
    assert.equal(client.getServerVersion().name, 'tlscope');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(),
      ['compare_runs', 'explain_recompiles', 'list_findings', 'query', 'show_compile',
       'summarize_run']);
  });

  for (const run of [simple, failure, sampleRun]) {
    const summary = cliJson('summary', run, '--format', 'json');
    await check(`summarize_run equals summary --format json (${run})`, async () => {
      const r = await call('summarize_run', { path: run });
      assert.equal(r.isError, false);
      assert.deepEqual(r.structuredContent, summary);
      assert.deepEqual(JSON.parse(r.content[1].text), summary);
    });
    await check(`list_findings filters summary's findings (${run})`, async () => {
      const all = await call('list_findings', { path: run });
      assert.deepEqual(all.structuredContent.findings, summary.findings);
      for (const kind of new Set(summary.findings.map((f) => f.kind))) {
        const some = await call('list_findings', { path: run, kind });
        assert.deepEqual(some.structuredContent.findings,
          summary.findings.filter((f) => f.kind === kind));
      }
    });
    await check(`explain_recompiles lists the frames that recompiled (${run})`, async () => {
      const r = await call('explain_recompiles', { path: run });
      const recompiled = summary.frames.filter((f) => f.recompile_reasons.length > 0);
      assert.deepEqual(r.structuredContent.frames, recompiled);
      assert.equal(r.structuredContent.recompiles, summary.recompiles);
    });
  }

  await check('the sample run recompiled and says which guard failed', async () => {
    const r = await call('explain_recompiles', { path: sampleRun });
    assert.ok(r.structuredContent.recompiles > 0);
    assert.match(r.content[0].text, /guard failed: /);
  });

  await check('compare_runs equals compare --format json', async () => {
    const expected = cliJson('compare', failure, simple, '--format', 'json');
    const r = await call('compare_runs', { a: failure, b: simple });
    assert.equal(r.isError, false);
    assert.deepEqual(r.structuredContent, expected);
  });

  await check('query equals tlscope query on the same database', async () => {
    const db = join(root, 'simple.db');
    cli('ingest', simple, '--db', db);
    const sql = 'SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY kind';
    const r = await call('query', { path: db, sql });
    assert.equal(r.isError, false);
    assert.deepEqual(r.structuredContent.columns, ['kind', 'n']);
    const csv = cli('query', db, sql, '--csv').trim().split('\n').slice(1)
      .map((line) => { const [k, n] = line.split(','); return [k, Number(n)]; });
    assert.deepEqual(r.structuredContent.rows, csv);
    const cut = await call('query', { path: db, sql, max_rows: 2 });
    assert.equal(cut.structuredContent.rows.length, 2);
    assert.equal(cut.structuredContent.truncated, true);
    const write = await call('query', { path: db, sql: 'DELETE FROM events' });
    assert.equal(write.isError, true);
    assert.equal(cliJson('summary', db, '--format', 'json').compiles.attempted,
      cliJson('summary', simple, '--format', 'json').compiles.attempted);
  });

  await check('show_compile gives the graph and guards of compile 0/0', async () => {
    const r = await call('show_compile', { path: simple, compile_id: '0/0' });
    assert.equal(r.isError, false);
    assert.equal(r.structuredContent.compile.compile_id, '0/0');
    const frame = cliJson('summary', simple, '--format', 'json').frames[0];
    assert.equal(r.structuredContent.compile.function, frame.function);
    assert.ok(r.structuredContent.graphs.length > 0);
    assert.ok(r.structuredContent.guards.length > 0);
    const none = await call('show_compile', { path: simple, compile_id: '99/99' });
    assert.equal(none.isError, true);
  });

  await check('paths outside --root are refused, links included', async () => {
    for (const path of [join(outside, 'simple.log'), '/etc/passwd', join(root, '..')]) {
      const r = await call('summarize_run', { path });
      assert.equal(r.isError, true, path);
      assert.match(r.content[0].text, /outside|no such/);
    }
  });

  await client.close();
} catch (e) {
  failures++;
  console.log(`not ok - setup\n${e.stack}`);
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
}
console.log(failures === 0 ? 'all MCP client checks passed' : `${failures} MCP client check(s) failed`);
process.exit(failures === 0 ? 0 : 1);

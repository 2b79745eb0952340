import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hardfork } from '@ethereumjs/common';
import { namehash, Wallet, ZeroAddress } from 'ethers';
import { PortalChain } from './support/portal-chain';
import { RpcServer } from '../src/dev-chain/rpc-server';
import { freePort } from './support/service-process';
import { logChild } from './support/suite-log';

const CLI = join(__dirname, '..', 'dist', 'cli.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> =>
  new Promise((resolve) => {
    logChild(
      'cli',
      execFile(
        process.execPath,
        [CLI, ...args],
        { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
  });

/** No raw library or Node error: no stack, no error code class names, no parseArgs wording. */
const RAW = /ERR_|BUFFER_OVERRUN|ENOENT|ambiguous|at .*\.js:\d+|TypeError|Error:/;
/** What NestJS, TypeORM and Node print on their own: log lines, the exception handler, stack frames. */
const NOISE = /\[Nest\]|TypeOrmModule|ExceptionHandler|Retrying|^\s+at /m;

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const TEMPLATE = 'https://gw.example/{sender}/{data}.json';

/**
 * The command line as a shell user meets it (CONTRACT section 17): --help on every command and sub-command,
 * unknown commands and options named with the usage and exit 2, failures in one line and exit 1.
 */
describe('npm run cli: usage, help and exit codes', () => {
  it.each([
    [['--help'], 'npm run cli -- <command>', 'resolver check PARENT'],
    [['keys', '--help'], 'npm run cli -- keys …', 'keys rotate ID'],
    [['keys', 'create', '--help'], 'npm run cli -- keys create …', 'keys create --name NAME'],
    [['keys', 'revoke', '-h'], 'npm run cli -- keys revoke …', 'keys revoke ID'],
    [['audit', '--help'], 'npm run cli -- audit …', 'audit [--since ISO-8601]'],
    [['import', '--help'], 'npm run cli -- import …', 'import FILE --url URL'],
    [['primary-name', '--help'], 'npm run cli -- primary-name …', 'primary-name prepare ADDRESS'],
    [['primary-name', 'prepare', '--help'], 'npm run cli -- primary-name prepare …', 'primary-name prepare'],
    [['resolver', '--help'], 'npm run cli -- resolver …', 'resolver signers --resolver'],
    [['resolver', 'deploy', '--help'], 'npm run cli -- resolver deploy …', 'resolver deploy --url-template'],
    [['resolver', 'use', '--help'], 'npm run cli -- resolver use …', 'resolver use PARENT --resolver'],
  ])('%j prints its own usage and exits 0', async (args, head, line) => {
    const run = await cli(args);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\n')[0]).toBe(
      `Usage: ${head}${args.length === 1 && args[0] === '--help' ? ' [--help]' : ''}`,
    );
    expect(run.stdout).toContain(line);
    if (args[0] === 'resolver' && args[1] === 'deploy') expect(run.stdout).not.toContain('resolver check PARENT');
  });

  it.each([
    [['bogus'], 'unknown command bogus'],
    [[], 'give a command'],
    [['resolver', 'frob'], 'unknown command resolver frob'],
    [['keys', 'frob'], 'unknown command keys frob'],
    [['keys', 'create', '--bogus'], 'unknown option --bogus'],
    [['import', 'x.ndjson', '--frob'], 'unknown option --frob'],
    [['resolver', 'check', 'oak.eth', '--nope'], 'unknown option --nope'],
    [['keys', 'create', '--name', 'a', '--parent', 'oak.eth', '--quota', '-5'], '--quota must be a whole number'],
    [['keys', 'create', '--name'], '--name needs a value'],
    [['import', 'x.ndjson', '--url', 'ftp://host', '--key', 'k'], '--url must be the service'],
    [['primary-name', 'prepare'], 'primary-name prepare needs the ADDRESS'],
    [['primary-name', 'prepare', ADDRESS], 'primary-name prepare needs --resolver ADDRESS'],
    [['primary-name', 'prepare', '0xnot-an-address', '--resolver', ADDRESS], 'ADDRESS: must be a 0x-prefixed'],
    [['primary-name', 'prepare', ADDRESS, '--resolver', '0x12'], '--resolver: must be a 0x-prefixed'],
    [['keys', 'create', '--name', 'a'], 'keys create needs --parent NAME'],
    [['keys', 'create', '--parent', 'oak.eth', '--json'], 'keys create needs --name NAME'],
    [['keys', 'create', '--name', 'a', '--parent', 'eth'], '--parent'],
    [['keys', 'create', '--name', 'a', '--parent', 'oak.eth', '--expires', '2001-01-01T00:00:00Z'], '--expires:'],
    [['keys', 'revoke', 'not-a-uuid'], 'ID: must be a UUID'],
    [['audit', '--size', '0'], '--size:'],
    [['resolver', 'deploy', '--url-template', TEMPLATE, '--signer', ADDRESS, OTHER], `unexpected argument ${OTHER}`],
    [['resolver', 'check', 'oak.eth', 'pine.eth'], 'unexpected argument pine.eth'],
    [['resolver', 'use'], 'resolver use needs the parent name'],
    [['resolver', 'use', 'oak.eth', '--print'], 'give --resolver ADDRESS'],
    [['resolver', 'use', 'oak.eth', '--resolver', ADDRESS], 'give --private-key-file FILE to send, or --print'],
    [['resolver', 'deploy', '--url-template', TEMPLATE, '--signer', '0x12', '--print'], '--signer must be'],
    [['resolver', 'url', '--resolver', ADDRESS, '--url-template', 'ftp://x', '--print'], '--url-template must be'],
    [['resolver', 'signers', '--resolver', ADDRESS, '--print'], 'give --add or --remove'],
    [['resolver', 'check', 'oak.eth', '--rpc-url', 'localhost:8545'], '--rpc-url must be an http(s)'],
  ])('%j is a usage error: named, with the usage, exit 2', async (args, message) => {
    // Neither the database nor the chain answers: a usage error is told before either is asked anything.
    const run = await cli(args, {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      ENS_RPC_URL: 'http://127.0.0.1:1',
    });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toContain(message);
    expect(run.stderr).toContain('Usage: npm run cli -- ');
    expect(run.stderr).not.toMatch(RAW);
    expect(run.stderr.split('\n')[0]).not.toContain('give --rpc-url');
    expect(run.stdout).toBe('');
  });

  /** The packages of the work (the application, the database, the chain, the DTOs), not of parsing. */
  const HEAVY = /[\\/]node_modules[\\/](@nestjs|typeorm|ethers|viem|class-validator|class-transformer)[\\/]/;
  /** The CLI's run with the files it loaded: require.cache as the process exits, written to a file. */
  const loaded = async (args: string[]): Promise<{ code: number; heavy: string[] }> => {
    const file = join(mkdtempSync(join(tmpdir(), 'cli-loaded-')), 'modules.json');
    const record = `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(file)}, JSON.stringify(Object.keys(require.cache))));`;
    const run = await new Promise<number>((resolve) => {
      const child = execFile(
        process.execPath,
        [
          '-e',
          `${record} process.argv.splice(1, 0, ${JSON.stringify(CLI)}); require(${JSON.stringify(CLI)});`,
          '--',
          ...args,
        ],
        { env: { PATH: process.env.PATH, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, timeout: 60_000 },
        (error) => resolve(error ? ((error as { code?: number }).code ?? 1) : 0),
      );
      logChild('cli', child);
    });
    const modules = JSON.parse(readFileSync(file, 'utf8')) as string[];
    return { code: run, heavy: modules.filter((m) => HEAVY.test(m)) };
  };

  it.each([
    [['--help'], 0],
    [['keys', 'revoke', '-h'], 0],
    [['bogus'], 2],
    [['keys', 'create', '--bogus'], 2],
    [['keys', 'create', '--name', 'a', '--parent', 'oak.eth', '--quota', '-5'], 2],
    [['resolver', 'check', 'oak.eth', '--nope'], 2],
    [['import', 'x.ndjson', '--frob'], 2],
    [['primary-name', 'prepare'], 2],
    [['primary-name', 'prepare', ADDRESS], 2],
    [['keys', 'create', '--name', 'a'], 2],
    [['resolver', 'deploy', '--signer', ADDRESS, OTHER], 2],
    [['resolver', 'check'], 2],
    [['dev-chain', '--port', 'x'], 2],
  ])('%j answers without loading NestJS, TypeORM, ethers or the DTOs', async (args, code) => {
    expect(await loaded(args)).toEqual({ code, heavy: [] });
  });

  it('a command whose arguments parse loads its work (the check above sees what is loaded)', async () => {
    const run = await loaded(['primary-name', 'prepare', '0xnot-an-address', '--resolver', ZeroAddress]);
    expect(run.code).toBe(2);
    expect(run.heavy).toEqual(expect.arrayContaining([expect.stringMatching(/class-validator/)]));
  });

  it('import: a missing file and an unreachable service are one line each saying what to do, exit 1', async () => {
    const missing = await cli(['import', '/nonexistent/names.ndjson', '--url', 'http://127.0.0.1:9', '--key', 'k']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(
      'cannot read /nonexistent/names.ndjson (no such file): give the path of an NDJSON export or a NameStone JSON file',
    );
    const file = join(mkdtempSync(join(tmpdir(), 'cli-')), 'names.ndjson');
    writeFileSync(file, '{"label":"a","parentName":"oak.eth"}\n');
    const url = `http://127.0.0.1:${await freePort()}`;
    const down = await cli(['import', file, '--url', url, '--key', 'k']);
    expect(down.code).toBe(1);
    expect(down.stderr.trim()).toBe(`cannot reach ${url} (ECONNREFUSED): check --url and that the service is running`);
  });

  it.each([
    [['keys', 'list']],
    [['keys', 'create', '--name', 'a', '--parent', 'oak.eth']],
    [['keys', 'revoke', '00000000-0000-4000-8000-000000000000']],
    [['audit', '--size', '5']],
  ])('%j with the database unreachable: one line naming host and port, no password, exit 1', async (args) => {
    const port = await freePort();
    const run = await cli(args, { DATABASE_URL: `postgres://admin:s3cret-pw@127.0.0.1:${port}/names` });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toBe(
      `cannot reach the database at 127.0.0.1:${port} (ECONNREFUSED): check DATABASE_URL and that PostgreSQL is running\n`,
    );
    expect(run.stderr).not.toMatch(NOISE);
    expect(run.stderr).not.toContain('s3cret-pw');
  });

  it.each([
    [['resolver', 'check', 'oak.eth', '--gateway', 'http://127.0.0.1:9']],
    [['resolver', 'use', 'oak.eth', '--resolver', ADDRESS, '--print']],
    [['resolver', 'deploy', '--url-template', TEMPLATE, '--signer', ADDRESS, '--owner', ADDRESS, '--print']],
    [['resolver', 'signers', '--resolver', ADDRESS, '--add', OTHER, '--print']],
  ])('%j with the chain unreachable: one line saying what to check, exit 1', async (args) => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const ways: [string[], NodeJS.ProcessEnv][] = [
      [args, { ENS_RPC_URL: url }],
      [[...args, '--rpc-url', url], {}],
    ];
    for (const [argv, env] of ways) {
      const run = await cli(argv, env);
      expect(run).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr).toBe(
        `The Ethereum JSON-RPC endpoint ${url} failed: check --rpc-url (default ENS_RPC_URL) and that the node is running\n`,
      );
      expect(run.stderr).not.toMatch(RAW);
    }
  });

  describe('resolver commands on a chain', () => {
    let chain: PortalChain;
    let env: NodeJS.ProcessEnv;
    let keyFile: string;
    const holder = Wallet.createRandom();

    beforeAll(async () => {
      chain = await PortalChain.start();
      env = await chain.env();
      keyFile = join(mkdtempSync(join(tmpdir(), 'cli-')), 'holder.key');
      writeFileSync(keyFile, holder.privateKey);
      await chain.register('oak', holder.address);
    });
    afterAll(() => chain.close());

    it('resolver use refuses an address without code, and a contract without ENSIP-10, before sending', async () => {
      const nobody = Wallet.createRandom().address;
      const eoa = await cli(['resolver', 'use', 'oak.eth', '--resolver', nobody, '--private-key-file', keyFile], env);
      expect(eoa.code).toBe(1);
      expect(eoa.stderr.trim()).toBe(
        `refused: no contract at ${nobody} on chain 31337; deploy one first (npm run cli -- resolver deploy)`,
      );
      const registry = env.ENS_REGISTRY_ADDRESS!;
      const plain = await cli(['resolver', 'use', 'oak.eth', '--resolver', registry, '--print'], env);
      expect(plain.code).toBe(1);
      expect(plain.stdout).toBe('');
      expect(plain.stderr).toContain(`refused: ${registry} does not support ENSIP-10 (supportsInterface(0x9061b923)`);
      expect(await chain.registry.resolver(namehash('oak.eth'))).toBe(ZeroAddress);
    });

    it('resolver deploy on a chain that cannot run the compiled bytecode says so, exit 1', async () => {
      const old = await RpcServer.start(31337, undefined, Hardfork.Shanghai);
      try {
        const run = await cli(
          [
            'resolver',
            'deploy',
            '--rpc-url',
            old.url,
            '--url-template',
            'https://gw.example/{sender}/{data}.json',
            '--signer',
            holder.address,
            '--private-key-file',
            keyFile,
          ],
          env,
        );
        expect(run.code).toBe(1);
        expect(run.stderr.trim().split('\n').pop()).toBe(
          'refused: chain 31337 cannot run the compiled resolver (built for the EVM version cancun, as Ethereum ' +
            'mainnet and Sepolia run); deploy on a chain that runs cancun or later',
        );
        expect(run.stderr).not.toMatch(RAW);
      } finally {
        await old.close();
      }
    });
  });
});

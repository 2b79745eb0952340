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
  ])('%j is a usage error: named, with the usage, exit 2', async (args, message) => {
    const run = await cli(args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toContain(message);
    expect(run.stderr).toContain('Usage: npm run cli -- ');
    expect(run.stderr).not.toMatch(RAW);
    expect(run.stderr.split('\n')[0]).not.toContain('--rpc-url');
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
    [['dev-chain', '--port', 'x'], 2],
  ])('%j answers without loading NestJS, TypeORM, ethers or the DTOs', async (args, code) => {
    expect(await loaded(args)).toEqual({ code, heavy: [] });
  });

  it('a command whose arguments parse loads its work (the check above sees what is loaded)', async () => {
    const run = await loaded(['primary-name', 'prepare', '0xnot-an-address', '--resolver', ZeroAddress]);
    expect(run.code).toBe(1);
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

import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp } from '../../test/support/controller-app';
import { StaleSignatureError } from '../primary-names/primary-names.errors';
import { QuotaExceededError } from '../quota/quota.errors';
import { SubnameNotFoundError, SubnameTakenError } from '../subnames/subnames.errors';
import type { WriteResult } from '../subnames/subnames.service';
import { HolderActionsService } from './holder-actions.service';
import { HolderGate } from './holder-gate';
import { HolderNamesService } from './holder-names.service';
import { HoldersController } from './holders.controller';
import { ClaimLimitReachedError, HolderNotAllowedError, NotHolderError, SubnameReservedError } from './holders.errors';

const ALICE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BOB = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const SIGNATURE = `0x${'ab'.repeat(65)}`;
const STORED = { fullName: 'alice.oak.eth', parentName: 'oak.eth', label: 'alice', owner: ALICE };
const ISSUED_AT = 1795800000;

/** Each signed action's message (as the wallet signed it), with a lower-case address where it has one. */
const MESSAGES = {
  claim: { name: 'alice.oak.eth', owner: ALICE.toLowerCase(), texts: [], addresses: [], issuedAt: ISSUED_AT },
  records: {
    name: 'alice.oak.eth',
    texts: [{ key: 'description', value: 'Alice' }],
    addresses: [],
    contenthash: '',
    issuedAt: ISSUED_AT,
  },
  transfer: { name: 'alice.oak.eth', newOwner: BOB.toLowerCase(), issuedAt: ISSUED_AT },
  delete: { name: 'alice.oak.eth', issuedAt: ISSUED_AT },
};

describe(HoldersController.name, () => {
  let app: NestExpressApplication;
  const actions = { claim: jest.fn(), setRecords: jest.fn(), transfer: jest.fn(), remove: jest.fn() };
  const gate = { typedData: jest.fn() };
  const names = { heldBy: jest.fn() };
  const write = (created: boolean, ended: WriteResult['ended'] = []) => ({ subname: STORED, created, ended });

  beforeAll(async () => {
    app = await controllerApp(
      [HoldersController],
      [
        { provide: HolderActionsService, useValue: actions },
        { provide: HolderGate, useValue: gate },
        { provide: HolderNamesService, useValue: names },
      ],
    );
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const post = (path: string, body: object) => request(app.getHttpServer()).post(`/api/v1/holder/${path}`).send(body);
  const signed = (action: keyof typeof MESSAGES, extra: object = {}) =>
    post(action, { ...MESSAGES[action], signature: SIGNATURE, ...extra });
  const fields = (res: request.Response) => res.body.errors.map((e: { field: string }) => e.field).sort();

  it('POST /claim: 201 for a new name, 200 when it was stored; the checksummed body and the request id handed over', async () => {
    actions.claim.mockResolvedValueOnce(write(true)).mockResolvedValueOnce(write(false));
    const created = await signed('claim').set('x-request-id', 'req-1');
    expect(created.status).toBe(201);
    expect(created.body).toEqual(STORED);
    const [dto, requestId] = actions.claim.mock.calls[0];
    expect(dto).toEqual({ ...MESSAGES.claim, owner: ALICE, signature: SIGNATURE });
    expect(requestId).toBe('req-1');
    expect((await signed('claim')).status).toBe(200);
  });

  it('POST /records and /transfer: 200 with the name, X-Primary-Name-Ended for each primary name the write ended', async () => {
    actions.setRecords.mockResolvedValue(write(false));
    actions.transfer.mockResolvedValue(write(false, [{ address: ALICE, name: 'alice.oak.eth' }]));
    const records = await signed('records');
    expect(records.status).toBe(200);
    expect(records.body).toEqual(STORED);
    expect(records.headers['x-primary-name-ended']).toBeUndefined();
    expect(actions.setRecords.mock.calls[0][0]).toEqual({ ...MESSAGES.records, signature: SIGNATURE });
    const transfer = await signed('transfer');
    expect(transfer.status).toBe(200);
    expect(transfer.headers['x-primary-name-ended']).toBe(`${ALICE} alice.oak.eth`);
    expect(actions.transfer.mock.calls[0][0]).toEqual({ ...MESSAGES.transfer, newOwner: BOB, signature: SIGNATURE });
  });

  it('POST /delete: 204 with no body, and X-Primary-Name-Ended when the deletion ended a primary name', async () => {
    actions.remove.mockResolvedValueOnce([]).mockResolvedValueOnce([{ address: ALICE, name: 'alice.oak.eth' }]);
    const plain = await signed('delete').set('x-request-id', 'req-2');
    expect(plain.status).toBe(204);
    expect(plain.text).toBe('');
    expect(plain.headers['x-primary-name-ended']).toBeUndefined();
    expect(actions.remove).toHaveBeenCalledWith({ ...MESSAGES.delete, signature: SIGNATURE }, 'req-2');
    const ended = await signed('delete');
    expect(ended.headers['x-primary-name-ended']).toBe(`${ALICE} alice.oak.eth`);
  });

  it('a signed action with a bad shape: 400 naming each field, the name as signed (not normalised here)', async () => {
    const res = await signed('claim', { name: 'Alice.oak.eth', owner: '0x12', issuedAt: -1, signature: '0xab' });
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(['issuedAt', 'name', 'owner', 'signature']);
    expect(res.body.errors.find((e: { field: string }) => e.field === 'name').message).toBe(
      'must be ENSIP-15 normalised, as signed: alice.oak.eth',
    );
    const twoLabels = await signed('delete', { name: 'oak.eth' });
    expect(fields(twoLabels)).toEqual(['name']);
    const duplicate = await signed('records', { texts: [MESSAGES.records.texts[0], MESSAGES.records.texts[0]] });
    expect(fields(duplicate)).toEqual(['texts']);
    expect(actions.claim).not.toHaveBeenCalled();
    expect(actions.remove).not.toHaveBeenCalled();
    expect(actions.setRecords).not.toHaveBeenCalled();
  });

  it.each([
    [new NotHolderError("The signature is not the holder's"), 401, 'UNAUTHORIZED'],
    [new HolderNotAllowedError('claims are closed under oak.eth'), 403, 'HOLDER_NOT_ALLOWED'],
    [new ClaimLimitReachedError(ALICE, 'oak.eth', 1), 403, 'CLAIM_LIMIT_REACHED'],
    [new QuotaExceededError(10), 403, 'QUOTA_EXCEEDED'],
    [new SubnameTakenError('alice.oak.eth'), 409, 'SUBNAME_TAKEN'],
    [new SubnameReservedError('alice', 'oak.eth'), 409, 'SUBNAME_RESERVED'],
    [new StaleSignatureError('issuedAt was replayed'), 409, 'STALE_SIGNATURE'],
  ])('POST /claim: the service refusing with %p is a %i %s problem', async (error, status, code) => {
    actions.claim.mockRejectedValue(error);
    const res = await signed('claim');
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code, status, detail: error.detail });
  });

  it('POST /records, /transfer and /delete of a name not stored: 404 SUBNAME_NOT_FOUND', async () => {
    const missing = new SubnameNotFoundError('alice.oak.eth');
    actions.setRecords.mockRejectedValue(missing);
    actions.transfer.mockRejectedValue(missing);
    actions.remove.mockRejectedValue(missing);
    for (const action of ['records', 'transfer', 'delete'] as const)
      expect((await signed(action)).body).toMatchObject({ status: 404, code: 'SUBNAME_NOT_FOUND' });
  });

  it.each(['claim', 'records', 'transfer', 'delete'] as const)(
    'POST /%s/typed-data: 200 with the gate’s typed data for the checked message; a signature is refused',
    async (action) => {
      const typed = { domain: { name: 'ENS subname service', version: '1', chainId: 1 }, primaryType: 'X' };
      gate.typedData.mockReturnValue(typed);
      const res = await post(`${action}/typed-data`, MESSAGES[action]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(typed);
      const [asked, message] = gate.typedData.mock.calls[0];
      expect(asked).toBe(action);
      expect(message).toMatchObject({ name: 'alice.oak.eth', issuedAt: ISSUED_AT });

      const signedToo = await post(`${action}/typed-data`, { ...MESSAGES[action], signature: SIGNATURE });
      expect(signedToo.status).toBe(400);
      expect(fields(signedToo)).toEqual(['signature']);
      expect(gate.typedData).toHaveBeenCalledTimes(1);
    },
  );

  it('GET /:address/names: 200 with the page, the address checksummed, page and size defaulted or read as integers', async () => {
    const page = { items: [STORED], page: 1, size: 25, totalItems: 1 };
    names.heldBy.mockResolvedValue(page);
    const res = await request(app.getHttpServer()).get(`/api/v1/holder/${ALICE.toLowerCase()}/names`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(page);
    expect(names.heldBy).toHaveBeenLastCalledWith(ALICE, 1, 25);
    await request(app.getHttpServer()).get(`/api/v1/holder/${ALICE}/names?page=3&size=50`).expect(200);
    expect(names.heldBy).toHaveBeenLastCalledWith(ALICE, 3, 50);
  });

  it('GET /:address/names: 400 for a bad address, size, or a page past the window; the service untouched', async () => {
    const get = (path: string) => request(app.getHttpServer()).get(`/api/v1/holder/${path}`);
    expect(fields(await get('0x12/names'))).toEqual(['address']);
    expect(fields(await get(`${ALICE}/names?size=101`))).toEqual(['size']);
    const deep = await get(`${ALICE}/names?page=101&size=100`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors).toEqual([{ field: 'page', message: 'must keep page × size within 10000' }]);
    expect(names.heldBy).not.toHaveBeenCalled();
  });
});

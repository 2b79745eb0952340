import { verifyTypedData, Wallet } from 'ethers';
import { ValidationFailedError } from '../common/errors';
import { loadConfig } from '../config/app-config';
import type { SubnamesService } from '../subnames/subnames.service';
import { ListingEntity } from '../listings/listing.entity';
import type { ListingsService } from '../listings/listings.service';
import { MINT_CONTEXT_TYPES, NO_EXPIRY } from '../signing/mint-context';
import { ListingNotFoundError } from '../listings/listings.errors';
import { SubnameReservedError, SubnameTakenError } from './mint.errors';
import { buildContent, MintService } from './mint.service';
import { quote, SECONDS_PER_YEAR } from '../listings/pricing';
import { AppValidationPipe } from '../common/validation/validation.pipe';
import { EstimateQueryDto } from './dto/estimate.dto';
import { MintRequestDto } from './dto/mint.dto';
import { SigningService } from '../signing/signing.service';

const MINTER = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
const MINTER_55 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OWNER_55 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const RECEIVER_55 = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
const OAK_NODE = '0x437e3b9bab563acfa6e713f2c6dab6d78deb7bbfd2e9037da34e8d4e5f6e09dd';
const NOW = 1_795_000_000;

function listing(over: Partial<ListingEntity> = {}): ListingEntity {
  return Object.assign(new ListingEntity(), {
    network: 'mainnet',
    parentName: 'oak.eth',
    price: '5000',
    lengthPrices: {},
    fee: '100',
    paymentReceiver: RECEIVER_55,
    expirable: false,
    fuses: 65536,
    reservedLabels: [],
    active: true,
    ...over,
  });
}

/** A content input as the service builds it: canonical addresses, and the quote of its listing, label and years. */
const input = (
  over: Partial<Omit<Parameters<typeof buildContent>[0], 'listing'>> & { listing?: ListingEntity } = {},
) => {
  const base = {
    listing: listing(),
    label: 'alice',
    parentName: 'oak.eth',
    minterAddress: MINTER_55,
    years: 1,
    nowSeconds: NOW,
    signatureTtlSeconds: 600,
    ...over,
  };
  return { ...base, quote: over.quote ?? quote(base.listing, base.label, base.years) };
};

const pipe = new AppValidationPipe();
/** Bodies and queries as the global pipe hands them to the service: validated and canonical. */
const mintBody = (body: object) =>
  pipe.transform(body, { type: 'body', metatype: MintRequestDto }) as Promise<MintRequestDto>;
const estimateQuery = (query: object) =>
  pipe.transform(query, { type: 'query', metatype: EstimateQueryDto }) as Promise<EstimateQueryDto>;

describe(buildContent.name, () => {
  it('fills every field of the contract table', () => {
    expect(buildContent(input())).toEqual({
      label: 'alice',
      parentNode: OAK_NODE,
      owner: MINTER_55,
      price: '5000',
      fee: '100',
      paymentReceiver: RECEIVER_55,
      expiry: NO_EXPIRY,
      signatureExpiry: NOW + 600,
      verifiedMinter: MINTER_55,
      fuses: 65536,
    });
  });

  it('uses the given owner', () => {
    expect(buildContent(input({ owner: OWNER_55 })).owner).toBe(OWNER_55);
  });

  it('charges per year and expires after the years for an expirable listing (100 years)', () => {
    const c = buildContent(input({ listing: listing({ expirable: true }), years: 100 }));
    expect(c).toMatchObject({ price: '500000', fee: '10000', expiry: NOW + 100 * SECONDS_PER_YEAR });
  });

  it('takes the one-character price for a one-character label, and allows zero', () => {
    const l = listing({ expirable: true, lengthPrices: { '1': '0', '2': '777' } });
    expect(buildContent(input({ listing: l, label: 'x', years: 3 }))).toMatchObject({ price: '0', fee: '300' });
    expect(buildContent(input({ listing: l, label: '🙂', years: 1 }))).toMatchObject({ price: '0' });
    expect(buildContent(input({ listing: l, label: 'xy', years: 2 }))).toMatchObject({ price: '1554' });
  });
});

describe(MintService.name, () => {
  const key = Wallet.createRandom();
  const config = loadConfig({
    NODE_ENV: 'test',
    MINT_MAINNET_SIGNER_KEY: key.privateKey,
    MINT_TESTNET_SIGNER_KEY: Wallet.createRandom().privateKey,
    CCIP_SIGNER_KEY: Wallet.createRandom().privateKey,
  });
  const signer = new SigningService(config);
  let stored: ListingEntity | null;
  let taken: Set<string>;
  const listings = { findActive: jest.fn(async () => stored) } as unknown as ListingsService;
  const subnames = { exists: jest.fn(async (n: string) => taken.has(n)) } as unknown as SubnamesService;
  const sut = new MintService(listings, subnames, signer, config);
  const body = { label: 'Alice', parentName: 'OAK.eth', minterAddress: MINTER };

  beforeEach(() => {
    stored = listing();
    taken = new Set();
  });

  it('takes the normalised body, signs with the network signer and returns content the signature covers', async () => {
    const { content, signature } = await sut.mintParameters(await mintBody(body));
    expect(content.label).toBe('alice');
    expect(content.parentNode).toBe(OAK_NODE);
    expect(listings.findActive).toHaveBeenLastCalledWith('mainnet', 'oak.eth');
    expect(verifyTypedData(signer.info('mainnet').domain, MINT_CONTEXT_TYPES, content, signature)).toBe(key.address);
  });

  it('asks for the testnet listing when isTestnet is true', async () => {
    await sut.mintParameters(await mintBody({ ...body, isTestnet: true }));
    expect(listings.findActive).toHaveBeenLastCalledWith('testnet', 'oak.eth');
  });

  it('checks in order: listing, then reserved, then taken', async () => {
    stored = listing({ reservedLabels: ['alice'] });
    taken.add('alice.oak.eth');
    await expect(sut.mintParameters(await mintBody(body))).rejects.toBeInstanceOf(SubnameReservedError);
    stored = listing();
    await expect(sut.mintParameters(await mintBody(body))).rejects.toBeInstanceOf(SubnameTakenError);
    stored = null;
    await expect(sut.mintParameters(await mintBody(body))).rejects.toBeInstanceOf(ListingNotFoundError);
  });

  it('estimates with the same checks, reporting instead of refusing', async () => {
    stored = listing({ expirable: true, price: '1000000000000000000', fee: '50000000000000000' });
    expect(await sut.estimate(await estimateQuery({ ...body, expiryInYears: 2 }))).toEqual({
      canMint: true,
      price: '2000000000000000000',
      fee: '100000000000000000',
      estimatedPriceEth: 2,
      estimatedFeeEth: 0.1,
      isStandardFee: true,
      validationErrors: [],
    });
    stored = listing({ reservedLabels: ['alice'] });
    taken.add('alice.oak.eth');
    expect(await sut.estimate(await estimateQuery(body))).toMatchObject({
      canMint: false,
      validationErrors: ['SUBNAME_RESERVED', 'SUBNAME_TAKEN'],
    });
    stored = null;
    expect(await sut.estimate(await estimateQuery(body))).toEqual({
      canMint: false,
      price: '0',
      fee: '0',
      estimatedPriceEth: 0,
      estimatedFeeEth: 0,
      isStandardFee: false,
      validationErrors: ['LISTING_NOT_FOUND'],
    });
  });

  it('refuses years that would overflow uint256 with a 400 naming expiryInYears', async () => {
    stored = listing({ expirable: true, price: (2n ** 255n).toString() });
    await expect(sut.mintParameters(await mintBody({ ...body, expiryInYears: 2 }))).rejects.toBeInstanceOf(
      ValidationFailedError,
    );
    await expect(sut.estimate(await estimateQuery({ ...body, expiryInYears: 2 }))).rejects.toMatchObject({
      errors: [{ field: 'expiryInYears' }],
    });
    await expect(sut.mintParameters(await mintBody({ ...body, expiryInYears: 1 }))).resolves.toBeDefined();
  });
});

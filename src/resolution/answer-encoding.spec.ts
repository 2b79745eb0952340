import { AbiCoder, getBytes, hexlify, zeroPadValue } from 'ethers';
import {
  encodeAddressResult,
  encodeBytesArrayResult,
  encodeBytesResult,
  encodeGatewayResponse,
  encodeStringResult,
} from './answer-encoding';

/** Hex of one 32-byte word holding n. */
const word = (n: number) => n.toString(16).padStart(64, '0');

describe('answer encodings (hand-checked ABI layouts)', () => {
  it('addr(bytes32): the address in one word', () => {
    expect(hexlify(encodeAddressResult(getBytes('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')))).toBe(
      `0x${'00'.repeat(12)}5aaeb6053f3e94c9b9a09f33669435e7ef1beaed`,
    );
    expect(hexlify(encodeAddressResult(null))).toBe(`0x${word(0)}`);
  });

  it('addr(bytes32,uint256): bytes, e.g. the ENSIP-9 btc vector of 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', () => {
    const p2pkh = '76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac';
    expect(hexlify(encodeBytesResult(getBytes(`0x${p2pkh}`)))).toBe(
      `0x${word(0x20)}${word(25)}${p2pkh}${'00'.repeat(7)}`,
    );
    expect(hexlify(encodeBytesResult(new Uint8Array()))).toBe(`0x${word(0x20)}${word(0)}`);
  });

  it('text(bytes32,string): the UTF-8 string', () => {
    expect(hexlify(encodeStringResult('alice'))).toBe(`0x${word(0x20)}${word(5)}616c696365${'00'.repeat(27)}`);
    expect(hexlify(encodeStringResult(''))).toBe(`0x${word(0x20)}${word(0)}`);
  });

  it('contenthash(bytes32): the ENSIP-7 bytes', () => {
    const ipfs = 'e3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f';
    expect(hexlify(encodeBytesResult(getBytes(`0x${ipfs}`)))).toBe(
      `0x${word(0x20)}${word(38)}${ipfs}${'00'.repeat(26)}`,
    );
  });

  it('multicall(bytes[]): each result as bytes, in order', () => {
    const a = getBytes(`0x${word(1)}`);
    const b = getBytes('0xabcd');
    expect(hexlify(encodeBytesArrayResult([a, b]))).toBe(
      `0x${word(0x20)}${word(2)}${word(0x40)}${word(0x80)}${word(32)}${word(1)}${word(2)}abcd${'00'.repeat(30)}`,
    );
  });

  it('the gateway response: abi.encode(bytes result, uint64 expires, bytes signature)', () => {
    const result = `0x${word(7)}`;
    const signature = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b`;
    const encoded = encodeGatewayResponse(result, 1795500900n, signature);
    expect(encoded).toBe(
      `0x${word(0x60)}${word(1795500900)}${word(0xa0)}${word(32)}${word(7)}${word(65)}${'11'.repeat(32)}${'22'.repeat(32)}1b${'00'.repeat(31)}`,
    );
    expect(AbiCoder.defaultAbiCoder().decode(['bytes', 'uint64', 'bytes'], encoded).toArray()).toEqual([
      result,
      1795500900n,
      signature,
    ]);
    expect(zeroPadValue('0x01', 32)).toBe(`0x${word(1)}`);
  });
});

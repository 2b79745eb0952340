import { namehash } from 'ethers';
import { surrogateKeysOf } from './answer-purger';

describe(surrogateKeysOf.name, () => {
  it('names the namehash of a changed subname, and of the reverse name of an address whose choice changed', () => {
    expect(surrogateKeysOf('subname_changes', 'alice.oak.eth')).toEqual([namehash('alice.oak.eth')]);
    const address = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    expect(surrogateKeysOf('primary_name_changes', address)).toEqual([
      namehash('5aaeb6053f3e94c9b9a09f33669435e7ef1beaed.addr.reverse'),
    ]);
  });

  it('names nothing for other channels and for a TRUNCATE (*)', () => {
    expect(surrogateKeysOf('listing_changes', 'mainnet:oak.eth')).toEqual([]);
    expect(surrogateKeysOf('subname_changes', '*')).toEqual([]);
  });
});

import { Global, Injectable, Logger, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EndedPrimaryName, EthAddressChange, PrimaryNameEndings } from '../subnames/primary-name-endings';
import { PrimaryNamesRepository } from './primary-names.repository';

/** The addresses that chose a name whose coin-60 address a write moved away from them. */
@Injectable()
export class StoredPrimaryNameEndings extends PrimaryNameEndings {
  private readonly logger = new Logger('PrimaryNameEndings');

  constructor(
    private readonly repository: PrimaryNamesRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    super();
  }

  async endedBy(changes: EthAddressChange[]): Promise<EndedPrimaryName[]> {
    try {
      const names = [...new Set(changes.map((c) => c.name))];
      const choices = await this.repository.choosersOf(this.dataSource.manager, names);
      return choices.filter((choice) =>
        changes.some((c) => c.name === choice.name && c.before.toLowerCase() === choice.address.toLowerCase()),
      );
    } catch (e) {
      // The write has committed: a failed warning must not turn it into an error.
      this.logger.warn(`could not tell which primary names a write ended: ${(e as Error).message}`);
      return [];
    }
  }
}

/** Global, so that subnames (a floor below) is told without importing this module. */
@Global()
@Module({
  providers: [PrimaryNamesRepository, { provide: PrimaryNameEndings, useClass: StoredPrimaryNameEndings }],
  exports: [PrimaryNameEndings],
})
export class PrimaryNameEndingsModule {}

import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PARENT_NAME_LENGTH } from './dto/create-subname.dto';
import { loadLegacyParentNames } from './legacy-parent-names';
import { LegacyParentNamesRepository } from './legacy-parent-names.repository';

const outsideBounds = (name: string) => name.length < PARENT_NAME_LENGTH[0] || name.length > PARENT_NAME_LENGTH[1];

/**
 * At start-up, records the stored parents whose normalised form is outside today's bounds (they were stored
 * while the bounds held the raw input) and loads the whole ledger for the DTOs. No write can add one now, so
 * what is read once stays complete; the ledger keeps a name after its subnames are deleted.
 */
@Injectable()
export class LegacyParentNamesLedger implements OnModuleInit {
  private readonly logger = new Logger('LegacyParentNames');

  constructor(
    private readonly repository: LegacyParentNamesRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    const { ledger, recorded } = await this.dataSource.transaction(async (m) => {
      const found = (await this.repository.lengthOutliers(m)).filter(outsideBounds);
      const recorded = found.length > 0 ? await this.repository.record(m, found) : 0;
      return { ledger: await this.repository.findAll(m), recorded };
    });
    loadLegacyParentNames(ledger);
    if (ledger.length > 0) {
      this.logger.log(
        `${ledger.length} parent name(s) stored under the old length rule are accepted in their stored form ` +
          `(${recorded} recorded now)`,
      );
    }
  }
}

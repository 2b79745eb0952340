import { Injectable } from '@nestjs/common';

/** What a module above adds to a parent's export, before its names (a line's object, or null for none). */
export type ExportPreamble = (parentName: string) => Promise<Record<string, unknown> | null>;

/**
 * The lines an export writes first for each parent, given by the modules above subnames (holders: the parent's
 * policy), so that an export carries them without subnames knowing those modules.
 */
@Injectable()
export class ExportPreambles {
  private readonly sources: ExportPreamble[] = [];

  register(source: ExportPreamble): void {
    this.sources.push(source);
  }

  /** The NDJSON text of the parent's preamble lines ('' when none). */
  async linesOf(parentName: string): Promise<string> {
    let text = '';
    for (const source of this.sources) {
      const line = await source(parentName);
      if (line) text += `${JSON.stringify(line)}\n`;
    }
    return text;
  }
}
